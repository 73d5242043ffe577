import {Box, Text} from 'ink';

/** A tall diff or command is cut to this many lines (fewer on a short terminal), with the count of the rest. */
export const MAX_DETAIL_LINES = 30;

function lineColor(line: string): string | undefined {
	if (line.startsWith('+++') || line.startsWith('---')) return undefined;
	if (line.startsWith('+')) return 'green';
	if (line.startsWith('-')) return 'red';
	if (line.startsWith('@@')) return 'cyan';
	return undefined;
}

/** What the tool will do: a diff coloured by line, a command and its folder, or arguments. */
export function ApprovalDetail({detail, maxLines = MAX_DETAIL_LINES}: {detail: string; maxLines?: number}) {
	const lines = detail.split('\n');
	const shown = lines.slice(0, maxLines);
	return (
		<Box flexDirection="column" marginLeft={2}>
			{shown.map((line, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: lines of a static text never move, so their index is a stable key.
				<Text key={index} color={lineColor(line)}>
					{line === '' ? ' ' : line}
				</Text>
			))}
			{lines.length > shown.length ? (
				<Text dimColor italic>
					… {lines.length - shown.length} more lines
				</Text>
			) : null}
		</Box>
	);
}
