import {colours, glyph, glyphHeight, glyphWidth, type Tone} from './glyph.js';

/** Pixels of the SVG per glyph cell: 6×8 cells make a 192×256 px image. */
export const svgCellPx = 32;
export const svgWidthPx = glyphWidth * svgCellPx;
export const svgHeightPx = glyphHeight * svgCellPx;

/** Each row's horizontal runs of one tone become one rect, in glyph cells (the viewBox scales them). */
function rects(tone: Tone): string[] {
	const out: string[] = [];
	glyph.forEach((row, y) => {
		for (let x = 0; x < row.length; x++) {
			if (row[x] !== tone) continue;
			const start = x;
			while (row[x + 1] === tone) x++;
			out.push(`<rect x="${start}" y="${y}" width="${x - start + 1}" height="1"/>`);
		}
	});
	return out;
}

/**
 * The mark as a standalone SVG 1.1 document on a transparent background.
 * crispEdges keeps the cell seams from showing as hairlines when scaled.
 */
export function renderSvg(): string {
	const groups = (Object.keys(colours) as Tone[]).map(
		tone =>
			`  <g fill="${colours[tone]}">\n${rects(tone)
				.map(rect => `    ${rect}\n`)
				.join('')}  </g>\n`,
	);
	return [
		'<?xml version="1.0" encoding="UTF-8"?>\n',
		`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${svgWidthPx}px" height="${svgHeightPx}px" viewBox="0 0 ${glyphWidth} ${glyphHeight}" shape-rendering="crispEdges">\n`,
		'  <title>i</title>\n',
		...groups,
		'</svg>\n',
	].join('');
}
