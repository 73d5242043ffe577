import {errorMessage} from '../source/core/errors.js';

/**
 * The tasks handlers leave for after their answers. They run one after
 * another in the background while the next requests are served (answers
 * never wait for them), all of them before the worker exits; the first
 * failure is kept until an answer reports it.
 */
export class AfterAnswer {
	#waiting: Array<() => Promise<void>> = [];
	#chain: Promise<void> = Promise.resolve();
	#failure: string | undefined;

	/** Held until `release`: the answer of the request that added it is written first. */
	add(task: () => Promise<void>): void {
		this.#waiting.push(task);
	}

	release(): void {
		for (const task of this.#waiting.splice(0)) {
			this.#chain = this.#chain.then(task).catch((error: unknown) => {
				this.#failure ??= `work after the answer to an earlier request failed: ${errorMessage(error)}`;
			});
		}
	}

	/** Waits until every task so far has run. */
	async settle(): Promise<void> {
		this.release();
		await this.#chain;
	}

	/** The failure not yet reported, once. */
	takeFailure(): string | undefined {
		const failure = this.#failure;
		this.#failure = undefined;
		return failure;
	}
}
