// The chat screen and an extension's faults, in a real pseudo-terminal
// (issue 47): a timer that throws is a notice and the screen goes on; a
// cancelled extension tool that ignores its signal ends as ✗, never ◐ for
// good; a loop that never yields is named, and then Ctrl-C ends i.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, writeExtensionFile, type Sandbox} from '../helpers/cli.js';
import {startChat} from './chat.js';
import {FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON} from '../../source/tui/notify/focus-report.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const ESC = '\u001B';
const CTRL_C = '\u0003';

/** A sandbox with one extension file; startChat's config goes in it. */
function withExtension(name: string, source: string): {box: Sandbox; args: string[]} {
	const box = makeSandbox();
	return {box, args: ['--yolo', '--extension', writeExtensionFile(box, name, source)]};
}

test('a timer of an extension throws: a notice names it, the answer comes, and the screen takes the next message', async () => {
	const {box, args} = withExtension(
		'timer.mjs',
		`export default api => api.registerTool({name: 'arm', description: 'Arms a timer.', parameters: {type: 'object'}, execute: () => new Promise(resolve => {
			setTimeout(function goOff() { setImmediate(() => resolve({output: 'armed'})); throw new Error('the timer went off'); }, 5);
		})});
`,
	);
	const {run} = await startChat(mock, {box, args});
	try {
		mock.enqueue({toolCalls: [{id: 'a1', name: 'arm', arguments: '{}'}]}, {text: 'Armed, and still here.'});
		run.type('arm it\r');
		await run.waitFor(screen => screen.includes('Armed, and still here.'), 'the answer');
		await run.waitFor(screen => /extension timer: an uncaught exception in a timer callback: the timer went off/.test(screen), 'the notice', {whole: true});
		mock.enqueue({text: 'Second answer.'});
		run.type('again\r');
		await run.waitFor(screen => screen.includes('Second answer.'), 'the next answer');
	} finally {
		await run.close();
	}
});

test('Esc while an extension tool ignores its signal: the row ends as ✗ and the turn as interrupted', async () => {
	const {box, args} = withExtension('deaf.mjs', "export default api => api.registerTool({name: 'deaf', description: 'Never stops.', parameters: {type: 'object'}, execute: () => new Promise(() => {})});\n");
	const {run} = await startChat(mock, {box, args});
	try {
		mock.enqueue({toolCalls: [{id: 'd1', name: 'deaf', arguments: '{}'}]});
		run.type('call it\r');
		await run.waitFor(screen => screen.includes('◐ deaf'), 'the running row');
		run.type(ESC);
		await run.waitFor(screen => screen.includes('✗ deaf'), 'the cancelled row');
		await run.waitFor(screen => screen.includes('interrupted; the session keeps its last complete step'), 'the interrupt notice');
		assert.ok(!run.screen().some(row => row.includes('◐')), run.screen().join('\n'));
	} finally {
		await run.close();
	}
});

test('a loop in an extension tool: the screen names the extension, and Ctrl-C then ends i', async () => {
	const {box, args} = withExtension('spin.mjs', "export default api => api.registerTool({name: 'spin', description: 'Spins.', parameters: {type: 'object'}, execute() { for (;;) {} }});\n");
	const {run} = await startChat(mock, {box, args});
	try {
		mock.enqueue({toolCalls: [{id: 's1', name: 'spin', arguments: '{}'}]});
		run.type('spin\r');
		await run.waitForOutput(output => output.includes('Ctrl-C ends i now'), 'the watchdog naming the extension');
		assert.match(run.output(), /i: extension spin has held i for/);
		// Focus reports are off while it holds: the shell after the Ctrl-C gets none of them as typed text.
		const output = run.output();
		assert.ok(output.lastIndexOf(FOCUS_REPORTING_OFF) > output.lastIndexOf(FOCUS_REPORTING_ON), 'focus reports are off');
		run.type(CTRL_C);
		const ended = await run.exit();
		assert.equal(ended.signal, 2, 'ended by SIGINT');
	} finally {
		await run.close();
	}
});

test('a hold that ends by itself gives the keys back: the screen says who held it and takes the next message', async () => {
	const {box, args} = withExtension(
		'busy.mjs',
		"let first = true; export default api => api.registerEventHandler('Context', () => { if (!first) return; first = false; const until = Date.now() + 3000; while (Date.now() < until) {} });\n",
	);
	const {run} = await startChat(mock, {box, args});
	try {
		mock.enqueue({text: 'After the wait.'});
		run.type('wait\r');
		await run.waitFor(screen => screen.includes('After the wait.'), 'the answer');
		await run.waitFor(screen => /extension busy let go after \d+(\.\d)? s; i goes on/.test(screen), 'the notice', {whole: true});
		mock.enqueue({text: 'Keys work.'});
		run.type('again\r');
		await run.waitFor(screen => screen.includes('Keys work.'), 'the next answer, typed after the hold');
	} finally {
		await run.close();
	}
});
