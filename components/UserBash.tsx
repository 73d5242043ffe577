import {Box, Text} from 'ink';
import {colour} from '../source/tui/theme/active-palette.js';

/** A `!` command: `! command`, its output's last lines, and how it ended (live: the output so far). */
export function UserBash({command, output, status, context = true}: {command: string; output: string; status?: string; context?: boolean}) {
	const lines = output.replace(/\n$/, '').split('\n');
	const shown = status === undefined ? lines.slice(-LIVE_LINES) : lines;
	return (
		<Box flexDirection="column" marginTop={1}>
			<Text>
				<Text color={colour('special')} bold>
					{'! '}
				</Text>
				<Text>{command}</Text>
			</Text>
			{output === '' ? null : <Text dimColor>{shown.join('\n')}</Text>}
			{status === undefined ? (
				<Text dimColor>running — Esc to stop</Text>
			) : (
				<Text dimColor>
					{status}
					{context ? ' · added to the context of your next message' : ' · not added to the context'}
				</Text>
			)}
		</Box>
	);
}

/** Output rows the live view shows while the command runs. */
const LIVE_LINES = 10;
