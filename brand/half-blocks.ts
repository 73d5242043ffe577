import {glyph, glyphHeight, glyphWidth, type Pixel, type Tone} from './glyph.js';

/**
 * A stretch of one terminal row drawn in one colour pair: `fg` colours the
 * block characters, `bg` the other half of the cell; null is the terminal's own.
 */
export interface HalfBlockRun {
	text: string;
	fg: Tone | null;
	bg: Tone | null;
}

/** Terminal cells are about twice as tall as wide, so each one shows two pixel rows and the pixels stay square. */
function cell(top: Pixel, bottom: Pixel): HalfBlockRun {
	if (top === null) return bottom === null ? {text: ' ', fg: null, bg: null} : {text: '▄', fg: bottom, bg: null};
	if (bottom === null) return {text: '▀', fg: top, bg: null};
	return top === bottom ? {text: '█', fg: top, bg: null} : {text: '▀', fg: top, bg: bottom};
}

/** The glyph as terminal rows of half-block runs; an odd last pixel row gets an empty row beneath. */
export function halfBlockRows(): HalfBlockRun[][] {
	const lines: HalfBlockRun[][] = [];
	for (let y = 0; y < glyphHeight; y += 2) {
		const runs: HalfBlockRun[] = [];
		for (let x = 0; x < glyphWidth; x++) {
			const next = cell(glyph[y]![x] ?? null, glyph[y + 1]?.[x] ?? null);
			const last = runs.at(-1);
			if (last && last.fg === next.fg && last.bg === next.bg) last.text += next.text;
			else runs.push(next);
		}

		lines.push(runs);
	}

	return lines;
}
