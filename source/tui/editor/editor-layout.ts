import type {EditorText} from './editor-text.js';
import {MAX_CLUSTER, clusterWidth, forEachCluster, lastCertainBoundary, visibleCluster} from './editor-graphemes.js';

/*
 * Wrapping the editor's text into terminal rows. Every row is indented by
 * the prompt's width (the prompt on the first row, blanks under it after) and
 * keeps its last column free, so a caret at the end of a line always has a
 * cell on that line's row. A cluster that does not fit moves whole to the
 * next row; a newline always starts one. The caret at a wrap point (the end
 * of a full row that continues) belongs to the next row, column 0.
 */

export interface Geometry {
	/** Columns the editor may draw in, prompt included (1–500). */
	readonly width: number;
	/** Display width of the prompt in front of the first row. */
	readonly promptWidth: number;
}

export interface Row {
	/** Offset of the row's first cluster. */
	readonly start: number;
	/** Offset after its last cluster (for a line's last row, the newline's offset or the text's end). */
	readonly end: number;
	/** Display columns the row's clusters take. */
	readonly width: number;
	/** The last row of its logical line: only there may the caret sit at `end`. */
	readonly last: boolean;
}

export const TAB_STOP = 4;
const TAB = 0x09;

/** Columns a row gives to text: the width less the prompt indent and the caret's spare column (at least 1). */
export function contentWidth({width, promptWidth}: Geometry): number {
	return Math.max(1, width - promptWidth - 1);
}

/** Columns of chunk[start, end) drawn at `column` (a tab reaches the next tab stop). */
function widthAt(chunk: string, start: number, end: number, column: number): number {
	const code = chunk.charCodeAt(start);
	if (end - start === 1) {
		if (code === TAB) return TAB_STOP - (column % TAB_STOP);
		if (code >= 0x20 && code < 0x7f) return 1;
	}

	return clusterWidth(chunk.slice(start, end));
}

/** Visits the clusters of text[from, to) a chunk at a time (a long line is never copied or segmented whole), until `visit` returns true. */
function forEachClusterOf(text: EditorText, from: number, to: number, visit: (chunk: string, start: number, end: number, base: number) => boolean | void): void {
	let base = from;
	while (base < to) {
		const chunk = text.slice(base, Math.min(to, base + MAX_CLUSTER));
		const cut = base + chunk.length === to ? chunk.length : lastCertainBoundary(chunk, 0, chunk.length);
		const end = cut === -1 ? chunk.length : cut;
		if (forEachCluster(chunk, 0, end, (start, clusterEnd) => visit(chunk, start, clusterEnd, base))) return;
		base += end;
	}
}

/** How much of a line a caller needs: the row holding `offset` and `rowsAfter` complete rows after it. */
export interface Need {
	readonly offset: number;
	readonly rowsAfter: number;
}

/** Wrapping continued from `rows` (complete rows of the line, their last one ending where wrapping resumes). */
function wrapFrom(text: EditorText, rows: Row[], resume: number, lineEnd: number, columns: number, need: Need | undefined): Row[] {
	let rowStart = resume;
	let column = 0;
	let after = 0;
	let complete = true;
	forEachClusterOf(text, resume, lineEnd, (chunk, start, end, base) => {
		let width = widthAt(chunk, start, end, column);
		if (column + width > columns && column > 0) {
			rows.push({start: rowStart, end: base + start, width: column, last: false});
			rowStart = base + start;
			column = 0;
			width = widthAt(chunk, start, end, column);
			if (need && rowStart > need.offset && ++after > need.rowsAfter) {
				complete = false;
				return true;
			}
		}

		column += width;
		return false;
	});
	if (complete) rows.push({start: rowStart, end: lineEnd, width: column, last: true});
	return rows;
}

/** Lines at least this long keep their rows between calls: only the rows after an edit are wrapped again. */
const CACHED_LINE = 4 * MAX_CLUSTER;
const CACHE_SIZE = 8;

interface CachedLine {
	readonly text: EditorText;
	readonly lineStart: number;
	readonly lineEnd: number;
	readonly columns: number;
	readonly rows: readonly Row[];
}

const cache: CachedLine[] = [];

/** The complete rows of a cached wrap of the same line that this text still shares, and where to go on from. */
function reusable(text: EditorText, lineStart: number, lineEnd: number, columns: number): {rows: Row[]; resume: number} | Row[] {
	const entry = cache.find(line => line.lineStart === lineStart && line.columns === columns);
	if (!entry) return {rows: [], resume: lineStart};
	const shared = text.sharedPrefix(entry.text);
	const whole = entry.rows.at(-1)?.last === true && entry.lineEnd === lineEnd;
	if (whole && (shared > lineEnd || (shared === lineEnd && lineEnd === text.length && lineEnd === entry.text.length))) return [...entry.rows];
	// An edit at `shared` can change the cluster before it, and so whether that cluster fit on the row above: keep one row less.
	let kept = 0;
	while (kept < entry.rows.length && entry.rows[kept]!.end < shared && !entry.rows[kept]!.last) kept++;
	kept = Math.max(0, kept - 1);
	return {rows: entry.rows.slice(0, kept), resume: kept === 0 ? lineStart : entry.rows[kept]!.start};
}

/**
 * The rows of the logical line [lineStart, lineEnd) at `columns` text
 * columns; with `need`, possibly only up to what it asks for (the last row
 * returned then has `last` false).
 */
export function wrapLine(text: EditorText, lineStart: number, lineEnd: number, columns: number, need?: Need): Row[] {
	if (lineEnd - lineStart < CACHED_LINE) return wrapFrom(text, [], lineStart, lineEnd, columns, need);
	const reuse = reusable(text, lineStart, lineEnd, columns);
	const rows = Array.isArray(reuse) ? reuse : wrapFrom(text, reuse.rows, reuse.resume, lineEnd, columns, need);
	const index = cache.findIndex(line => line.lineStart === lineStart && line.columns === columns);
	if (index !== -1) cache.splice(index, 1);
	cache.unshift({text, lineStart, lineEnd, columns, rows});
	cache.length = Math.min(cache.length, CACHE_SIZE);
	return rows;
}

/** Every row of the text. */
export function layoutText(text: EditorText, geometry: Geometry): Row[] {
	const columns = contentWidth(geometry);
	const rows: Row[] = [];
	for (let start = 0; ; ) {
		const end = text.lineEnd(start);
		rows.push(...wrapLine(text, start, end, columns));
		if (end === text.length) return rows;
		start = end + 1;
	}
}

/** Calls `visit(offset, column)` for each cluster start in the row, then once for the row's end. */
function walkRow(text: EditorText, row: Row, visit: (offset: number, column: number) => void): void {
	const chunk = text.slice(row.start, row.end);
	let column = 0;
	forEachCluster(chunk, 0, chunk.length, (start, end) => {
		visit(row.start + start, column);
		column += widthAt(chunk, start, end, column);
	});
	visit(row.end, column);
}

/** The display column of `offset` within `row`. */
export function columnIn(text: EditorText, row: Row, offset: number): number {
	let found = 0;
	walkRow(text, row, (at, column) => {
		if (at <= offset) found = column;
	});
	return found;
}

/**
 * The caret offset in `row` nearest to `column` without passing it; the end of
 * a row that continues is the next row's start, so there the caret stops
 * before the last cluster.
 */
export function offsetAt(text: EditorText, row: Row, column: number): number {
	let found = row.start;
	walkRow(text, row, (at, atColumn) => {
		if (atColumn <= column && (row.last || at < row.end)) found = at;
	});
	return found;
}

/** Index of the row holding the caret: the last row starting at or before it. */
export function rowOf(rows: readonly Row[], caret: number): number {
	let low = 0;
	let high = rows.length - 1;
	while (low < high) {
		const middle = (low + high + 1) >> 1;
		if (rows[middle]!.start <= caret) low = middle;
		else high = middle - 1;
	}

	return low;
}

/** The caret's logical line's rows (up to `rowsAfter` past the caret's), its row among them and its column. */
export function caretInLine(text: EditorText, caret: number, columns: number, rowsAfter: number): {rows: Row[]; index: number; column: number} {
	const rows = wrapLine(text, text.lineStart(caret), text.lineEnd(caret), columns, {offset: caret, rowsAfter});
	const index = rowOf(rows, caret);
	return {rows, index, column: columnIn(text, rows[index]!, caret)};
}

/** The row as the terminal gets it: tabs as spaces, control characters as their pictures. */
export function rowText(text: EditorText, row: Row): string {
	const chunk = text.slice(row.start, row.end);
	let result = '';
	let column = 0;
	forEachCluster(chunk, 0, chunk.length, (start, end) => {
		const width = widthAt(chunk, start, end, column);
		result += chunk.charCodeAt(start) === TAB && end - start === 1 ? ' '.repeat(width) : visibleCluster(chunk.slice(start, end));
		column += width;
	});
	return result;
}

export interface View {
	/** The visible rows, at most maxRows. */
	readonly rows: readonly Row[];
	/** The caret's row among `rows`, and its column (prompt not included). */
	readonly caretRow: number;
	readonly caretColumn: number;
	/** Offset of the first visible row: pass it back as `previousTop` so the view scrolls only when the caret leaves it. */
	readonly top: number;
	/** Rows hidden above or below the view. */
	readonly hiddenAbove: boolean;
	readonly hiddenBelow: boolean;
}

/**
 * The rows to draw: at most `maxRows` around the caret, wrapping only the
 * lines near it (a 1 MB paste is never laid out whole on a keystroke).
 */
export function viewport(text: EditorText, caret: number, geometry: Geometry, maxRows: number, previousTop: number | null): View {
	const columns = contentWidth(geometry);
	const reach = Math.max(1, maxRows) - 1;
	const own = caretInLine(text, caret, columns, reach);
	let rows = own.rows;
	let caretIndex = own.index;
	let first = rows[0]!.start;
	while (caretIndex < reach && first > 0) {
		const line = wrapLine(text, text.lineStart(first - 1), first - 1, columns);
		const above = line.slice(Math.max(0, line.length - (reach - caretIndex)));
		rows = [...above, ...rows];
		caretIndex += above.length;
		first = above[0]!.start;
	}

	let last = rows[rows.length - 1]!.end;
	while (rows.length - 1 - caretIndex < reach && rows[rows.length - 1]!.last && last < text.length) {
		const below = wrapLine(text, last + 1, text.lineEnd(last + 1), columns, {offset: last + 1, rowsAfter: reach - (rows.length - caretIndex)});
		rows = [...rows, ...below];
		last = below[below.length - 1]!.end;
	}

	const found = previousTop === null ? -1 : rows.findIndex(row => row.start === previousTop);
	let top = found === -1 ? caretIndex - reach : found;
	top = Math.min(Math.max(top, caretIndex - reach), caretIndex, rows.length - 1 - reach);
	top = Math.max(0, top);
	const visible = rows.slice(top, top + reach + 1);
	return {
		rows: visible,
		caretRow: caretIndex - top,
		caretColumn: own.column,
		top: visible[0]!.start,
		hiddenAbove: top > 0 || first > 0,
		hiddenBelow: top + visible.length < rows.length || last < text.length,
	};
}
