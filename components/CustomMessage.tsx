import {Box, Text} from 'ink';
import {colour} from '../source/tui/theme/active-palette.js';

/** An extension's message or entry: its customType (or the extension) as a label, then the text its renderer made. */
export function CustomMessage({label, text}: {label: string; text: string}) {
	return (
		<Box marginTop={1} flexDirection="column">
			<Text color={colour('special')}>[{label}]</Text>
			{text === '' ? null : <Text>{text}</Text>}
		</Box>
	);
}
