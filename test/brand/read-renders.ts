// Reads each renderer's output back into a pixel grid, written as the glyph
// is: `#` primary, `o` accent, `.` empty (and `x` for a filled pixel whose
// tone the output cannot tell). Tests compare these grids with the glyph.
import {colours, glyph, glyphHeight, glyphWidth, type Tone} from '../../brand/glyph.js';
import {childElements, parseXml} from './xml.js';

const marks: Record<Tone, string> = {primary: '#', accent: 'o'};

/** The glyph itself as grid rows. */
export const glyphRows = glyph.map(row => row.map(pixel => (pixel === null ? '.' : marks[pixel])).join(''));

/** The shape without tones. */
export function shapeOf(rows: string[]): string[] {
	return rows.map(row => row.replace(/[^.]/g, 'x'));
}

function lines(text: string): string[] {
	if (!text.endsWith('\n')) throw new Error('output does not end with a newline');
	return text.slice(0, -1).split('\n');
}

/** Terminal rows of two pixel rows each, from the character and colours of each cell. */
function halfBlockGrid(cells: Array<Array<{char: string; fg: string; bg: string}>>): string[] {
	const rows: string[] = [];
	for (const line of cells) {
		if (line.length !== glyphWidth) throw new Error(`a row ${line.length} cells wide, the glyph is ${glyphWidth}`);
		let top = '';
		let bottom = '';
		for (const {char, fg, bg} of line) {
			const [upper, lower] = {' ': [bg, bg], '▀': [fg, bg], '▄': [bg, fg], '█': [fg, fg]}[char] ?? [];
			if (upper === undefined || lower === undefined) throw new Error(`unexpected character ${JSON.stringify(char)}`);
			top += upper;
			bottom += lower;
		}

		rows.push(top, bottom);
	}

	// An odd last pixel row is drawn over an empty one.
	if (rows.length === glyphHeight + 1 && /^\.+$/.test(rows.at(-1)!)) rows.pop();
	return rows;
}

export function readPlain(text: string): string[] {
	return halfBlockGrid(lines(text).map(line => [...line].map(char => ({char, fg: 'x', bg: '.'}))));
}

export function readAscii(text: string): string[] {
	return lines(text).map(line => {
		if (line.length !== glyphWidth * 2) throw new Error(`an ASCII row ${line.length} characters wide`);
		return line.replace(/(..)/g, pair => ({'##': '#', '@@': 'o', '  ': '.'})[pair] ?? `[${pair}]`);
	});
}

/** The xterm colour a 256-colour index stands for (cube and grey ramp). */
function xtermRgb(index: number): number[] {
	if (index >= 232) return Array(3).fill(8 + 10 * (index - 232));
	if (index < 16) throw new Error(`system colour ${index} is not a brand colour`);
	const levels = [0, 95, 135, 175, 215, 255];
	const cube = index - 16;
	return [Math.floor(cube / 36), Math.floor(cube / 6) % 6, cube % 6].map(level => levels[level]!);
}

/** The brand tone nearest to an SGR colour; far from both is an error, not a guess. */
function toneOf(rgb: number[], maxDistance: number): string {
	for (const [tone, hex] of Object.entries(colours) as Array<[Tone, string]>) {
		const brand = [1, 3, 5].map(at => Number.parseInt(hex.slice(at, at + 2), 16));
		if (brand.every((value, channel) => Math.abs(value - rgb[channel]!) <= maxDistance)) return marks[tone];
	}

	throw new Error(`colour ${rgb.join(',')} is no brand colour`);
}

/** Replays the SGR sequences (truecolor 38;2 / 48;2, 256-colour 38;5 / 48;5, resets 0, 39, 49) cell by cell. */
export function readAnsi(text: string): string[] {
	return halfBlockGrid(
		lines(text).map(line => {
			const cells: Array<{char: string; fg: string; bg: string}> = [];
			let fg = '.';
			let bg = '.';
			for (const [, params, char] of line.matchAll(/\u001B\[([0-9;]*)m|(.)/gsu)) {
				if (char !== undefined) {
					cells.push({char, fg, bg});
					continue;
				}

				const numbers = params!.split(';').map(Number);
				while (numbers.length > 0) {
					const code = numbers.shift()!;
					if (code === 0) [fg, bg] = ['.', '.'];
					else if (code === 39) fg = '.';
					else if (code === 49) bg = '.';
					else if ((code === 38 || code === 48) && numbers[0] === 2) {
						const tone = toneOf(numbers.splice(0, 4).slice(1), 0);
						if (code === 38) fg = tone;
						else bg = tone;
					} else if ((code === 38 || code === 48) && numbers[0] === 5) {
						// The 6×6×6 cube's steps are 40 apart (95 from 0): the nearest entry is within half that, or 48.
						const tone = toneOf(xtermRgb(numbers.splice(0, 2)[1]!), 48);
						if (code === 38) fg = tone;
						else bg = tone;
					} else throw new Error(`unexpected SGR parameter ${code} in ${JSON.stringify(params)}`);
				}
			}

			if (fg !== '.' || bg !== '.') throw new Error('a colour is left set at the end of a line');
			return cells;
		}),
	);
}

export interface SvgReading {
	rows: string[];
	/** Cells covered by rects, counting overlaps twice. */
	area: number;
	rects: number;
	root: Record<string, string>;
	title: string;
}

/** The grid the SVG's rects cover, from its parsed XML; each group's fill gives the tone. */
export function readSvg(text: string): SvgReading {
	const root = parseXml(text);
	if (root.name !== 'svg') throw new Error(`root element is <${root.name}>`);
	const grid = Array.from({length: glyphHeight}, () => Array<string>(glyphWidth).fill('.'));
	let area = 0;
	let count = 0;
	for (const group of childElements(root, 'g')) {
		const tone = toneOf(
			[1, 3, 5].map(at => Number.parseInt(group.attributes.fill!.slice(at, at + 2), 16)),
			0,
		);
		for (const rect of childElements(group, 'rect')) {
			const [x, y, width, height] = ['x', 'y', 'width', 'height'].map(key => Number(rect.attributes[key]));
			count++;
			area += width! * height!;
			for (let row = y!; row < y! + height!; row++) {
				for (let column = x!; column < x! + width!; column++) grid[row]![column] = tone;
			}
		}
	}

	const title = childElements(root, 'title')[0]?.children.join('') ?? '';
	return {rows: grid.map(row => row.join('')), area, rects: count, root: root.attributes, title};
}
