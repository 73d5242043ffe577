import {StringDecoder} from 'node:string_decoder';

/** One input line is one turn; a line this long is not typed or piped on purpose. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

export class LineTooLongError extends Error {
	override name = 'LineTooLongError';
}

/**
 * Splits a byte stream into lines on `\n` only (never U+2028/U+2029, which
 * readline also treats as breaks), decoding UTF-8 across chunk borders and
 * dropping a `\r` before the `\n`. The last line needs no newline.
 */
export async function * readLines(input: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
	const decoder = new StringDecoder('utf8');
	let pending = '';
	let pendingBytes = 0;
	for await (const chunk of input) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
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

	pending += decoder.end();
	if (pending.length > 0) yield stripCr(pending);
}

function stripCr(line: string): string {
	return line.endsWith('\r') ? line.slice(0, -1) : line;
}
