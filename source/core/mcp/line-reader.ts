/** A line longer than the reader's bound: the connection ends, saying so. */
export class LineTooLongError extends Error {
	constructor(readonly maxBytes: number) {
		super(`sent a message larger than ${maxBytes / (1024 * 1024)} MiB, the limit of one MCP message`);
	}
}

const NEWLINE = 0x0a;

/**
 * Newline-delimited lines from a byte stream, in time and memory linear in
 * what arrives: each chunk is scanned once, and the pieces of an unfinished
 * line are joined only when its newline comes (the SDK's ReadBuffer copies
 * and scans everything pending at every chunk, which grows with the square
 * of a long message).
 */
export class LineReader {
	readonly #maxBytes: number;
	#pieces: Buffer[] = [];
	#pending = 0;

	constructor(maxBytes: number) {
		this.#maxBytes = maxBytes;
	}

	/** The lines `chunk` completes (a trailing CR dropped); throws LineTooLongError once a line passes the bound. */
	push(chunk: Buffer): string[] {
		const lines: string[] = [];
		let start = 0;
		for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
			this.#keep(chunk.subarray(start, at));
			const line = Buffer.concat(this.#pieces, this.#pending).toString('utf8');
			lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
			this.clear();
			start = at + 1;
		}

		if (start < chunk.length) this.#keep(chunk.subarray(start));
		return lines;
	}

	clear(): void {
		this.#pieces = [];
		this.#pending = 0;
	}

	#keep(piece: Buffer): void {
		if (this.#pending + piece.length > this.#maxBytes) {
			this.clear();
			throw new LineTooLongError(this.#maxBytes);
		}

		this.#pieces.push(piece);
		this.#pending += piece.length;
	}
}
