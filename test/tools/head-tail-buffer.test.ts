import assert from 'node:assert/strict';
import {test} from 'node:test';
import {HeadTailBuffer} from '../../source/core/tools/head-tail-buffer.js';
import {MAX_COMMAND_OUTPUT_BYTES} from '../../source/core/tools/run-command.js';

function fill(buffer: HeadTailBuffer, bytes: number, chunk = 64 * 1024): void {
	for (let written = 0; written < bytes; written += chunk) {
		buffer.push(Buffer.alloc(Math.min(chunk, bytes - written), 'a'));
	}
}

test('the command output cap is 1 MiB', () => {
	assert.equal(MAX_COMMAND_OUTPUT_BYTES, 1024 * 1024);
});

test('output of exactly the limit is kept whole; one byte more drops one byte from the middle', () => {
	const exact = new HeadTailBuffer(MAX_COMMAND_OUTPUT_BYTES);
	fill(exact, MAX_COMMAND_OUTPUT_BYTES);
	assert.equal(exact.toString(), 'a'.repeat(MAX_COMMAND_OUTPUT_BYTES));

	const over = new HeadTailBuffer(MAX_COMMAND_OUTPUT_BYTES);
	fill(over, MAX_COMMAND_OUTPUT_BYTES + 1);
	assert.equal(over.totalBytes, MAX_COMMAND_OUTPUT_BYTES + 1);
	const half = MAX_COMMAND_OUTPUT_BYTES / 2;
	assert.equal(over.toString(), `${'a'.repeat(half)}\n… 1 byte omitted …\n${'a'.repeat(half)}`);
});

test('head and tail survive however the chunks fall', () => {
	const buffer = new HeadTailBuffer(10);
	for (const piece of ['01', '234', '5', '6789', 'ABCDEFGH', 'IJ', 'KLMNOP']) {
		buffer.push(Buffer.from(piece));
	}

	assert.equal(buffer.toString(), '01234\n… 16 bytes omitted …\nLMNOP');
});

test('multi-byte characters are kept whole when nothing is omitted', () => {
	const buffer = new HeadTailBuffer(16);
	const text = '你好世界';
	const bytes = Buffer.from(text);
	// Split inside a character, right where head meets tail.
	buffer.push(bytes.subarray(0, 7));
	buffer.push(bytes.subarray(7));
	assert.equal(buffer.toString(), text);
});
