import {Box, Text} from 'ink';
import {plural} from '../source/core/tools/format.js';
import type {ToolItem} from '../source/tui/chat-state.js';
import {expandTabs} from '../source/tui/text-columns.js';
import {TOOL_MARKS} from '../source/tui/transcript-text.js';
import {FoldedDetail} from './AskedDetail.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** Results longer than this many lines are folded to their first lines and a count. */
export const FOLDED_RESULT_LINES = 6;

export function ToolCall({tool}: {tool: ToolItem}) {
	const {mark, color} = TOOL_MARKS[tool.status];
	const lines = tool.result === null ? [] : expandTabs(tool.result).split('\n');
	const shown = lines.slice(0, FOLDED_RESULT_LINES);
	const more = lines.length - shown.length;
	return (
		<Box flexDirection="column">
			<Text>
				<Text color={colour(color)}>{mark}</Text> <Text bold>{tool.name}</Text> <Text dimColor>{tool.summary}</Text>
				{tool.note ? <Text color={colour('warning')}> — {tool.note}</Text> : null}
			</Text>
			{tool.asked && tool.status !== 'asking' ? <FoldedDetail asked={tool.asked} /> : null}
			{tool.status === 'running' && tool.progress ? (
				<Box marginLeft={2} flexDirection="column">
					{expandTabs(tool.progress)
						.split('\n')
						.map((line, index) => (
							// biome-ignore lint/suspicious/noArrayIndexKey: the rows of one progress text, replaced whole by the next.
							<Text key={index} dimColor italic wrap="truncate-end">
								{line}
							</Text>
						))}
				</Box>
			) : null}
			{shown.length > 0 && tool.status !== 'denied' ? (
				<Box marginLeft={2} flexDirection="column">
					<Text dimColor>{shown.join('\n')}</Text>
					{more > 0 ? (
						<Text dimColor italic>
							… {plural(more, 'more line')} · Ctrl-O
						</Text>
					) : null}
				</Box>
			) : null}
		</Box>
	);
}
