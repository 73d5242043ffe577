import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventEmitter} from 'node:events';
import {createRequire} from 'node:module';
import {setTimeout as delay} from 'node:timers/promises';
import type {Terminal as TerminalType} from '@xterm/headless';
import type {InputEditorProps} from '../../components/InputEditor.js';

// Ink decides once, when it loads, whether it runs in CI, and there draws only
// the last frame and no cursor; the cursor test needs the interactive renderer.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
const {render} = await import('ink-testing-library');
const ink = await import('ink');
const {InputEditor} = await import('../../components/InputEditor.js');
const {PASTE_END, PASTE_START} = await import('../../source/tui/editor/key-decoder.js');
// xterm's package is CommonJS with no ESM entry Node can load.
const {Terminal} = createRequire(import.meta.url)('@xterm/headless') as {Terminal: typeof TerminalType};

const LEFT = '\u001B[D';
const UP = '\u001B[A';
const DOWN = '\u001B[B';
const ALT_ENTER = '\u001B\r';

type Overrides = Partial<InputEditorProps>;

/** Asserts the frame Ink draws, once it has drawn it: a busy runner draws later than the keys were written. */
async function frameIs(lastFrame: () => string | undefined, expected: string, message?: string): Promise<void> {
	for (let waited = 0; lastFrame() !== expected && waited < 5000; waited += 10) await delay(10);
	assert.equal(lastFrame(), expected, message);
}

/** Renders the editor and waits for its input subscription (a passive effect). */
async function editor(overrides: Overrides = {}) {
	const submitted: string[] = [];
	const view = render(<InputEditor width={40} isActive onSubmit={text => void submitted.push(text)} {...overrides} />);
	// Keys written before Ink listens would be lost: wait for its listener, not for a guessed time (a busy runner is slow).
	for (let waited = 0; overrides.isActive !== false && view.stdin.listenerCount('readable') === 0; waited += 5) {
		if (waited > 5000) throw new Error('the editor never listened to stdin');
		await delay(5);
	}

	// An inactive editor never listens; give a wrongly active one the time to show it.
	if (overrides.isActive === false) await delay(50);
	const type = async (...inputs: string[]) => {
		for (const input of inputs) {
			view.stdin.write(input);
			await delay(5);
		}
	};

	return {...view, submitted, type};
}

test('typing Chinese, moving left twice, deleting and inserting submits the edited text', async () => {
	const {type, lastFrame, submitted} = await editor();
	await type('你好世界', LEFT, LEFT, '\u007F', '们');
	await frameIs(lastFrame, '› 你们世界');
	await type('\r');
	assert.deepEqual(submitted, ['你们世界']);
	await frameIs(lastFrame, '›');
});

test('an IME burst ending in Enter is submitted whole', async () => {
	const {type, submitted} = await editor();
	await type('你好，世界\r');
	assert.deepEqual(submitted, ['你好，世界']);
});

test('Alt+Enter and Ctrl-J start new lines; Enter sends all of them', async () => {
	const {type, lastFrame, submitted} = await editor();
	await type('first', ALT_ENTER, '第二', '\n', 'third');
	await frameIs(lastFrame, '› first\n  第二\n  third');
	await type('\r');
	assert.deepEqual(submitted, ['first\n第二\nthird']);
});

test('a long line wraps at the width without splitting a wide character', async () => {
	const {type, lastFrame} = await editor({width: 12});
	await type('abcdefgh中文字符很长');
	await frameIs(lastFrame, '› abcdefgh\n  中文字符\n  很长');
});

test('up and down walk the history from the first and last rows, keeping the draft', async () => {
	const {type, lastFrame, submitted} = await editor({history: ['one', '两行\n第二']});
	await type('draft');
	await type(UP);
	await frameIs(lastFrame, '› 两行\n  第二');
	await type(UP);
	await frameIs(lastFrame, '› one');
	await type(DOWN, DOWN);
	await frameIs(lastFrame, '› draft');
	await type('\r', UP);
	assert.deepEqual(submitted, ['draft']);
	await frameIs(lastFrame, '› draft', 'the submitted text is in the history');
});

test('a bracketed paste is inserted as text, line breaks and all, and not sent', async () => {
	const {type, lastFrame, submitted} = await editor();
	await type(`${PASTE_START}line 1\r\nline 2\r\u001B[31m${PASTE_END}`);
	assert.deepEqual(submitted, []);
	await frameIs(lastFrame, '› line 1\n  line 2\n  ␛[31m');
});

test('a text taller than maxRows scrolls with the caret and marks the hidden rows', async () => {
	const {type, lastFrame} = await editor({maxRows: 3});
	await type(`${PASTE_START}${Array.from({length: 10}, (_, index) => `行 ${index}`).join('\n')}${PASTE_END}`);
	await frameIs(lastFrame, '↑ 行 7\n  行 8\n  行 9');
	await type(UP, UP, UP);
	await frameIs(lastFrame, '↑ 行 6\n  行 7\n↓ 行 8');
});

test('Ctrl-C empties the editor and says whether it had text; Esc interrupts', async () => {
	const calls: string[] = [];
	const {type, lastFrame} = await editor({onCtrlC: hadText => calls.push(`ctrl-c ${hadText}`), onInterrupt: () => calls.push('esc')});
	await type('text', '\u0003');
	await frameIs(lastFrame, '›');
	await type('\u0003', '\u001B');
	await delay(20); // a lone Esc reaches the editor after Ink's parser waits for more of a sequence
	assert.deepEqual(calls, ['ctrl-c true', 'ctrl-c false', 'esc']);
});

test('Tab hands the text to onTab and takes its completion', async () => {
	const {type, lastFrame} = await editor({onTab: text => (text === '/he' ? '/help' : undefined)});
	await type('/he', '\t');
	await frameIs(lastFrame, '› /help');
	await type('\t');
	await frameIs(lastFrame, '› /help');
});

test('a refused submission stays in the editor and out of the history', async () => {
	const {type, lastFrame} = await editor({onSubmit: () => false});
	await type('not now\r');
	await frameIs(lastFrame, '› not now');
	await type('\u0015', UP);
	await frameIs(lastFrame, '›');
});

test('onChange gets the text after each edit; the placeholder shows when empty', async () => {
	const changes: string[] = [];
	const {type, lastFrame} = await editor({placeholder: 'Ask anything', onChange: text => changes.push(text)});
	assert.match(lastFrame()!, /› .*Ask anything/);
	await type('/h', LEFT, '\u007F');
	assert.deepEqual(changes, ['/h', 'h']);
});

test('an inactive editor ignores the keyboard', async () => {
	const {type, lastFrame, submitted} = await editor({isActive: false});
	await type('ignored\r');
	assert.deepEqual(submitted, []);
	await frameIs(lastFrame, '›');
});

/** An Ink output stream that is a terminal emulator's screen, so the real cursor can be read. */
class Screen extends EventEmitter {
	readonly isTTY = true;
	readonly columns = 40;
	readonly rows = 20;
	// convertEol: a pty's line discipline turns LF into CR LF; the emulator alone does not.
	readonly terminal = new Terminal({cols: 40, rows: 20, allowProposedApi: true, convertEol: true});
	write = (data: string) => {
		this.terminal.write(data);
		return true;
	};

	async cursor(): Promise<{x: number; y: number}> {
		await new Promise<void>(resolve => this.terminal.write('', resolve));
		return {x: this.terminal.buffer.active.cursorX, y: this.terminal.buffer.active.cursorY};
	}

	line(row: number): string {
		return this.terminal.buffer.active.getLine(row)?.translateToString(true) ?? '';
	}
}

class Keyboard extends EventEmitter {
	readonly isTTY = true;
	private pending: string | null = null;
	setEncoding() {}
	setRawMode() {}
	ref() {}
	unref() {}
	read = () => {
		const data = this.pending;
		this.pending = null;
		return data;
	};

	press(data: string) {
		this.pending = data;
		this.emit('readable');
	}
}

test('the terminal cursor sits at the caret, below whatever the live area shows above the editor', async () => {
	const screen = new Screen();
	const keyboard = new Keyboard();
	const frame = (header: string[]) => (
		<ink.Box flexDirection="column">
			{header.map(line => (
				<ink.Text key={line}>{line}</ink.Text>
			))}
			<InputEditor width={40} isActive onSubmit={() => {}} />
			<ink.Text>status line</ink.Text>
		</ink.Box>
	);
	const app = ink.render(frame(['streaming answer', 'second line']), {
		stdout: screen as unknown as NodeJS.WriteStream,
		stdin: keyboard as unknown as NodeJS.ReadStream,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	// Ink draws at most 30 frames a second: wait for the screen rather than for a fixed time.
	const until = async (what: string, check: () => Promise<boolean>) => {
		for (const deadline = Date.now() + 5000; !(await check()); await delay(20)) {
			if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; cursor ${JSON.stringify(await screen.cursor())}`);
		}
	};

	const cursorAt = async (x: number, y: number) => {
		const cursor = await screen.cursor();
		return cursor.x === x && cursor.y === y;
	};

	try {
		await delay(20);
		keyboard.press('你好世界');
		await until('the text', async () => screen.line(2) === '› 你好世界');
		keyboard.press(LEFT);
		await delay(20);
		keyboard.press(LEFT);
		await until('the cursor after 你好: two wide characters past the prompt', async () => cursorAt(6, 2));
		keyboard.press(ALT_ENTER);
		await delay(20);
		keyboard.press('下一行');
		await until('the cursor on the second row', async () => cursorAt(8, 3));
		app.rerender(frame(['streaming answer', 'second line', 'a third line streamed in']));
		await until('the editor one row down', async () => screen.line(4) === '  下一行世界');
		await until('the cursor following it', async () => cursorAt(8, 4));
	} finally {
		app.unmount();
	}
});

test('a paste of more than 10 lines is one numbered placeholder, sent whole and kept whole in the history', async () => {
	const {PASTE_PLACEHOLDER_LINES} = await import('../../source/tui/editor/paste-placeholders.js');
	const changes: string[] = [];
	const {type, lastFrame, submitted} = await editor({width: 80, onChange: text => void changes.push(text)});
	const big = Array.from({length: 300}, (_, index) => `line ${index + 1} 값`).join('\n');
	const small = Array.from({length: PASTE_PLACEHOLDER_LINES + 1}, (_, index) => `s${index}`).join('\n');
	await type('see ', `${PASTE_START}${big.replaceAll('\n', '\r\n')}${PASTE_END}`, ' and ', `${PASTE_START}${small}\n${PASTE_END}`);
	await frameIs(lastFrame, '› see [pasted 300 lines #1] and [pasted 11 lines #2]');
	assert.equal(changes.at(-1), `see ${big} and ${small}\n`, 'onChange sees the pastes whole');
	await type('\r');
	assert.deepEqual(submitted, [`see ${big} and ${small}\n`]);
	await type(UP);
	for (let waited = 0; !/^› see line 1 값/.test(lastFrame()!) && waited < 5000; waited += 10) await delay(10);
	assert.match(lastFrame()!, /^› see line 1 값/, 'the history entry is shown');
	assert.doesNotMatch(lastFrame()!, /pasted/);
});

test('Backspace after a placeholder or Delete before one removes it and its paste; a third paste gets the next number', async () => {
	let refuse = true;
	const submitted: string[] = [];
	const {type, lastFrame} = await editor({onSubmit: text => (refuse ? false : void submitted.push(text))});
	const paste = (count: number) => `${PASTE_START}${Array.from({length: count}, (_, index) => `p${index}`).join('\n')}${PASTE_END}`;
	await type(paste(12), paste(20), '\u007F');
	await frameIs(lastFrame, '› [pasted 12 lines #1]');
	await type('\u0001', '\u001B[3~');
	await frameIs(lastFrame, '›');
	await type('x', paste(15));
	await frameIs(lastFrame, '› x[pasted 15 lines #3]');
	await type('\r');
	await frameIs(lastFrame, '› x[pasted 15 lines #3]', 'a refused text stays, placeholder and all');
	refuse = false;
	await type('\r');
	assert.deepEqual(submitted, [`x${Array.from({length: 15}, (_, index) => `p${index}`).join('\n')}`]);
});
