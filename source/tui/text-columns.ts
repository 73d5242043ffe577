import {graphemes, widthOf} from './markdown/wrap.js';

/**
 * Columns a tab advances to (a multiple of). Tabs become spaces wherever the
 * screen lays text out itself: Ink and string-width count a tab as no
 * column, while the terminal moves it to the next stop, so a tab left in
 * would push the rest of its row (and a box's right border) out of place.
 */
export const TAB_WIDTH = 4;

/** `text` with each tab replaced by the spaces up to the next stop, counted in columns from the start of its line (wide characters count two). */
export function expandTabs(text: string): string {
	if (!text.includes('\t')) return text;
	return text.split('\n').map(expandLine).join('\n');
}

function expandLine(line: string): string {
	const [first = '', ...rest] = line.split('\t');
	let out = first;
	let column = widthOf(first);
	for (const piece of rest) {
		const pad = TAB_WIDTH - (column % TAB_WIDTH);
		out += ' '.repeat(pad) + piece;
		column += pad + widthOf(piece);
	}

	return out;
}

/** A line (no tabs, no line breaks) cut between graphemes into pieces of at most `width` columns; an empty line is one empty piece. */
export function breakAtWidth(line: string, width: number): string[] {
	if (widthOf(line) <= width) return [line];
	const pieces: string[] = [];
	let piece = '';
	let used = 0;
	for (const grapheme of graphemes(line)) {
		const graphemeWidth = widthOf(grapheme);
		if (used + graphemeWidth > width && used > 0) {
			pieces.push(piece);
			piece = '';
			used = 0;
		}

		piece += grapheme;
		used += graphemeWidth;
	}

	pieces.push(piece);
	return pieces;
}
