import type {Session} from '../core/session/session-store.js';
import {customMessageEvent, deliveryIdOf, type DeliveredMessage} from '../core/session/session-records.js';
import type {Message} from '../core/messages.js';
import {describeAttachments} from '../core/mentions/attach-mentions.js';
import {attachmentsOf} from '../core/mentions/attachment-parts.js';
import {userBashOf} from '../core/user-bash/user-bash-message.js';
import type {HistoryItem} from './chat-state.js';
import type {ChatStore} from './chat-store.js';

/** A resumed session shows at most this many of its last messages; a note says how many came before. */
export const MAX_SHOWN_HISTORY_MESSAGES = 400;

/**
 * Shows a session's history in the transcript, as the chat showed it when
 * it happened: the person's messages (with what their @-mentions attached),
 * the `!` commands, the answers, the tool calls (one line each), the
 * extensions' messages and entries through their renderers.
 * System messages, tool results and thinking are not repeated.
 */
export function showSessionHistory(session: Pick<Session, 'messages' | 'entries'>, store: Pick<ChatStore, 'showHistory' | 'delivered' | 'notice'>): void {
	const messages = session.messages;
	const start = Math.max(0, messages.length - MAX_SHOWN_HISTORY_MESSAGES);
	if (start > 0) store.notice('info', `${start} earlier message${start === 1 ? '' : 's'} of this session are not shown (they are still in its history)`);
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

		pending.push(...itemsOf(message));
	}

	flush();
	for (const entry of session.entries) store.delivered({type: 'entry', id: entry.id, extension: entry.extension, customType: entry.customType, data: entry.data});
}

function itemsOf(message: Message): HistoryItem[] {
	switch (message.role) {
		case 'user': {
			// The image a tool produced rides in a user message of its own: part of the tool's result, not something the person said.
			if (message._tool_call_id !== undefined) return [];
			// A `!` command's output, saved for the next turn: shown as the command it was.
			const bash = userBashOf(message);
			if (bash) return [{kind: 'bash', command: bash.command, output: bash.shown, status: bash.status}];
			// The typed text, and a line for what its @-mentions attached (the files themselves are not shown again).
			const {text, attachments} = attachmentsOf(message.content);
			const line = describeAttachments(attachments);
			if (line !== null) return [{kind: 'user', text, attachments: line}];
			const plain = typeof message.content === 'string' ? message.content : message.content.map(part => (part.type === 'text' ? part.text : '[image]')).join('\n');
			return plain.trim() === '' ? [] : [{kind: 'user', text: plain}];
		}

		case 'assistant': {
			const items: HistoryItem[] = [];
			if (message.content !== null && message.content.trim() !== '') items.push({kind: 'assistant', text: message.content});
			for (const call of message.tool_calls ?? []) items.push({kind: 'tool', id: call.id, name: call.function.name, arguments: call.function.arguments});
			return items;
		}

		default: {
			return [];
		}
	}
}
