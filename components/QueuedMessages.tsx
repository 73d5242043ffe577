import {Box, Text} from 'ink';
import {firstLine} from '../source/tui/message-queue.js';
import type {QueuedMessage} from '../source/tui/message-queue.js';

/** Queued messages shown one a line; past this the oldest fold into one line (/queue lists them all). */
export const QUEUED_LINES_SHOWN = 5;

/**
 * The person's messages waiting for the running turn, above the editor,
 * dimmed: `queued: <first line>`, numbered when there are several; the
 * newest last, as ↑ and Esc take it.
 */
export function QueuedMessages({items}: {items: readonly QueuedMessage[]}) {
	if (items.length === 0) return null;
	const folded = items.length > QUEUED_LINES_SHOWN ? items.length - QUEUED_LINES_SHOWN + 1 : 0;
	const label = (index: number) => (items.length === 1 ? 'queued' : `queued ${index + 1}/${items.length}`);
	return (
		<Box flexDirection="column">
			{folded > 0 ? <Text dimColor>{`queued 1–${folded}/${items.length}: /queue lists them`}</Text> : null}
			{items.slice(folded).map((message, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows of plain text with no state of their own: a position is key enough.
				<Text key={folded + index} dimColor wrap="truncate-end">
					{`${label(folded + index)}: ${firstLine(message.typed)}`}
				</Text>
			))}
		</Box>
	);
}
