import assert from 'node:assert/strict';
import {test} from 'node:test';
import {truncateOutput} from '../../source/core/tools/truncate.js';

function removedCount(text: string): number {
	const match = /\[… (\d+) characters truncated …\]/.exec(text);
	assert.ok(match, `no marker in ${JSON.stringify(text.slice(0, 80))}`);
	return Number(match[1]);
}

test('text at the limit is returned unchanged', () => {
	const text = 'x'.repeat(500);
	assert.equal(truncateOutput(text, 500), text);
});

test('one character past the limit is cut to the limit with a marker that counts what went', () => {
	const text = 'h'.repeat(300) + 't'.repeat(201);
	const cut = truncateOutput(text, 500);
	assert.ok(cut.length <= 500, `length ${cut.length}`);
	const removed = removedCount(cut);
	const [head, tail] = cut.split(/\n\[… \d+ characters truncated …\]\n/);
	assert.ok(head!.length > 0 && tail!.length > 0);
	assert.equal(head!.length + tail!.length + removed, text.length);
	assert.ok(text.startsWith(head!) && text.endsWith(tail!));
});

test('a large text keeps its head and its tail', () => {
	const text = `START${'.'.repeat(100_000)}END`;
	const cut = truncateOutput(text, 1000);
	assert.ok(cut.length <= 1000);
	assert.ok(cut.startsWith('START') && cut.endsWith('END'));
});

test('a limit too small for the marker returns the marker alone', () => {
	const cut = truncateOutput('y'.repeat(100), 10);
	assert.equal(removedCount(cut), 100);
	assert.ok(!cut.includes('y'));
});

test('cuts never split a surrogate pair', () => {
	const text = '😀'.repeat(1000);
	for (const limit of [101, 102, 103, 250]) {
		const cut = truncateOutput(text, limit);
		assert.ok(cut.length <= limit);
		assert.doesNotThrow(() => encodeURIComponent(cut), `lone surrogate at limit ${limit}`);
	}
});
