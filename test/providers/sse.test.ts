import {test} from 'node:test';
import assert from 'node:assert/strict';
import {MAX_SSE_EVENT_BYTES, readSse} from '../../source/core/providers/sse.js';
import {StreamProtocolError} from '../../source/core/providers/errors.js';
import type {SseEvent} from '../../source/core/providers/types.js';
import {chunked} from './helpers.js';

async function collect(source: AsyncIterable<Uint8Array>, maxEventBytes?: number): Promise<SseEvent[]> {
	const events: SseEvent[] = [];
	for await (const event of readSse(source, {label: 'test stream', ...(maxEventBytes === undefined ? {} : {maxEventBytes})})) {
		events.push(event);
	}

	return events;
}

async function* bytes(...parts: Array<string | number[]>): AsyncGenerator<Uint8Array> {
	for (const part of parts) yield typeof part === 'string' ? new TextEncoder().encode(part) : Uint8Array.from(part);
}

test('events carry their name and data; data lines join with a newline', async () => {
	const events = await collect(chunked('event: first\ndata: one\ndata: two\n\ndata: {"a":1}\n\n', 3));
	assert.deepEqual(events, [
		{event: 'first', data: 'one\ntwo'},
		{event: null, data: '{"a":1}'},
	]);
});

test('a multi-byte character split across chunks survives, at every split point', async () => {
	const text = 'data: 你好👋é\n\n';
	const encoded = [...new TextEncoder().encode(text)];
	for (let cut = 1; cut < encoded.length; cut++) {
		const events = await collect(bytes(encoded.slice(0, cut), encoded.slice(cut)));
		assert.deepEqual(events, [{event: null, data: '你好👋é'}], `split at byte ${cut}`);
	}

	const oneByteAtATime = await collect(chunked(text, 1));
	assert.deepEqual(oneByteAtATime, [{event: null, data: '你好👋é'}]);
});

test('lines end in LF, CRLF or CR, and a CRLF split across chunks is one line end', async () => {
	assert.deepEqual(await collect(bytes('data: a\r\ndata: b\r\n\r\ndata: c\rdata: d\r\rdata: e\n\n')), [
		{event: null, data: 'a\nb'},
		{event: null, data: 'c\nd'},
		{event: null, data: 'e'},
	]);
	assert.deepEqual(await collect(bytes('data: a\r', '\ndata: b\r', '\n\r', '\n')), [{event: null, data: 'a\nb'}]);
});

test('comments, id, retry and unknown fields are ignored; one space after the colon is dropped', async () => {
	const events = await collect(bytes(': keep-alive\nid: 7\nretry: 100\nfoo: bar\ndata:x\ndata:  y\ndata\n\n: only a comment\n\n'));
	assert.deepEqual(events, [{event: null, data: 'x\n y\n'}]);
});

test('a blank line with no data dispatches nothing and forgets the event name', async () => {
	assert.deepEqual(await collect(bytes('event: lonely\n\ndata: later\n\n')), [{event: null, data: 'later'}]);
});

test('an empty stream yields nothing', async () => {
	assert.deepEqual(await collect(bytes()), []);
});

test('a final event without its blank line is a truncated stream, not a complete event', async () => {
	await assert.rejects(collect(bytes('data: one\n\ndata: two\n')), (error: unknown) => {
		assert.ok(error instanceof StreamProtocolError);
		assert.equal(error.kind, 'stream');
		assert.match(error.message, /test stream ended in the middle of an event \(truncated response\)/);
		return true;
	});
	await assert.rejects(collect(bytes('data: one\n\ndata: tw')), StreamProtocolError);
	await assert.rejects(collect(bytes('event: x\n')), StreamProtocolError);
	// A cut multi-byte character at the very end is a cut line too.
	await assert.rejects(collect(bytes('data: one\n\n', [0xe4, 0xbd])), StreamProtocolError);
});

/** One event of exactly `size` bytes ("data: " + x…), generated lazily in 64 KiB chunks. */
async function* eventOfSize(size: number): AsyncGenerator<Uint8Array> {
	yield new TextEncoder().encode('data: ');
	const block = new Uint8Array(64 * 1024).fill(0x78);
	for (let left = size - 6; left > 0; left -= block.length) yield left >= block.length ? block : block.subarray(0, left);
	yield new TextEncoder().encode('\n\n');
}

test('an event of exactly 48 MiB is accepted', async () => {
	assert.equal(MAX_SSE_EVENT_BYTES, 48 * 1024 * 1024);
	const events = await collect(eventOfSize(MAX_SSE_EVENT_BYTES));
	assert.equal(events.length, 1);
	assert.equal(events[0]!.data.length, MAX_SSE_EVENT_BYTES - 6);
});

test('an event one byte over 48 MiB is refused', async () => {
	await assert.rejects(collect(eventOfSize(MAX_SSE_EVENT_BYTES + 1)), (error: unknown) => {
		assert.ok(error instanceof StreamProtocolError);
		assert.match(error.message, /test stream: one event is larger than the 48 MiB limit/);
		return true;
	});
});

test('the event limit counts bytes, not characters, across data lines', async () => {
	// "data: 你" is 9 bytes; two such lines are 18.
	assert.equal((await collect(bytes('data: 你\ndata: 你\n\n'), 18)).length, 1);
	await assert.rejects(collect(bytes('data: 你\ndata: 你\n\n'), 17), /larger than the 17 bytes limit/);
	// The limit is per event: many events within it are fine.
	assert.equal((await collect(bytes('data: 12\n\n'.repeat(100)), 8)).length, 100);
});
