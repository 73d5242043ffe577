import stringWidth from '../string-width-fast.js';
import {paint, sameStyle, type Style} from './style.js';

/** A run of text in one style; `\n` in a fragment is a hard line break. */
export interface Fragment {
	text: string;
	style: Style;
}

/** One screen row: fragments whose widths add up to at most the width it was made for. */
export type Row = Fragment[];

interface Word {
	fragments: Fragment[];
	width: number;
	/** A space stands between this word and the one before (none between two wide characters). */
	spaceBefore: boolean;
	/** A hard line break comes before this word. */
	breakBefore: boolean;
}

const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});
const ASCII = /^[\u0020-\u007E]*$/;

/** A string's graphemes: one per character for ASCII, which is most text, without the segmenter's cost. */
export function graphemes(text: string): string[] {
	if (ASCII.test(text)) return [...text];
	return Array.from(segmenter.segment(text), segment => segment.segment);
}

export function widthOf(text: string): number {
	return stringWidth(text);
}

/** Words of styled text: split at spaces, and around each wide (CJK) character, where a line may break without a space. */
function words(fragments: readonly Fragment[]): Word[] {
	const result: Word[] = [];
	let current: Word | null = null;
	let space = false;
	let hardBreak = false;
	const start = (): Word => {
		const word: Word = {fragments: [], width: 0, spaceBefore: space && result.length > 0 && !hardBreak, breakBefore: hardBreak};
		result.push(word);
		space = false;
		hardBreak = false;
		return word;
	};

	const add = (word: Word, text: string, style: Style, width: number) => {
		const last = word.fragments.at(-1);
		if (last && last.style === style) last.text += text;
		else word.fragments.push({text, style});
		word.width += width;
	};

	for (const {text, style} of fragments) {
		for (const grapheme of graphemes(text)) {
			if (grapheme === ' ' || grapheme === '\t') {
				space = true;
				current = null;
				continue;
			}

			if (grapheme === '\n') {
				hardBreak = true;
				current = null;
				continue;
			}

			const width = grapheme.length === 1 && grapheme.charCodeAt(0) < 0x7f ? 1 : stringWidth(grapheme);
			if (width === 2) {
				// A wide character is a word of its own: a line may break before and after it.
				const word = start();
				add(word, grapheme, style, width);
				current = null;
				continue;
			}

			current ??= start();
			add(current, grapheme, style, width);
		}
	}

	// A hard break at the very end still ends the line it is on.
	if (hardBreak) result.push({fragments: [], width: 0, spaceBefore: false, breakBefore: true});
	return result;
}

/**
 * Styled text wrapped at `width` columns, word by word; a word longer than
 * a row is broken between graphemes. Wide characters count two columns
 * (string-width-fast). Always at least one row.
 */
export function wrapFragments(fragments: readonly Fragment[], width: number): Row[] {
	const rows: Row[] = [[]];
	let used = 0;
	let lastStyle: Style | null = null;
	const push = (text: string, style: Style, textWidth: number) => {
		const row = rows.at(-1)!;
		const last = row.at(-1);
		if (last && last.style === style) last.text += text;
		else row.push({text, style});
		used += textWidth;
	};

	const newRow = () => {
		rows.push([]);
		used = 0;
	};

	for (const word of words(fragments)) {
		if (word.breakBefore) newRow();
		const first = word.fragments[0];
		if (!first) continue;
		const gap = word.spaceBefore && used > 0 ? 1 : 0;
		if (used + gap + word.width <= width) {
			// The space between two words of one link or one emphasis keeps their style.
			if (gap) push(' ', lastStyle && sameStyle(lastStyle, first.style) ? first.style : {}, 1);
		} else if (word.width <= width) {
			if (used > 0) newRow();
		} else if (used + gap < width && used > 0) {
			// A word longer than any row starts where it is and goes on in the next rows.
			if (gap) push(' ', {}, 1);
		} else if (used > 0) {
			newRow();
		}

		for (const fragment of word.fragments) {
			if (used + fragmentWidth(fragment) <= width) {
				push(fragment.text, fragment.style, fragmentWidth(fragment));
				continue;
			}

			for (const grapheme of graphemes(fragment.text)) {
				const graphemeWidth = stringWidth(grapheme);
				if (used + graphemeWidth > width && used > 0) newRow();
				push(grapheme, fragment.style, graphemeWidth);
			}
		}

		lastStyle = word.fragments.at(-1)!.style;
	}

	return rows;
}

const widths = new WeakMap<Fragment, number>();
function fragmentWidth(fragment: Fragment): number {
	let width = widths.get(fragment);
	if (width === undefined) {
		width = stringWidth(fragment.text);
		widths.set(fragment, width);
	}

	return width;
}

export function rowWidth(row: Row): number {
	let width = 0;
	for (const fragment of row) width += stringWidth(fragment.text);
	return width;
}

/** A row as terminal text: each fragment in its style, closed at its end. */
export function paintRow(row: Row, color: boolean): string {
	let text = '';
	for (const fragment of row) text += paint(fragment.text, fragment.style, color);
	return text;
}
