/**
 * Server-sent events from a fetch body, one `data:` payload at a time. The
 * decoder is a streaming one: a UTF-8 character split across two network
 * chunks comes out whole, never as two replacement characters.
 */

/** A line longer than this is not an SSE stream a model server sends: the reader stops instead of buffering without end. */
export const MAX_SSE_LINE_CHARS = 4 * 1024 * 1024;

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
	const decoder = new TextDecoder('utf-8');
	const reader = body.getReader();
	let buffer = '';
	let data: string[] = [];
	try {
		for (;;) {
			const {done, value} = await reader.read();
			buffer += done ? decoder.decode() : decoder.decode(value, {stream: true});
			for (let newline = buffer.search(/\r\n|\n|\r/); newline !== -1; newline = buffer.search(/\r\n|\n|\r/)) {
				// A "\r" that ends the chunk may be the first half of "\r\n": wait for the next one.
				if (!done && newline === buffer.length - 1 && buffer[newline] === '\r') break;
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
				if (line === '') {
					if (data.length > 0) yield data.join('\n');
					data = [];
				} else if (line.startsWith('data:')) {
					data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
				}
			}

			if (buffer.length > MAX_SSE_LINE_CHARS) throw new Error(`the stream sent a line over ${MAX_SSE_LINE_CHARS} characters`);
			if (done) break;
		}

		// Servers that end without the blank line (or the line break) still meant their last event.
		if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.startsWith('data: ') ? 6 : 5));
		if (data.length > 0) yield data.join('\n');
	} finally {
		reader.releaseLock();
		await body.cancel().catch(() => {});
	}
}
