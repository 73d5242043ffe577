/**
 * The one question the chat screen has open (an approval, the trust
 * question), as an external store the Ink components read with
 * useSyncExternalStore: the brokers set it, the widgets show it.
 */
export class OpenQuestion<Pending> {
	#pending: Pending | null = null;
	readonly #listeners = new Set<() => void>();

	getSnapshot = (): Pending | null => this.#pending;

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	protected show(pending: Pending | null): void {
		this.#pending = pending;
		for (const listener of this.#listeners) listener();
	}
}

/**
 * One question at a time on the chat screen: the approval, trust and
 * dialog brokers each take the line before they show a question and give
 * it back once it is answered, so a dialog that an event handler opens
 * while an approval is up waits its turn (first come, first shown) instead
 * of hiding it or taking its keys.
 */
export class QuestionLine {
	#held = false;
	readonly #waiting: Array<() => void> = [];

	/** `release` at once when no other question is up (so a question shows in the same tick it is asked), else null. */
	tryTake(): (() => void) | null {
		if (this.#held) return null;
		this.#held = true;
		return this.#releaser();
	}

	/** Resolves with `release` once no other question is up; `signal` aborting first leaves the line (rejects with its reason). */
	async take(signal?: AbortSignal): Promise<() => void> {
		signal?.throwIfAborted();
		const now = this.tryTake();
		if (now) return now;
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => {
				this.#waiting.splice(this.#waiting.indexOf(turn), 1);
				reject(signal!.reason);
			};

			const turn = () => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};

			this.#waiting.push(turn);
			signal?.addEventListener('abort', onAbort, {once: true});
		});
		// Handed over by the previous holder: the line never was free in between.
		return this.#releaser();
	}

	#releaser(): () => void {
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const next = this.#waiting.shift();
			// The line passes straight to the next in turn: nobody can slip in between.
			if (next) next();
			else this.#held = false;
		};
	}
}
