import {useMemo} from 'react';
import {Box, Text} from 'ink';
import type {MarkdownRenderer} from '../source/tui/markdown/render-markdown.js';

export interface AssistantTextProps {
	text: string;
	/** Draws the text as Markdown; absent: the text as it came. */
	markdown?: MarkdownRenderer | null;
	width: number;
	/** A blank row above: the blocks of one answer are apart as the Markdown has them. */
	gap?: boolean;
	/** Only the last rows (the open block in the live area, which must stay shorter than the screen). */
	maxRows?: number;
}

/** Answer text: a finished Markdown block, the open one, or plain lines. */
export function AssistantText({text, markdown, width, gap = false, maxRows}: AssistantTextProps) {
	const shown = useMemo(() => {
		if (!markdown) return text;
		return (maxRows === undefined ? markdown.render(text, width) : markdown.renderTail(text, width, maxRows)).join('\n');
	}, [text, markdown, width, maxRows]);
	return (
		<Box marginTop={gap ? 1 : 0}>
			<Text>{shown}</Text>
		</Box>
	);
}
