/** Messages the person may queue while a turn runs (i's own bound: each is a line above the editor, and a longer queue is a mistake more often than a plan). */
export const MAX_QUEUED_MESSAGES = 20;

/** A message typed while a turn ran, waiting to be sent. */
export interface QueuedMessage {
	/** As typed: ↑ puts it back in the editor so. */
	typed: string;
	/** What is sent (a `\!` escape taken off). */
	text: string;
}

/**
 * The person's messages typed while a turn runs, oldest first: the running
 * turn takes them after its next tool batch (the `steer` delivery), or the
 * next one starts with the oldest once it ends. The screen shows them above
 * the editor, ↑ takes the newest back to edit, Esc drops it.
 */
export class MessageQueue {
	#items: readonly QueuedMessage[] = [];
	readonly #listeners = new Set<() => void>();

	readonly subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	readonly getSnapshot = (): readonly QueuedMessage[] => this.#items;

	get size(): number {
		return this.#items.length;
	}

	/** False when the queue holds MAX_QUEUED_MESSAGES already. */
	add(message: QueuedMessage): boolean {
		if (this.#items.length >= MAX_QUEUED_MESSAGES) return false;
		this.#set([...this.#items, message]);
		return true;
	}

	/** The oldest, which goes next. */
	shift(): QueuedMessage | undefined {
		const [first, ...rest] = this.#items;
		if (first !== undefined) this.#set(rest);
		return first;
	}

	/** The newest, taken out (↑ edits it, Esc drops it). */
	pop(): QueuedMessage | undefined {
		const last = this.#items.at(-1);
		if (last !== undefined) this.#set(this.#items.slice(0, -1));
		return last;
	}

	/** Everything, oldest first, taken out. */
	takeAll(): QueuedMessage[] {
		const all = [...this.#items];
		if (all.length > 0) this.#set([]);
		return all;
	}

	/** Taken messages put back before the rest, as they were (a run stopped while it took them). */
	restore(messages: readonly QueuedMessage[]): void {
		if (messages.length > 0) this.#set([...messages, ...this.#items]);
	}

	#set(items: readonly QueuedMessage[]): void {
		this.#items = items;
		for (const listener of this.#listeners) listener();
	}
}

/** A message's first line, with `…` when more follows: how the queue line, /queue and the notices name it. */
export function firstLine(text: string): string {
	const trimmed = text.trim();
	const end = trimmed.indexOf('\n');
	return end === -1 ? trimmed : `${trimmed.slice(0, end).trimEnd()} …`;
}

/** "1 queued message", "3 queued messages". */
export function queuedCount(count: number): string {
	return `${count} queued message${count === 1 ? '' : 's'}`;
}
