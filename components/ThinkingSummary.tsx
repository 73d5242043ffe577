import {Text} from 'ink';

/** Thinking stays collapsed: its length, not its text (Ctrl-O's transcript has it). */
export function ThinkingSummary({lines, live = false}: {lines: number; live?: boolean}) {
	return (
		<Text dimColor italic>
			{live ? '✻ thinking…' : '✻ thought'} ({lines} {lines === 1 ? 'line' : 'lines'}){live ? '' : ' · Ctrl-O'}
		</Text>
	);
}
