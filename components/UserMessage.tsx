import {Box, Text} from 'ink';

export function UserMessage({text}: {text: string}) {
	return (
		<Box marginTop={1}>
			<Text color="cyan" bold>
				{'› '}
			</Text>
			<Text>{text}</Text>
		</Box>
	);
}
