import type {PromptHistory} from '../core/session/prompt-history.js';

/** Where the workspace's prompts are kept (registering the workspace only when `register`), or undefined: nowhere yet. */
export type LocateHistory = (register: boolean) => Promise<string | undefined>;

/**
 * The workspace's prompt history as the editor sees it, an external store
 * as the brokers are: the earlier runs' prompts, loaded behind the first
 * frame (until then ↑ walks this run's prompts only), and each prompt the
 * chat takes recorded in the file. The file's module is imported here, after
 * the first frame, so the screen's start never waits for it.
 */
export class PromptHistoryFeed {
	#entries: readonly string[] = [];
	readonly #listeners = new Set<() => void>();
	readonly #notice: (text: string) => void;
	#locate: LocateHistory | null = null;
	/** The store once loaded; undefined while the workspace has no history file's place yet; null: no history kept. */
	#store: Promise<PromptHistory | null | undefined> = Promise.resolve(null);
	#records: Promise<void> = Promise.resolve();

	constructor(notice: (text: string) => void) {
		this.#notice = notice;
	}

	/** Loads the earlier prompts on the next turn of the event loop (after the first frame), then tells the editor. */
	start(locate: LocateHistory): void {
		this.#locate = locate;
		this.#store = new Promise(resolve => setImmediate(resolve)).then(async () => this.#open(false, true));
	}

	/** Records a prompt the chat took, after the earlier ones are loaded (a repeat of the last one is not kept twice). */
	record(text: string): void {
		this.#records = this.#records.then(async () => {
			let store = await this.#store;
			if (store === undefined) {
				// The workspace's first prompt: it gets its ID (and state folder) now.
				this.#store = this.#open(true, false);
				store = await this.#store;
			}

			store?.append(text);
			await store?.settled();
		});
	}

	/** Resolves once every prompt recorded so far is in the file (or failed to be). */
	async settled(): Promise<void> {
		return this.#records;
	}

	/** The earlier runs' prompts, oldest first; a new array once they are loaded. */
	getSnapshot = (): readonly string[] => this.#entries;

	subscribe = (listener: () => void): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	async #open(register: boolean, load: boolean): Promise<PromptHistory | null | undefined> {
		const locate = this.#locate;
		if (locate === null) return null;
		try {
			const [{PromptHistory}, path] = await Promise.all([import('../core/session/prompt-history.js'), locate(register)]);
			if (path === undefined) return undefined;
			const store = new PromptHistory(path, this.#notice);
			if (load) this.#loaded(await store.load());
			return store;
		} catch (error) {
			this.#notice(`prompts are not kept across runs: ${(error as Error).message}`);
			return null;
		}
	}

	#loaded(entries: string[]): void {
		if (entries.length === 0) return;
		this.#entries = entries;
		for (const listener of this.#listeners) listener();
	}
}
