import {breakAtWidth, expandTabs} from './text-columns.js';
import type {PaletteKey} from './theme/palette.js';

/** One screen row of an approval's detail: a diff line, or the part of one that fits the width. */
export interface DetailRow {
	text: string;
	/** The theme's colour for the diff line it belongs to. */
	color: PaletteKey | undefined;
	/** The line it belongs to, from 1. */
	line: number;
}

/** A diff line's colour: additions, removals and hunk headers have theirs; file headers and context are plain. */
export function lineColor(line: string): PaletteKey | undefined {
	if (line.startsWith('+++') || line.startsWith('---')) return undefined;
	if (line.startsWith('+')) return 'diffAdded';
	if (line.startsWith('-')) return 'diffRemoved';
	if (line.startsWith('@@')) return 'diffHunk';
	return undefined;
}

/** The detail's lines, tabs expanded. */
export function detailLines(detail: string): string[] {
	return expandTabs(detail).split('\n');
}

/** The detail as rows of at most `width` columns: a longer line goes on in the rows below it, in its colour, so every column of it can be read and each row is one row on the screen. */
export function detailRows(detail: string, width: number): DetailRow[] {
	const rows: DetailRow[] = [];
	for (const [index, line] of detailLines(detail).entries()) {
		const color = lineColor(line);
		for (const text of breakAtWidth(line, Math.max(1, width))) rows.push({text, color, line: index + 1});
	}

	return rows;
}
