import {Box, Text} from 'ink';

export function UserMessage({text, attachments}: {text: string; attachments?: string | undefined}) {
	return (
		<Box marginTop={1} flexDirection="column">
			<Box>
				<Text color="cyan" bold>
					{'› '}
				</Text>
				<Text>{text}</Text>
			</Box>
			{attachments === undefined ? null : <Text dimColor>{`  ${attachments}`}</Text>}
		</Box>
	);
}
