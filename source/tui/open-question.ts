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
