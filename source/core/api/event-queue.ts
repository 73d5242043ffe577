import type {CoreEvent} from '../events.js';

/**
 * Events pushed by a running turn, read by one `for await` loop: each
 * `next()` takes the oldest event or waits for the next one; after
 * `end()` the reader gets what is left, then the end.
 */
export class EventQueue {
	#events: CoreEvent[] = [];
	#ended = false;
	#wake: (() => void) | undefined;

	push(event: CoreEvent): void {
		this.#events.push(event);
		this.#notify();
	}

	end(): void {
		this.#ended = true;
		this.#notify();
	}

	async *drain(): AsyncGenerator<CoreEvent, void, undefined> {
		while (true) {
			const event = this.#events.shift();
			if (event) {
				yield event;
				continue;
			}

			if (this.#ended) return;
			await new Promise<void>(resolve => (this.#wake = resolve));
		}
	}

	#notify(): void {
		const wake = this.#wake;
		this.#wake = undefined;
		wake?.();
	}
}
