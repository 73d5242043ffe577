import {StringDecoder} from 'node:string_decoder';

/** One input line is one turn; a line this long is not typed or piped on purpose. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

export class LineTooLongError extends Error {
	override name = 'LineTooLongError';
}

/** Input stopped arriving while it was awaited: before any byte (`first`), or between lines (`idle`). */
export class InputIdleError extends Error {
	override name = 'InputIdleError';
	constructor(
		readonly kind: 'first' | 'idle',
		readonly ms: number,
	) {
		super(kind === 'first' ? `no input within ${ms / 1000} s` : `no more input for ${ms / 1000} s`);
	}
}

export interface IdleLimits {
	/** How long to wait for the first byte. */
	firstByteMs: number;
	/** How long to wait for more once input started. */
	idleMs: number;
}

/**
 * Splits a byte stream into lines on `\n` only (never U+2028/U+2029, which
 * readline also treats as breaks), decoding UTF-8 across chunk borders and
 * dropping a `\r` before the `\n`. The last line needs no newline. With
 * `limits`, waiting for input (never the time the consumer spends on a line)
 * is bounded: an open, silent stream ends in an `InputIdleError`.
 */
export async function* readLines(input: AsyncIterable<Buffer | string>, limits?: IdleLimits): AsyncGenerator<string> {
	const iterator = input[Symbol.asyncIterator]();
	const decoder = new StringDecoder('utf8');
	let pending = '';
	let pendingBytes = 0;
	let received = false;
	try {
		for (;;) {
			const next = limits ? await withLimit(iterator.next(), received ? new InputIdleError('idle', limits.idleMs) : new InputIdleError('first', limits.firstByteMs)) : await iterator.next();
			if (next.done) break;
			received = true;
			const buffer = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
			pendingBytes += buffer.length;
			pending += decoder.write(buffer);
			let newline = pending.indexOf('\n');
			if (newline !== -1) {
				while (newline !== -1) {
					yield stripCr(pending.slice(0, newline));
					pending = pending.slice(newline + 1);
					newline = pending.indexOf('\n');
				}

				// Counted again only when lines were taken, so a long line costs its length once.
				pendingBytes = Buffer.byteLength(pending);
			}

			if (pendingBytes > MAX_LINE_BYTES) throw new LineTooLongError(`an input line is longer than ${MAX_LINE_BYTES} bytes`);
		}
	} finally {
		// End the source so nothing waits on it. A stream is destroyed directly:
		// its iterator's return() would queue behind a read that may never finish.
		const stream = input as {destroy?: () => void};
		if (typeof stream.destroy === 'function') stream.destroy();
		else void iterator.return?.()?.catch(() => {});
	}

	pending += decoder.end();
	if (pending.length > 0) yield stripCr(pending);
}

async function withLimit<T>(promise: Promise<T>, timeout: InputIdleError): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	try {
		return await Promise.race([
			promise,
			new Promise<never>((_resolve, reject) => {
				timer = setTimeout(() => reject(timeout), timeout.ms);
			}),
		]);
	} finally {
		clearTimeout(timer);
	}
}

function stripCr(line: string): string {
	return line.endsWith('\r') ? line.slice(0, -1) : line;
}
