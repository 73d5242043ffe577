import {test} from 'node:test';
import assert from 'node:assert/strict';
import {FrameRows} from '../../source/tui/screen/frame-rows.js';
import {escapeEnd} from '../../source/tui/screen/escape-end.js';

const ESC = '\u001B';
/** Ink's log-update: erase `count` rows going up, ending at the top row's first column. */
const eraseLines = (count: number) => `${`${ESC}[2K${ESC}[1A`.repeat(count - 1)}${ESC}[2K${ESC}[G`;
const up = (rows: number) => `${ESC}[${rows}A`;

test('a frame of short rows: the erase goes up to its top from the cursor at its end', () => {
	const frame = new FrameRows(80);
	frame.write('transcript line\n');
	frame.write('\n› draft\nstatus line\n');
	assert.equal(frame.cursorRow, 3);
	assert.equal(frame.erase(), `${ESC}[?25l${up(3)}\r${ESC}[J`);
	assert.equal(frame.cursorRow, 0);
});

test('the frame begins where the latest printing write began: static output above it is dropped', () => {
	const frame = new FrameRows(80);
	frame.write('\n› draft\nstatus\n');
	// Ink with new static output: the frame erased, the static text written, then the frame again.
	frame.write(eraseLines(4));
	frame.write('answer line 1\nanswer line 2\n');
	frame.write('\n› draft\nstatus\n');
	assert.equal(frame.cursorRow, 3);
});

test('writes that print nothing (modes, titles, cursor moves) keep the frame where it is', () => {
	const frame = new FrameRows(80);
	frame.write('\n› draft\nstatus\n');
	frame.write(`${ESC}[?2026h`);
	frame.write(`${ESC}]0;i — working${ESC}\\`);
	frame.write(`${ESC}[?25l${ESC}[2A${ESC}[9G${ESC}[?25h`);
	assert.equal(frame.cursorRow, 1);
	assert.equal(frame.erase(), `${ESC}[?25l${up(1)}\r${ESC}[J`);
});

test('narrowing rewraps each line: a row of 100 columns takes 2 rows at 60 and 4 at 25', () => {
	const frame = new FrameRows(100);
	frame.write(`\n${'x'.repeat(100)}\n${'y'.repeat(30)}\n`);
	frame.reflow(60);
	assert.equal(frame.cursorRow, 4);
	frame.reflow(25);
	assert.equal(frame.cursorRow, 1 + 4 + 2);
	// Wider again: the soft wraps join up.
	frame.reflow(100);
	assert.equal(frame.cursorRow, 3);
});

test('the cursor at the caret keeps its character: a caret on the second half of a long row lands on its second row', () => {
	const frame = new FrameRows(100);
	frame.write(`\n› ${'a'.repeat(90)}\nstatus\n`);
	// The caret placed as Ink places it: up to the editor's row, then the column.
	frame.write(`${up(2)}${ESC}[71G`);
	assert.equal(frame.cursorRow, 1);
	frame.reflow(50);
	assert.equal(frame.cursorRow, 2, 'column 70 of the editor row is on its second row at 50 columns');
	assert.equal(frame.erase(), `${ESC}[?25l${up(2)}\r${ESC}[J`);
});

test('a cursor just past a row that fills its last reflowed row stays on it (pending wrap)', () => {
	const frame = new FrameRows(100);
	frame.write(`\n${'z'.repeat(100)}`);
	frame.reflow(50);
	assert.equal(frame.cursorRow, 2);
});

test('text past the last column wraps, wide characters whole: the rows are as the terminal holds them', () => {
	const frame = new FrameRows(10);
	frame.write(`\n${'漢'.repeat(6)}\n`);
	// Five fit in 10 columns, the sixth wraps: the line is 2 rows, the cursor below it.
	assert.equal(frame.cursorRow, 3);
	frame.reflow(4);
	assert.equal(frame.cursorRow, 1 + 3);
});

test('an escape sequence cut between two writes is read whole', () => {
	const frame = new FrameRows(80);
	frame.write('\na\nb\nc\n');
	frame.write(`${ESC}[`);
	frame.write('2A');
	assert.equal(frame.cursorRow, 2);
});

test('a clear of the screen (a pager came and went) leaves nothing to erase', () => {
	const frame = new FrameRows(80);
	frame.write('\na\nb\n');
	frame.write(`${ESC}[2J${ESC}[3J${ESC}[H`);
	assert.equal(frame.cursorRow, 0);
	assert.equal(frame.erase(), `${ESC}[?25l\r${ESC}[J`);
});

test('escapeEnd: CSI, OSC with BEL or ST, a character set, and sequences the text cuts', () => {
	assert.equal(escapeEnd(`${ESC}[12;3Hx`, 0), 7);
	assert.equal(escapeEnd(`${ESC}]0;title\u0007x`, 0), 10);
	assert.equal(escapeEnd(`${ESC}]8;;https://a${ESC}\\x`, 0), 16);
	assert.equal(escapeEnd(`${ESC}(Bx`, 0), 3);
	assert.equal(escapeEnd(`${ESC}[12`, 0), -1);
	assert.equal(escapeEnd(`${ESC}]0;title`, 0), -1);
	assert.equal(escapeEnd(ESC, 0), -1);
});
