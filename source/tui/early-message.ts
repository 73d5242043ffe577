import {printable, writeErr} from '../shared/output.js';
import type {ChatStore} from './chat-store.js';

/**
 * The one message or command a person may send while the chat starts: it
 * leaves the editor, waits for the agent and goes first once the chat has
 * it. A second one stays in the editor (the queue of issue 45 will take
 * more); a chat that ends before it started says on stderr what was not sent.
 */
export class EarlyMessage {
	readonly #store: Pick<ChatStore, 'notice'>;
	/** False with --resume: its picker comes first, so nothing waits for the start. */
	readonly #allowed: boolean;
	#text: string | null = null;

	constructor(store: Pick<ChatStore, 'notice'>, allowed: boolean) {
		this.#store = store;
		this.#allowed = allowed;
	}

	/** Whether `text` was taken to wait (it leaves the editor); when not, the screen says why. */
	hold(text: string): boolean {
		if (!this.#allowed) {
			this.#store.notice('info', 'still starting: the message stays in the editor; send it once the session is chosen');
			return false;
		}

		if (this.#text !== null) {
			this.#store.notice('info', 'one message already waits for the start: this one stays in the editor');
			return false;
		}

		this.#text = text;
		this.#store.notice('info', 'still starting: your message is sent as soon as i is ready');
		return true;
	}

	/** The chat has started: the waiting message goes to it. */
	send(submit: (text: string) => boolean): void {
		const text = this.#text;
		this.#text = null;
		if (text !== null) submit(text);
	}

	/** The chat ended before it started. */
	dropped(): void {
		if (this.#text !== null) writeErr(`i: not sent (the chat ended while it started): ${printable(this.#text)}\n`);
		this.#text = null;
	}
}
