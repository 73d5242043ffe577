import {Box, Text} from 'ink';
import type {ChildItem} from '../source/tui/chat-state.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** The running child agents, one line each: role, ID, model requests so far and what it does now. Esc stops them with the turn. */
export function ChildAgents({items}: {items: readonly ChildItem[]}) {
	if (items.length === 0) return null;
	return (
		<Box flexDirection="column">
			{items.map(child => (
				<Text key={child.id}>
					<Text color={colour('special')}>⑂</Text> <Text bold>child {child.role}</Text> <Text dimColor>{child.id}</Text>{' '}
					<Text dimColor>
						· turn {child.turns} · {child.activity}
					</Text>
				</Text>
			))}
		</Box>
	);
}
