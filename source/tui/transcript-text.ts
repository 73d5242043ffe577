import type {ToolStatus, TranscriptItem} from './chat-state.js';
import type {PaletteKey} from './theme/palette.js';

/** How a call's status is marked, on the screen (ToolCall.tsx, in colour) and in the full transcript. */
export const TOOL_MARKS: Record<ToolStatus, {mark: string; color: PaletteKey}> = {
	pending: {mark: '○', color: 'info'},
	asking: {mark: '?', color: 'warning'},
	running: {mark: '◐', color: 'running'},
	done: {mark: '✓', color: 'success'},
	failed: {mark: '✗', color: 'error'},
	denied: {mark: '⊘', color: 'warning'},
};

const noticeMarks = {info: '·', warning: '!', error: '✗'} as const;

/** `text` with each line after the first indented (the first follows its mark). */
function indented(text: string, by = '  '): string {
	return text.replaceAll('\n', `\n${by}`);
}

/** `text` as a block under its header, every line indented. */
function block(text: string): string {
	return `  ${indented(text)}`;
}

/**
 * The whole transcript as plain text for the pager (Ctrl-O): every item as
 * the screen shows it but unfolded — tool results, approval diffs, `!`
 * output and thinking whole (as far as the store kept them), answers as
 * the model wrote their Markdown.
 */
export function transcriptText(items: readonly TranscriptItem[]): string {
	const parts: string[] = [];
	for (const item of items) {
		const text = itemText(item);
		if (text !== null) parts.push(text);
	}

	return `${parts.join('\n\n')}\n`;
}

function itemText(item: TranscriptItem): string | null {
	switch (item.kind) {
		case 'logo': {
			return null;
		}

		case 'user': {
			return `› ${indented(item.text)}${item.attachments === undefined ? '' : `\n  ${item.attachments}`}`;
		}

		case 'bash': {
			const output = item.output.replace(/\n$/, '');
			return [`! ${item.command}`, ...(output === '' ? [] : [output]), item.status].join('\n');
		}

		case 'assistant': {
			return item.text.replace(/\n$/, '');
		}

		case 'thinking': {
			return `✻ thought (${item.lines} ${item.lines === 1 ? 'line' : 'lines'})\n${block(item.text)}`;
		}

		case 'tool': {
			const head = `${TOOL_MARKS[item.status].mark} ${item.name} ${item.summary}${item.note ? ` — ${item.note}` : ''}`;
			const asked = item.asked ? [block(`approval ${item.asked.number}: ${item.asked.title}`), block(item.asked.detail)] : [];
			const result = item.result === null || item.status === 'denied' ? [] : [block(item.result)];
			return [head, ...asked, ...result].join('\n');
		}

		case 'detail': {
			return `◆ approval ${item.asked.number} ${item.asked.title}\n${block(item.asked.detail)}`;
		}

		case 'notice': {
			return `${noticeMarks[item.level]} ${indented(item.text)}`;
		}

		case 'custom': {
			return item.text === '' ? `[${item.label}]` : `[${item.label}]\n${item.text}`;
		}
	}
}
