import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventEmitter} from 'node:events';
import {ScreenStream} from '../../source/tui/screen/screen-stream.js';

const ESC = '\u001B';
const eraseLines = (count: number) => `${`${ESC}[2K${ESC}[1A`.repeat(count - 1)}${ESC}[2K${ESC}[G`;

/** A terminal's stdout as far as the stream uses it: size, writes, resize events. */
class FakeTerminal extends EventEmitter {
	columns = 100;
	rows = 30;
	isTTY = true;
	writable = true;
	writableEnded = false;
	writableLength = 0;
	destroyed = false;
	written: string[] = [];
	write(text: string, callback?: () => void): boolean {
		this.written.push(text);
		callback?.();
		return true;
	}

	resize(columns: number, rows: number): void {
		this.columns = columns;
		this.rows = rows;
		this.emit('resize');
	}
}

function setUp() {
	const terminal = new FakeTerminal();
	const stream = new ScreenStream(terminal as unknown as NodeJS.WriteStream);
	stream.write(`\n${'s'.repeat(100)}\n› draft\n`);
	terminal.written = [];
	return {terminal, stream};
}

test('a narrower terminal: the frame erased as reflowed, the renderer told after, its own erase of the frame dropped', () => {
	const {terminal, stream} = setUp();
	const heard: string[] = [];
	stream.on('resize', () => {
		heard.push(terminal.written.join(''));
		// Ink's resize on a narrower terminal: log-update's erase of the old frame, then the frame afresh.
		stream.write(eraseLines(4));
		stream.write('\n› draft\n');
	});
	terminal.resize(50, 30);
	// Rows above the cursor at 50 columns: the blank row, the status row (2 rows now), the draft.
	assert.deepEqual(heard, [`${ESC}[?25l${ESC}[4A\r${ESC}[J`]);
	assert.deepEqual(terminal.written.slice(1), ['', '\n› draft\n']);
	assert.equal(stream.columns, 50);
	assert.equal(stream.terminalRows, 30);
});

test('a wider terminal: the last frame is drawn again (it fits) before the renderer hears of the resize', () => {
	const {terminal, stream} = setUp();
	const order: string[] = [];
	stream.onRedraw(() => {
		order.push('redraw');
		// Ink's write of nothing: its erase (dropped), then its last frame.
		stream.write(`${ESC}[?25l${ESC}[1B${ESC}[1G${eraseLines(4)}`);
		stream.write('\n› draft\n');
	});
	stream.on('resize', () => order.push('resize'));
	terminal.resize(120, 40);
	assert.deepEqual(order, ['redraw', 'resize']);
	assert.deepEqual(terminal.written, [`${ESC}[?25l${ESC}[3A\r${ESC}[J`, '', '\n› draft\n']);
	// Once the frame is drawn again, a later erase is the renderer's own and goes through.
	stream.write(eraseLines(3));
	assert.equal(terminal.written.at(-1), eraseLines(3));
});

test('Ink is given no height, so it never clears the terminal for a frame as tall as the screen', () => {
	const {stream} = setUp();
	assert.equal((stream as unknown as {rows?: number}).rows, undefined);
});

test('a write callback is called (Ink waits on one before it exits), and close stops following resizes', () => {
	const {terminal, stream} = setUp();
	let called = false;
	stream.write('', () => {
		called = true;
	});
	assert.ok(called);
	stream.close();
	let heard = false;
	stream.on('resize', () => {
		heard = true;
	});
	terminal.resize(40, 20);
	assert.equal(heard, false);
});

test("Ink's way down to the frame's bottom goes out as line feeds, which a terminal that dropped rows below the cursor scrolls for", () => {
	const {terminal, stream} = setUp();
	stream.write(`${ESC}[?25l${ESC}[2B${ESC}[1G${eraseLines(4)}`);
	assert.equal(terminal.written.at(-1), `${ESC}[?25l\n\n${ESC}[1G${eraseLines(4)}`);
	stream.write(`${ESC}[2A${ESC}[3G`);
	assert.equal(terminal.written.at(-1), `${ESC}[2A${ESC}[3G`, 'other cursor moves go as they are');
});
