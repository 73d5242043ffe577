import {merge, type Style} from './style.js';
import {rowWidth, widthOf, wrapFragments, type Fragment, type Row} from './wrap.js';

export type Align = 'left' | 'center' | 'right' | null;

const BORDER: Style = {color: 'muted'};
const HEADER: Style = {bold: true};

/**
 * A table fitted to `width` columns: every column as wide as its widest
 * cell when that fits, else the widest columns narrowed alike until the
 * table fits, and cells wrapped inside their column (wide characters count
 * two). Too narrow for even one column per cell, each row is shown as
 * `header: value` lines instead.
 */
export function renderTable(header: readonly Fragment[][], rows: readonly Fragment[][][], align: readonly Align[], width: number): Row[] {
	const count = header.length;
	const available = width - (3 * count + 1);
	if (count === 0) return [];
	if (available < count) return stacked(header, rows, width);
	const natural = header.map((cell, column) => Math.max(1, cellWidth(cell), ...rows.map(row => cellWidth(row[column] ?? []))));
	const widths = fit(natural, available);
	const line = (left: string, middle: string, right: string): Row => [{text: left + widths.map(w => '─'.repeat(w + 2)).join(middle) + right, style: BORDER}];
	const out: Row[] = [line('┌', '┬', '┐')];
	const addRow = (cells: readonly Fragment[][], base: Style) => {
		const wrapped = widths.map((w, column) => wrapFragments(styled(cells[column] ?? [], base), w));
		const height = Math.max(...wrapped.map(cell => cell.length));
		for (let index = 0; index < height; index++) {
			const row: Row = [{text: '│', style: BORDER}];
			for (const [column, w] of widths.entries()) {
				const content = wrapped[column]![index] ?? [];
				const free = w - rowWidth(content);
				const before = align[column] === 'right' ? free : align[column] === 'center' ? Math.floor(free / 2) : 0;
				row.push({text: ' '.repeat(before + 1), style: {}}, ...content, {text: ' '.repeat(free - before + 1), style: {}}, {text: '│', style: BORDER});
			}

			out.push(row);
		}
	};

	addRow(header, HEADER);
	out.push(line('├', '┼', '┤'));
	for (const row of rows) addRow(row, {});
	out.push(line('└', '┴', '┘'));
	return out;
}

function cellWidth(cell: readonly Fragment[]): number {
	let width = 0;
	for (const fragment of cell) width += widthOf(fragment.text);
	return width;
}

function styled(cell: readonly Fragment[], base: Style): Fragment[] {
	return base === HEADER ? cell.map(fragment => ({text: fragment.text, style: merge(fragment.style, base)})) : [...cell];
}

/** Column widths adding up to at most `available`: the natural ones, or all capped at one width (the columns over it sharing what is left). */
function fit(natural: readonly number[], available: number): number[] {
	const total = natural.reduce((sum, w) => sum + w, 0);
	if (total <= available) return [...natural];
	let low = 1;
	let high = Math.max(...natural);
	// The largest cap whose capped widths still fit.
	while (low < high) {
		const cap = Math.ceil((low + high) / 2);
		if (natural.reduce((sum, w) => sum + Math.min(w, cap), 0) <= available) low = cap;
		else high = cap - 1;
	}

	const widths = natural.map(w => Math.min(w, low));
	let left = available - widths.reduce((sum, w) => sum + w, 0);
	for (let column = 0; column < widths.length && left > 0; column++) {
		if (natural[column]! > widths[column]!) {
			widths[column] = widths[column]! + 1;
			left--;
		}
	}

	return widths;
}

function stacked(header: readonly Fragment[][], rows: readonly Fragment[][][], width: number): Row[] {
	const out: Row[] = [];
	for (const [index, row] of rows.entries()) {
		if (index > 0) out.push([{text: '─'.repeat(Math.max(1, width)), style: BORDER}]);
		for (const [column, cell] of header.entries()) out.push(...wrapFragments([...styled(cell, HEADER), {text: ': ', style: HEADER}, ...(row[column] ?? [])], width));
	}

	return out;
}
