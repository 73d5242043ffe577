import assert from 'node:assert/strict';
import {test} from 'node:test';
import {readSse} from '../src/sse.js';

/** A body that delivers exactly these chunks, one read each. */
function body(...chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return new ReadableStream({
		start(controller) {
			for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
			controller.close();
		},
	});
}

async function all(stream: ReadableStream<Uint8Array>): Promise<string[]> {
	const out: string[] = [];
	for await (const data of readSse(stream)) out.push(data);
	return out;
}

test('a UTF-8 character split across two chunks comes out whole', async () => {
	const bytes = new TextEncoder().encode('data: {"t":"wörld 😀"}\n\n');
	const split = bytes.indexOf(0xc3) + 1;
	const emoji = bytes.indexOf(0xf0) + 2;
	assert.deepEqual(await all(body(bytes.subarray(0, split), bytes.subarray(split, emoji), bytes.subarray(emoji))), ['{"t":"wörld 😀"}']);
});

test('events end at a blank line with \\n, \\r\\n (split between chunks too) or \\r; comments and other fields are skipped; data lines join', async () => {
	assert.deepEqual(await all(body(': keep-alive\n', 'event: x\ndata: a\r', '\ndata: b\r\n\r\n', 'data:c\r\rdata: last')), ['a\nb', 'c', 'last']);
});
