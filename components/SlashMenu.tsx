import {Box, Text} from 'ink';
import type {SlashCommand} from '../source/tui/commands/slash-command.js';
import {slashCompletions} from '../source/tui/slash-commands.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** The commands a `/…` draft may complete to; Tab takes the first. */
export function SlashMenu({draft, commands = []}: {draft: string; commands?: readonly SlashCommand[]}) {
	const matches = slashCompletions(draft, commands);
	if (matches.length === 0) return null;
	return (
		<Box flexDirection="column" marginLeft={2}>
			{matches.map((command, index) => (
				<Text key={command.name}>
					<Text color={index === 0 ? colour('accent') : undefined}>{command.name.padEnd(10)}</Text>
					<Text dimColor>{command.description}</Text>
				</Text>
			))}
		</Box>
	);
}
