import assert from 'node:assert/strict';
import {test} from 'node:test';
import {StderrTail} from '../../source/core/pool/stderr-tail.js';

test('stderr is kept in bounded memory: the last io_limit_bytes, the rest counted', () => {
	const tail = new StderrTail(1000);
	const chunk = Buffer.alloc(65_536, 'e');
	for (let index = 0; index < 160; index++) tail.push(chunk);
	tail.push(Buffer.from('the end\n'));
	assert.equal(tail.totalBytes, 160 * 65_536 + 8);
	assert.equal(tail.keptBytes, 1000);
	assert.equal(tail.describe(), ` (stderr, the last 1000 of ${160 * 65_536 + 8} bytes: "${'e'.repeat(992)}the end")`);
});

test('a failure message quotes at most the last 2 KB, printable, on one line', () => {
	const tail = new StderrTail(1024 * 1024);
	tail.push(Buffer.from(`${'x'.repeat(5000)}\n\u001B[31mTraceback\u001B[0m:\n\tboom\u0007\n`));
	const note = tail.describe();
	assert.match(note, /^ \(stderr, the last 2048 of 5028 bytes: "x+\\nTraceback:\\n\\tboom\\u0007"\)$/);
	assert.ok(!note.includes('\n'));
});

test('a character cut by the 2 KB window is dropped, not shown as U+FFFD; no stderr, no note', () => {
	const tail = new StderrTail(4096);
	tail.push(Buffer.from('☃'.repeat(1000)));
	assert.equal(tail.describe(), ` (stderr, the last 2048 of 3000 bytes: "${'☃'.repeat(682)}")`);
	assert.equal(new StderrTail(10).describe(), '');
	const blank = new StderrTail(10);
	blank.push(Buffer.from('\n  \n'));
	assert.equal(blank.describe(), '');
});

test('short stderr is quoted whole', () => {
	const tail = new StderrTail(4096);
	tail.push(Buffer.from('warning: slow\n'));
	assert.equal(tail.describe(), ' (stderr: "warning: slow")');
});
