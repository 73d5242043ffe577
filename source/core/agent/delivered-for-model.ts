import type {Message} from '../messages.js';
import {deliveryIdOf} from '../session/session-records.js';

/**
 * The history as a model request carries it: an extension's message
 * (sendMessage, appendEntry `{message}`) is a plain user message, its
 * `_extension_message` metadata (customType, display, details) kept out of
 * every request, whatever the provider (an adapter, a worker, an extension
 * provider); one without content (pi's `content: null`) is left out, as no
 * provider takes an empty user turn. The same array when there is none.
 */
export function forModel(messages: Message[]): Message[] {
	if (!messages.some(message => deliveryIdOf(message) !== undefined)) return messages;
	return messages.flatMap(message => {
		if (message.role !== 'user' || deliveryIdOf(message) === undefined) return [message];
		const {content} = message;
		if (content.length === 0) return [];
		return [{role: 'user', content}];
	});
}
