import {errorMessage} from '../../source/core/errors.js';

/** When a task left for after an answer runs: at once (after the tasks before it), or up to `delayMs` later. */
export interface AfterAnswerOptions {
	/**
	 * Wait this long before running the task, unless the worker reaches EOF
	 * first (then it runs at once): for work that a later request usually
	 * makes redundant, such as a statistics write the next request's own
	 * write would include.
	 */
	delayMs?: number;
}

/**
 * The tasks handlers leave for after their answers. They run one after
 * another in the background while the next requests are served (answers
 * never wait for them), all of them before the worker exits; the first
 * failure is kept until an answer reports it.
 */
export class AfterAnswer {
	#waiting: Array<{task: () => Promise<void>; delayMs: number}> = [];
	/** Released tasks whose delay has not passed yet: each goes on the chain when it does, or at `settle`. */
	readonly #delayed = new Set<{task: () => Promise<void>; timer: NodeJS.Timeout}>();
	#chain: Promise<void> = Promise.resolve();
	#failure: string | undefined;

	/** Held until `release`: the answer of the request that added it is written first. */
	add(task: () => Promise<void>, options: AfterAnswerOptions = {}): void {
		this.#waiting.push({task, delayMs: options.delayMs ?? 0});
	}

	release(): void {
		for (const {task, delayMs} of this.#waiting.splice(0)) {
			if (delayMs <= 0) {
				this.#run(task);
				continue;
			}

			const entry = {
				task,
				timer: setTimeout(() => {
					this.#delayed.delete(entry);
					this.#run(task);
				}, delayMs),
			};
			// Never what keeps the worker alive: its stdin does, and EOF runs the task at once (settle).
			entry.timer.unref();
			this.#delayed.add(entry);
		}
	}

	/** Waits until every task so far has run, delayed ones at once. */
	async settle(): Promise<void> {
		this.release();
		for (const {task, timer} of this.#delayed) {
			clearTimeout(timer);
			this.#run(task);
		}

		this.#delayed.clear();
		await this.#chain;
	}

	/** The failure not yet reported, once. */
	takeFailure(): string | undefined {
		const failure = this.#failure;
		this.#failure = undefined;
		return failure;
	}

	#run(task: () => Promise<void>): void {
		this.#chain = this.#chain.then(task).catch((error: unknown) => {
			this.#failure ??= `work after the answer to an earlier request failed: ${errorMessage(error)}`;
		});
	}
}
