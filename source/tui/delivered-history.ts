import type {CoreEvent} from '../core/events.js';
import type {Session} from '../core/agent/session-store.js';
import {customMessageEvent, deliveryIdOf, type DeliveredMessage} from '../core/agent/session-records.js';

type Delivered = Extract<CoreEvent, {type: 'custom_message' | 'entry'}>;

/**
 * A session's committed extension messages, then its entries, as the events
 * that announced them: the chat screen shows a resumed session's the way it
 * showed them when they came (a renderer, or the default).
 */
export function showDeliveredHistory(session: Pick<Session, 'messages' | 'entries'>, show: (event: Delivered) => void): void {
	for (const message of session.messages) {
		if (deliveryIdOf(message) !== undefined) show(customMessageEvent(message as DeliveredMessage));
	}

	for (const entry of session.entries) show({type: 'entry', id: entry.id, extension: entry.extension, customType: entry.customType, data: entry.data});
}
