import {useMemo} from 'react';
import {Box, Text} from 'ink';
import {plural} from '../source/core/tools/format.js';
import type {AskedDetail as Asked} from '../source/tui/chat-state.js';
import {detailLines, lineColor} from '../source/tui/detail-rows.js';
import {colour, colourOf} from '../source/tui/theme/active-palette.js';

/** A decided approval's diff (or command) stays under its call folded to this many lines; /diff N shows it whole. */
export const FOLDED_DETAIL_LINES = 8;

function Lines({lines}: {lines: readonly string[]}) {
	return lines.map((line, index) => (
		// biome-ignore lint/suspicious/noArrayIndexKey: lines of a finished text never move, so their index is a stable key.
		<Text key={index} color={colourOf(lineColor(line))}>
			{line === '' ? ' ' : line}
		</Text>
	));
}

/** What an approval question showed, under its call once decided: its first lines, and how to see the rest. */
export function FoldedDetail({asked}: {asked: Asked}) {
	// A running call is drawn again at each progress line; a large diff is split once.
	const lines = useMemo(() => detailLines(asked.detail), [asked]);
	const more = lines.length - FOLDED_DETAIL_LINES;
	return (
		<Box marginLeft={2} flexDirection="column">
			<Lines lines={more > 0 ? lines.slice(0, FOLDED_DETAIL_LINES) : lines} />
			{more > 0 ? (
				<Text dimColor italic>
					… {plural(more, 'more line')} · /diff {asked.number} shows them all
				</Text>
			) : null}
		</Box>
	);
}

/** An approval's whole detail, written to the transcript again by /diff. */
export function WholeDetail({asked}: {asked: Asked}) {
	const lines = detailLines(asked.detail);
	return (
		<Box flexDirection="column">
			<Text>
				<Text color={colour('accent')}>◆</Text> <Text bold>approval {asked.number}</Text> <Text dimColor>{asked.title}</Text> <Text dimColor>({plural(lines.length, 'line')})</Text>
			</Text>
			<Box marginLeft={2} flexDirection="column">
				<Lines lines={lines} />
			</Box>
		</Box>
	);
}
