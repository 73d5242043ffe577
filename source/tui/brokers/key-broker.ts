import {LineQuestion} from '../line-question.js';

/** What the key field says: whose key it asks for, and where it will be kept. */
export interface KeyRequest {
	title: string;
	/** One line under the field: where the key goes, what else would do. */
	hint: string;
}

export interface PendingKey {
	id: string;
	request: KeyRequest;
	/** What was typed (as typed: the asker checks it), or null: Esc, back a step. */
	answer(key: string | null): void;
}

/**
 * The chat screen's one field for a secret (the first-run setup's API key),
 * on the screen's question line like the choosers. The key travels only in
 * the answer: the field never draws it, and nothing here keeps it.
 */
export class KeyBroker extends LineQuestion<PendingKey, string> {
	async ask(request: KeyRequest): Promise<string | null> {
		return this.askOnLine((count, settle) => ({id: `key-${count}`, request, answer: settle}));
	}
}
