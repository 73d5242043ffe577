import type {Message} from '../core/messages.js';
import {attachmentsOf} from '../core/mentions/attachment-parts.js';
import {describeAttachments} from '../core/mentions/attach-mentions.js';
import {userBashOf} from '../core/user-bash/user-bash-message.js';
import type {ChatStore} from './chat-store.js';

/**
 * What the person attached and ran in a resumed session, shown again as it
 * was when it happened: each message with @-mention attachments (its text
 * and the attachments line) and each `!` command (its last lines and how it
 * ended), in order.
 */
export function showResumedInputs(messages: readonly Message[], store: Pick<ChatStore, 'resumedUser' | 'endBash'>): void {
	for (const message of messages) {
		if (message.role !== 'user' || message._tool_call_id !== undefined) continue;
		const bash = userBashOf(message);
		if (bash) {
			store.endBash({command: bash.command, output: bash.shown, status: bash.status, context: true});
			continue;
		}

		const {text, attachments} = attachmentsOf(message.content);
		const line = describeAttachments(attachments);
		if (line !== null) store.resumedUser(text, line);
	}
}
