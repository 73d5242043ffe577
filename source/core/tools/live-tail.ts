/** Lines of a running command's output its progress shows: the last ones. */
export const LIVE_TAIL_LINES = 5;
/** Characters a progress text takes at most (the last ones), so a line of megabytes stays small. */
export const LIVE_TAIL_CHARS = 2048;
/** Progress goes out at most this often; output in between is folded into the next. */
export const LIVE_TAIL_INTERVAL_MS = 100;

/**
 * The last lines of a command's output while it runs, handed to `send` at
 * most once per interval: at once when the last one is older, else when the
 * interval is up. `stop` ends it; nothing is sent after, since the result
 * follows. A carriage return starts its line again, as on a terminal, so a
 * progress bar shows its latest state.
 */
export class LiveTail {
	readonly #send: (text: string) => void;
	readonly #intervalMs: number;
	#tail = '';
	#lastSent = Number.NEGATIVE_INFINITY;
	#timer: NodeJS.Timeout | undefined;
	#stopped = false;

	constructor(send: (text: string) => void, intervalMs = LIVE_TAIL_INTERVAL_MS) {
		this.#send = send;
		this.#intervalMs = intervalMs;
	}

	push(text: string): void {
		if (this.#stopped || text === '') return;
		// Twice the bound: enough for the last lines however the next chunk ends.
		this.#tail = (this.#tail + text).slice(-2 * LIVE_TAIL_CHARS);
		if (this.#timer !== undefined) return;
		const wait = this.#lastSent + this.#intervalMs - Date.now();
		if (wait <= 0) {
			this.#flush();
			return;
		}

		this.#timer = setTimeout(() => {
			this.#timer = undefined;
			this.#flush();
		}, wait);
	}

	stop(): void {
		this.#stopped = true;
		clearTimeout(this.#timer);
		this.#timer = undefined;
	}

	#flush(): void {
		if (this.#stopped) return;
		const text = tailLines(this.#tail);
		this.#lastSent = Date.now();
		if (text !== '') this.#send(text);
	}
}

/** The last `LIVE_TAIL_LINES` non-blank lines of `text`, each as a terminal leaves it after its carriage returns, at most `LIVE_TAIL_CHARS` in all. */
export function tailLines(text: string): string {
	const lines = text
		.split('\n')
		.map(afterReturns)
		.filter(line => line.trim() !== '');
	return lines.slice(-LIVE_TAIL_LINES).join('\n').slice(-LIVE_TAIL_CHARS);
}

/** What a terminal shows of a line after its carriage returns: the text after the last one (a trailing one, as in CR LF, ends nothing). */
function afterReturns(line: string): string {
	const body = line.replace(/\r+$/, '');
	return body.slice(body.lastIndexOf('\r') + 1);
}
