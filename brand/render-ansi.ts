import {colours, type Tone} from './glyph.js';
import {halfBlockRows} from './half-blocks.js';

/**
 * `truecolor` sends the brand colours exactly; `256` picks the nearest of the
 * xterm 6×6×6 colour cube, for terminals that do not announce 24-bit colour.
 */
export type ColourDepth = 'truecolor' | '256';

const cubeLevels = [0, 95, 135, 175, 215, 255];

function rgb(hex: string): [number, number, number] {
	const value = Number.parseInt(hex.slice(1), 16);
	return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

function nearestLevel(channel: number): number {
	let best = 0;
	for (let index = 1; index < cubeLevels.length; index++) {
		if (Math.abs(cubeLevels[index]! - channel) < Math.abs(cubeLevels[best]! - channel)) best = index;
	}

	return best;
}

/** The SGR parameters that set `tone` as foreground (38) or background (48). */
function sgr(layer: 38 | 48, tone: Tone, depth: ColourDepth): string {
	const [red, green, blue] = rgb(colours[tone]);
	if (depth === 'truecolor') return `${layer};2;${red};${green};${blue}`;
	return `${layer};5;${16 + 36 * nearestLevel(red) + 6 * nearestLevel(green) + nearestLevel(blue)}`;
}

/** The mark in colour, two pixel rows per terminal row; every coloured run is reset so nothing bleeds past the mark. */
export function renderAnsi(depth: ColourDepth = 'truecolor'): string {
	return halfBlockRows()
		.map(runs => {
			const line = runs.map(run => {
				if (run.fg === null) return run.text;
				const params = [sgr(38, run.fg, depth), ...(run.bg === null ? [] : [sgr(48, run.bg, depth)])];
				return `\u001B[${params.join(';')}m${run.text}\u001B[0m`;
			});
			return `${line.join('')}\n`;
		})
		.join('');
}
