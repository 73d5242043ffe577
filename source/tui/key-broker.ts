import {OpenQuestion, QuestionLine} from './open-question.js';

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
export class KeyBroker extends OpenQuestion<PendingKey> {
	readonly #line: QuestionLine;
	#count = 0;
	#cancel: (() => void) | undefined;

	constructor(line: QuestionLine = new QuestionLine()) {
		super();
		this.#line = line;
	}

	async ask(request: KeyRequest): Promise<string | null> {
		const release = this.#line.tryTake() ?? (await this.#line.take());
		this.#count += 1;
		try {
			return await new Promise<string | null>(resolve => {
				let settled = false;
				const settle = (value: string | null) => {
					if (settled) return;
					settled = true;
					this.#cancel = undefined;
					this.show(null);
					resolve(value);
				};

				this.#cancel = () => settle(null);
				this.show({id: `key-${this.#count}`, request, answer: settle});
			});
		} finally {
			release();
		}
	}

	/** The person left: an open field closes unanswered. */
	cancel(): void {
		this.#cancel?.();
	}
}
