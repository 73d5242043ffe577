import {glyph, type Tone} from './glyph.js';

/** ASCII has no half blocks: one text row per pixel row, two characters per pixel so it keeps its proportions. */
const marks: Readonly<Record<Tone | 'empty', string>> = {primary: '##', accent: '@@', empty: '  '};

/** The mark in ASCII only, for terminals and logs that cannot show block characters. */
export function renderAscii(): string {
	return glyph.map(row => `${row.map(pixel => marks[pixel ?? 'empty']).join('')}\n`).join('');
}
