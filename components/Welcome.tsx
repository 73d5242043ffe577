import {Box, Text} from 'ink';
import {Logo} from './Logo.js';

/** The first thing in the scrollback: the mark, what this is, and where help is. */
export function Welcome() {
	return (
		<Box>
			<Logo />
			<Box flexDirection="column" justifyContent="flex-end" marginLeft={2}>
				<Text bold>i — a terminal coding agent</Text>
				<Text dimColor>Enter sends · Alt+Enter new line · Esc stops · /help</Text>
			</Box>
		</Box>
	);
}
