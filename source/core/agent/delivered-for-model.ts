import type {Message} from '../messages.js';
import {deliveryIdOf} from '../session/session-records.js';

/**
 * The history as a model request carries it: an extension's message
 * (sendMessage, appendEntry `{message}`) is a plain user message, its
 * `_extension_message` metadata (customType, display, details) kept out of
 * every request, whatever the provider (an adapter, a worker, an extension
 * provider); one without content (pi's `content: null`) is left out, as no
 * provider takes an empty user turn. A prompt's `_sent_at` (rewind-points.ts)
 * stays in the session too. The same array when there is nothing to take out.
 */
export function forModel(messages: Message[]): Message[] {
	if (!messages.some(message => message.role === 'user' && (deliveryIdOf(message) !== undefined || '_sent_at' in message))) return messages;
	return messages.flatMap(message => {
		if (message.role !== 'user') return [message];
		if (deliveryIdOf(message) !== undefined) {
			const {content} = message;
			return content.length === 0 ? [] : [{role: 'user', content}];
		}

		if (!('_sent_at' in message)) return [message];
		const {_sent_at: _, ...rest} = message as Message & {_sent_at?: number};
		return [rest];
	});
}
