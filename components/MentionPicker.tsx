import {Box, Text} from 'ink';
import type {MentionPicker as Picker} from './use-mention-picker.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** The @ picker's list under the editor: folders end in `/`, MCP resources are `server:uri` with their name; the chosen row is cyan. */
export function MentionPicker({picker}: {picker: Picker}) {
	if (!picker.open) return null;
	return (
		<Box flexDirection="column" marginLeft={2}>
			{picker.loading ? <Text dimColor>looking through the workspace…</Text> : null}
			{!picker.loading && picker.matches.length === 0 ? <Text dimColor>nothing matches (Esc closes)</Text> : null}
			{picker.matches.map((entry, index) => (
				<Text key={entry.path} color={index === picker.selected ? colour('accent') : undefined} wrap="truncate-start">
					{index === picker.selected ? '› ' : '  '}
					{entry.directory ? `${entry.path}/` : entry.path}
					{entry.resource === undefined ? null : <Text dimColor> {entry.resource} (MCP resource)</Text>}
				</Text>
			))}
			{picker.note ? <Text dimColor>{picker.note}</Text> : null}
			{picker.matches.length > 0 ? <Text dimColor>↑/↓ move · Tab or Enter chooses · Esc closes</Text> : null}
		</Box>
	);
}
