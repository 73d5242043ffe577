/** A text the screen puts in the editor (a rewound prompt): `id` tells one request from the next with the same text. */
export interface DraftRequest {
	id: number;
	text: string;
}

/**
 * What the screen asks the editor to hold, for the person to send again or
 * change: the editor owns its text, so this is a request it takes when it
 * changes, an external store as the brokers are.
 */
export class EditorDraft {
	#request: DraftRequest | null = null;
	readonly #listeners = new Set<() => void>();

	set(text: string): void {
		this.#request = {id: (this.#request?.id ?? 0) + 1, text};
		for (const listener of this.#listeners) listener();
	}

	getSnapshot = (): DraftRequest | null => this.#request;

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};
}
