import {Box, Text} from 'ink';
import {slashCompletions} from '../source/tui/slash-commands.js';

/** The commands a `/…` draft may complete to; Tab takes the first. */
export function SlashMenu({draft}: {draft: string}) {
	const matches = slashCompletions(draft);
	if (matches.length === 0) return null;
	return (
		<Box flexDirection="column" marginLeft={2}>
			{matches.map((command, index) => (
				<Text key={command.name}>
					<Text color={index === 0 ? 'cyan' : undefined}>{command.name.padEnd(10)}</Text>
					<Text dimColor>{command.description}</Text>
				</Text>
			))}
		</Box>
	);
}
