import type {CoreEvent} from '../core/events.js';
import type {ToolItem, ToolStatus} from './chat-state.js';
import {toolItem} from './history-items.js';
import {kept, lastLines, shown} from './shown-text.js';

/** How a tool call's item changes with each of its core events: pure, so the store (chat-store.ts) only applies them. */

/** A call the model asked for, before it is decided. */
export function requestedTool(event: Extract<CoreEvent, {type: 'tool_call'}>, key: string): ToolItem {
	return toolItem(key, event.id, event.name, event.arguments);
}

/** Its approval: a denial with its reason, or an allow with who allowed it when that is worth a note. */
export function decidedTool(event: Extract<CoreEvent, {type: 'approval'}>): Partial<ToolItem> {
	if (event.decision === 'deny') return {status: 'denied', note: event.reason === null ? null : shown(event.reason)};
	if ((event.by === 'rule' || event.by === 'mode') && event.reason !== null) return {note: shown(event.reason)};
	return {note: event.by === 'yolo' || event.by === 'policy' ? `allowed by ${event.by}` : null};
}

/** Its progress while it runs: the last lines of the latest update. */
export function progressOf(event: Extract<CoreEvent, {type: 'tool_update'}>): Partial<ToolItem> {
	return {progress: shown(lastLines(event.text))};
}

/** Its result: the item as it is written to the transcript, its whole result kept (up to the bound) for Ctrl-O. */
export function finishedTool(tool: ToolItem, event: Extract<CoreEvent, {type: 'tool_result'}>): ToolItem {
	const status: ToolStatus = tool.status === 'denied' ? 'denied' : event.is_error ? 'failed' : 'done';
	return {...tool, status, result: kept(shown(event.output)), progress: null};
}
