import {Box, Text} from 'ink';
import {colour} from '../source/tui/theme/active-palette.js';

export function UserMessage({text, attachments}: {text: string; attachments?: string | undefined}) {
	return (
		<Box marginTop={1} flexDirection="column">
			<Box>
				<Text color={colour('accent')} bold>
					{'› '}
				</Text>
				<Text>{text}</Text>
			</Box>
			{attachments === undefined ? null : <Text dimColor>{`  ${attachments}`}</Text>}
		</Box>
	);
}
