/** How much of the kept stderr a failure message quotes. */
const QUOTED_BYTES = 2048;
/** Terminal escape sequences (colours, cursor moves) that would garble a message. */
const ESCAPE_SEQUENCES = /\u001B\[[0-?]*[ -/]*[@-~]/g;

/**
 * A worker's stderr, drained continuously (spec/platform.md §2) and kept in bounded
 * memory: the most recent `limit` bytes, the rest only counted. The end is
 * what explains a failure, so the end is what survives.
 */
export class StderrTail {
	readonly #limit: number;
	#chunks: Buffer[] = [];
	#keptBytes = 0;
	#totalBytes = 0;

	constructor(limit: number) {
		this.#limit = limit;
	}

	get totalBytes(): number {
		return this.#totalBytes;
	}

	get keptBytes(): number {
		return this.#keptBytes;
	}

	push(chunk: Buffer): void {
		this.#totalBytes += chunk.length;
		this.#chunks.push(chunk);
		this.#keptBytes += chunk.length;
		while (this.#keptBytes > this.#limit) {
			const first = this.#chunks[0]!;
			const excess = this.#keptBytes - this.#limit;
			if (first.length <= excess) {
				this.#chunks.shift();
				this.#keptBytes -= first.length;
			} else {
				// A copy, so the rest of a large read buffer is not kept alive by a slice of it.
				this.#chunks[0] = Buffer.from(first.subarray(excess));
				this.#keptBytes -= excess;
			}
		}
	}

	/**
	 * The end of stderr for a failure message, e.g. ` (stderr: "Traceback…")`,
	 * quoted as a JSON string so control characters and newlines stay printable;
	 * empty when the worker wrote nothing.
	 */
	describe(): string {
		const parts: Buffer[] = [];
		let wanted = QUOTED_BYTES;
		for (let index = this.#chunks.length - 1; index >= 0 && wanted > 0; index--) {
			const chunk = this.#chunks[index]!;
			const part = chunk.subarray(Math.max(0, chunk.length - wanted));
			parts.unshift(part);
			wanted -= part.length;
		}

		const quoted = Buffer.concat(parts);
		const cut = quoted.length < this.#totalBytes;
		let text = quoted.toString('utf8');
		// A character cut at the start decodes to U+FFFD: drop it.
		if (cut) text = text.replace(/^\uFFFD{1,3}/, '');
		text = text.replaceAll(ESCAPE_SEQUENCES, '').trim();
		if (text.length === 0) return '';
		const scope = cut ? `stderr, the last ${quoted.length} of ${this.#totalBytes} bytes` : 'stderr';
		return ` (${scope}: ${JSON.stringify(text)})`;
	}
}
