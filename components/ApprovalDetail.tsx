import {Box, Text} from 'ink';
import {plural} from '../source/core/tools/format.js';
import type {DetailRow} from '../source/tui/detail-rows.js';
import {colourOf} from '../source/tui/theme/active-palette.js';

/** The most rows of a diff or command the question shows at once (fewer on a short terminal); the rest is scrolled to. */
export const MAX_DETAIL_LINES = 30;

/** The columns the question's border and padding (2 each side) and the detail's indent (2) take from the terminal's width. */
export const DETAIL_INSET_COLUMNS = 6;

export interface DetailView {
	rows: readonly DetailRow[];
	/** The detail's line count (a long line takes several rows). */
	lines: number;
	/** The first row shown. */
	top: number;
	/** Rows shown at most. */
	height: number;
}

/** What the tool will do, `height` rows of it from `top`: a diff coloured by line, a command and its folder, or arguments; below, which lines these are of how many and the keys. */
export function ApprovalDetail({view, pager}: {view: DetailView; pager: boolean}) {
	const {rows, lines, top, height} = view;
	const shown = rows.slice(top, top + height);
	const keys = pager ? ' · p pager' : '';
	const where = rows.length > height ? `lines ${shown[0]?.line ?? 0}–${shown.at(-1)?.line ?? 0} of ${lines} · ↑↓ PgUp PgDn Home End scroll${keys}` : `${plural(lines, 'line')}${keys}`;
	return (
		<Box flexDirection="column" marginLeft={2}>
			{shown.map((row, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: a row's place in the window is its identity; the window's rows are redrawn as it scrolls.
				<Text key={index} color={colourOf(row.color)} wrap="truncate">
					{row.text === '' ? ' ' : row.text}
				</Text>
			))}
			<Text dimColor>{where}</Text>
		</Box>
	);
}
