import assert from 'node:assert/strict';
import {test} from 'node:test';
import {encodeFrame, FrameDecoder, FrameError, MAX_FRAME_BYTES} from '../../source/core/pool/frames.js';

test('the frame limit is 48 MiB, newline included', () => {
	assert.equal(MAX_FRAME_BYTES, 48 * 1024 * 1024);
});

test('encodeFrame writes one line of JSON: newlines, U+2028 and lone surrogates never break it', () => {
	const frame = encodeFrame({text: 'a\nb\u2028c', lone: '\uD800', snow: '☃'});
	assert.equal(frame.indexOf(10), frame.length - 1);
	assert.deepEqual(JSON.parse(frame.toString('utf8')), {text: 'a\nb\u2028c', lone: '\uD800', snow: '☃'});
});

test('encodeFrame at the limit passes and one byte past it throws, counting UTF-8 bytes', () => {
	// `"☃☃"` plus the newline: 2 quotes, 6 bytes of snowmen, 1 newline.
	assert.equal(encodeFrame('☃☃', 9).length, 9);
	assert.throws(() => encodeFrame('☃☃', 8), {name: 'FrameError', message: 'a frame of 9 bytes is over the limit of 8 bytes'});
	assert.throws(() => encodeFrame(undefined), FrameError);
});

test('the decoder splits on newline only and joins frames and characters split across chunks', () => {
	const decoder = new FrameDecoder();
	const bytes = Buffer.from('{"a":"☃\u2028"}\n{"b":1}\n{"c"');
	const frames: string[] = [];
	// One byte at a time: every border, inside the snowman too.
	for (let index = 0; index < bytes.length; index++) frames.push(...decoder.push(bytes.subarray(index, index + 1)));
	assert.deepEqual(frames, ['{"a":"☃\u2028"}', '{"b":1}']);
	assert.equal(decoder.pendingBytes, 4);
	assert.deepEqual(decoder.push(Buffer.from(':2}\n\n')), ['{"c":2}', '']);
	assert.equal(decoder.pendingBytes, 0);
});

test('a frame of exactly the limit passes; one byte more fails as soon as that is certain', () => {
	assert.deepEqual(new FrameDecoder(8).push(Buffer.from('1234567\n')), ['1234567']);
	assert.deepEqual(new FrameDecoder(8).push(Buffer.from('1234')).concat(new FrameDecoder(8).push(Buffer.from(''))), []);
	const split = new FrameDecoder(8);
	split.push(Buffer.from('1234'));
	assert.deepEqual(split.push(Buffer.from('567\n')), ['1234567']);
	// Complete, one byte over.
	assert.throws(() => new FrameDecoder(8).push(Buffer.from('12345678\n')), {name: 'FrameError', message: 'a frame of at least 9 bytes is over the limit of 8 bytes'});
	// Still open, with no room left for the newline: no need to wait for it.
	const open = new FrameDecoder(8);
	open.push(Buffer.from('1234'));
	assert.throws(() => open.push(Buffer.from('5678')), {name: 'FrameError', message: 'a frame of more than 8 bytes is over the limit of 8 bytes'});
});

test('bytes that are not UTF-8 fail the frame instead of turning into U+FFFD', () => {
	assert.throws(() => new FrameDecoder().push(Buffer.from([0x7b, 0xff, 0x7d, 0x0a])), {name: 'FrameError', message: 'a frame of 4 bytes is not valid UTF-8'});
	// A byte-order mark is not stripped either: JSON.parse then rejects it.
	assert.deepEqual(new FrameDecoder().push(Buffer.from('\uFEFF{}\n')), ['\uFEFF{}']);
});
