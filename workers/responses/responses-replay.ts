import type {AssistantMessage} from '../../source/core/messages.js';

/** Not a spec limit: a bound so a long session cannot grow the heap without end; the least recently used go first. */
export const MAX_REMEMBERED_REPLIES = 1024;

/**
 * The Responses output items (reasoning included) of the replies this worker
 * saw in `after_response`, found again from the assistant messages of later
 * Chat bodies, which carry only text and tool calls. Kept in memory only: a
 * restarted worker has none and rebuilds items from text and tool calls.
 */
export class ReplayMemory {
	readonly #items = new Map<string, unknown[]>();

	remember(message: AssistantMessage): void {
		if (!message._responses_output) return;
		const key = replyKey(message);
		this.#items.delete(key);
		this.#items.set(key, message._responses_output);
		while (this.#items.size > MAX_REMEMBERED_REPLIES) this.#items.delete(this.#items.keys().next().value!);
	}

	/** The remembered output items of this message, if it is one of the replies seen. */
	recall(message: AssistantMessage): unknown[] | undefined {
		const key = replyKey(message);
		const items = this.#items.get(key);
		if (items === undefined) return undefined;
		// Still in the history: keep it the most recently used.
		this.#items.delete(key);
		this.#items.set(key, items);
		return items;
	}
}

/** What identifies a reply in a Chat body: its text (absent and empty alike) and its tool calls. */
function replyKey(message: AssistantMessage): string {
	const calls = (message.tool_calls ?? []).map(call => [call.id, call.function.name, call.function.arguments]);
	return JSON.stringify([message.content === '' ? null : message.content, calls]);
}
