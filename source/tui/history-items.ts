import {summariseArguments} from '../shared/summarise-arguments.js';
import type {HistoryItem, ToolItem, TranscriptItem} from './chat-state.js';
import {kept, shown, shownExact} from './shown-text.js';

/** How the store draws a resumed item: its next key, and answer text as it draws it live (Markdown transformed, or plain). */
export interface HistoryDrawing {
	key(): string;
	answer(text: string): string;
	markdown: boolean;
}

/** A resumed session's items as the transcript shows them, each as its live counterpart finished. */
export function historyTranscript(items: readonly HistoryItem[], drawing: HistoryDrawing): TranscriptItem[] {
	return items.map(item => transcriptItem(item, drawing.key(), drawing));
}

function transcriptItem(item: HistoryItem, key: string, drawing: HistoryDrawing): TranscriptItem {
	switch (item.kind) {
		case 'user': {
			return {kind: 'user', key, text: shown(item.text), ...(item.attachments === undefined ? {} : {attachments: shown(item.attachments)})};
		}

		case 'bash': {
			return {kind: 'bash', key, command: shown(item.command), output: shown(item.output), status: shown(item.status), context: true};
		}

		case 'assistant': {
			return {kind: 'assistant', key, text: shown(drawing.markdown ? drawing.answer(item.text) : item.text), markdown: drawing.markdown, gap: false};
		}

		case 'thinking': {
			return {kind: 'thinking', key, lines: item.lines, text: kept(item.text)};
		}

		case 'notice': {
			return {kind: 'notice', key, level: item.level, text: shown(item.text)};
		}

		case 'tool': {
			return {...toolItem(key, item.id, item.name, item.arguments), status: item.status, result: item.result === null ? null : shown(item.result), note: item.note === null ? null : shown(item.note)};
		}
	}
}

/** A tool call's line as it first shows, live or resumed: its name and arguments summarised, nothing run yet. */
export function toolItem(key: string, id: string, name: string, args: string): ToolItem {
	return {kind: 'tool', key, id, name: shownExact(name), summary: shownExact(summariseArguments(args)), status: 'pending', result: null, note: null};
}
