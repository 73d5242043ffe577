import type {Session} from '../core/session/session-store.js';
import {customMessageEvent, deliveryIdOf, type DeliveredMessage} from '../core/session/session-records.js';
import type {AssistantMessage, ToolMessage, UserMessage} from '../core/messages.js';
import {CONTEXT_MARKER, SUMMARY_MARKER} from '../core/history/compaction.js';
import {APPROVAL_DENIED, DENIAL_REASON} from '../core/lifecycle/call-outputs.js';
import {describeAttachments} from '../core/mentions/attach-mentions.js';
import {attachmentsOf} from '../core/mentions/attachment-parts.js';
import {userBashOf} from '../core/user-bash/user-bash-message.js';
import {pipedInputOf} from '../shared/piped-input.js';
import type {HistoryItem} from './chat-state.js';
import type {ChatStore} from './chat-store.js';

/** A resumed session shows at most this many of its last messages; a note says how many came before. */
export const MAX_SHOWN_HISTORY_MESSAGES = 400;

/**
 * Shows a session's history in the transcript, as the chat showed it when
 * it happened: the person's messages (with what their @-mentions attached,
 * or what was piped beside them), the `!` commands, thinking collapsed, the
 * answers, each tool call with how it ended (done, failed, denied) and its
 * result, a compaction as a notice, the extensions' messages and entries
 * through their renderers. What no one typed and the live screen never
 * showed (context snapshots, a tool's images, system messages) stays hidden.
 */
export function showSessionHistory(session: Pick<Session, 'messages' | 'entries'>, store: Pick<ChatStore, 'showHistory' | 'delivered' | 'notice'>): void {
	const messages = session.messages;
	const start = Math.max(0, messages.length - MAX_SHOWN_HISTORY_MESSAGES);
	if (start > 0) store.notice('info', `${start} earlier message${start === 1 ? '' : 's'} of this session are not shown (they are still in its history)`);
	// Every result, the cut-off ones' too: a call shown is shown as it ended.
	const results = new Map<string, ToolMessage>();
	for (const message of messages) if (message.role === 'tool') results.set(message.tool_call_id, message);
	let pending: HistoryItem[] = [];
	const flush = () => {
		store.showHistory(pending);
		pending = [];
	};

	for (const message of messages.slice(start)) {
		if (deliveryIdOf(message) !== undefined) {
			flush();
			store.delivered(customMessageEvent(message as DeliveredMessage));
			continue;
		}

		if (message.role === 'user') pending.push(...userItems(message));
		else if (message.role === 'assistant') pending.push(...assistantItems(message, results));
	}

	flush();
	for (const entry of session.entries) store.delivered({type: 'entry', id: entry.id, extension: entry.extension, customType: entry.customType, data: entry.data});
}

function userItems(message: UserMessage): HistoryItem[] {
	const marks = message as unknown as Record<string, unknown>;
	// The image a tool produced rides in a user message of its own: part of the tool's result, not something the person said.
	if (message._tool_call_id !== undefined) return [];
	// A plugin's context snapshot (memory, skills): reference data for the model, never shown live.
	if (marks[CONTEXT_MARKER] !== undefined) return [];
	// A compaction's summary stands in for the messages before it; live, the compaction was a notice.
	if (marks[SUMMARY_MARKER] !== undefined) return [{kind: 'notice', level: 'info', text: 'the conversation before this point was compacted into a summary for the model'}];
	// A `!` command's output, saved for the next turn: shown as the command it was.
	const bash = userBashOf(message);
	if (bash) return [{kind: 'bash', command: bash.command, output: bash.shown, status: bash.status}];
	// The typed text, and a line for what its @-mentions attached and what was piped beside it (neither shown again).
	const {text, attachments} = attachmentsOf(message.content);
	const piped = pipedInputOf(text);
	const lines = [describeAttachments(attachments), piped === null ? null : `with piped input (${lineCount(piped.piped)})`].filter(line => line !== null);
	if (lines.length > 0) return [{kind: 'user', text: piped?.prompt ?? text, attachments: lines.join(' · ')}];
	const plain = typeof message.content === 'string' ? message.content : message.content.map(part => (part.type === 'text' ? part.text : '[image]')).join('\n');
	return plain.trim() === '' ? [] : [{kind: 'user', text: plain}];
}

function assistantItems(message: AssistantMessage, results: ReadonlyMap<string, ToolMessage>): HistoryItem[] {
	const items: HistoryItem[] = [];
	const thinking = thinkingOf(message);
	if (thinking.trim() !== '') items.push({kind: 'thinking', lines: thinking.split('\n').length, text: thinking});
	if (message.content !== null && message.content.trim() !== '') items.push({kind: 'assistant', text: message.content});
	for (const call of message.tool_calls ?? []) items.push({kind: 'tool', id: call.id, name: call.function.name, arguments: call.function.arguments, ...outcomeOf(results.get(call.id))});
	return items;
}

/** How a call ended, from its saved result: the `_is_error` every kind of tool's failure sets (run-tool-call.ts), a denial by its words. */
function outcomeOf(result: ToolMessage | undefined): Pick<Extract<HistoryItem, {kind: 'tool'}>, 'status' | 'result' | 'note'> {
	if (result === undefined) return {status: 'failed', result: null, note: 'no result was saved'};
	if (result._is_error !== true) return {status: 'done', result: result.content, note: null};
	if (!result.content.startsWith(APPROVAL_DENIED)) return {status: 'failed', result: result.content, note: null};
	const reason = result.content.slice(APPROVAL_DENIED.length);
	return {status: 'denied', result: null, note: reason.startsWith(DENIAL_REASON) ? reason.slice(DENIAL_REASON.length) : null};
}

/** The step's thinking as the live screen received it: reasoning text, Anthropic thinking blocks, or Responses reasoning summaries. */
function thinkingOf(message: AssistantMessage): string {
	if (typeof message.reasoning_content === 'string') return message.reasoning_content;
	const texts: string[] = [];
	for (const block of [...(message._anthropic_content ?? []), ...(message._responses_output ?? [])] as Array<Record<string, unknown>>) {
		if (block?.type === 'thinking' && typeof block.thinking === 'string') texts.push(block.thinking);
		if (block?.type === 'reasoning' && Array.isArray(block.summary)) for (const part of block.summary as Array<{text?: unknown}>) if (typeof part?.text === 'string') texts.push(part.text);
	}

	return texts.join('\n');
}

function lineCount(text: string): string {
	const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
	return `${lines} line${lines === 1 ? '' : 's'}`;
}
