// Ctrl-R in the input editor: a reverse incremental search of the history,
// as in a shell, and the earlier runs' prompts arriving after the editor.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import type {InputEditorProps} from '../../components/InputEditor.js';

delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
const {render} = await import('ink-testing-library');
const {InputEditor} = await import('../../components/InputEditor.js');

const CTRL_R = '\u0012';
const CTRL_G = '\u0007';
const UP = '\u001B[A';
const DOWN = '\u001B[B';
const HINT = '  Ctrl-R older · Enter take · Esc cancel';

async function frameIs(lastFrame: () => string | undefined, expected: string, message?: string): Promise<void> {
	for (let waited = 0; lastFrame() !== expected && waited < 5000; waited += 10) await delay(10);
	assert.equal(lastFrame(), expected, message);
}

const HISTORY = ['npm test', 'fix the login bug', '/help', 'run npm test again', '写一个测试'];

async function editor(overrides: Partial<InputEditorProps> = {}) {
	const submitted: string[] = [];
	const props = {width: 80, isActive: true, history: HISTORY, onSubmit: (text: string) => void submitted.push(text), ...overrides};
	const view = render(<InputEditor {...props} />);
	for (let waited = 0; view.stdin.listenerCount('readable') === 0; waited += 5) {
		if (waited > 5000) throw new Error('the editor never listened to stdin');
		await delay(5);
	}

	const type = async (...inputs: string[]) => {
		for (const input of inputs) {
			view.stdin.write(input);
			await delay(5);
		}
	};

	return {...view, submitted, type, props};
}

test('Ctrl-R opens the search line; typing narrows to the newest match; Ctrl-R again goes older; Enter takes it into the editor', async () => {
	const {type, lastFrame, submitted} = await editor();
	await type('draft', CTRL_R);
	await frameIs(lastFrame, `› draft\nsearch prompts: ${HINT}`, 'the draft stays shown until something matches');
	await type('npm');
	await frameIs(lastFrame, `› run npm test again\nsearch prompts: npm${HINT}`);
	await type(CTRL_R);
	await frameIs(lastFrame, `› npm test\nsearch prompts: npm${HINT}`);
	await type('\r');
	await frameIs(lastFrame, '› npm test', 'Enter takes the match, the search line goes');
	assert.deepEqual(submitted, [], 'taking a match does not send it');
	await type(' --watch\r');
	assert.deepEqual(submitted, ['npm test --watch']);
});

test('a query nothing older holds says so and keeps the last match; Backspace searches again from the newest', async () => {
	const {type, lastFrame} = await editor();
	await type(CTRL_R, 'LOGIN');
	await frameIs(lastFrame, `› fix the login bug\nsearch prompts: LOGIN${HINT}`, 'case is ignored');
	await type('x');
	await frameIs(lastFrame, `› fix the login bug\nno older prompt holds: LOGINx${HINT}`);
	await type('\u007F');
	await frameIs(lastFrame, `› fix the login bug\nsearch prompts: LOGIN${HINT}`);
	await type(CTRL_R);
	await frameIs(lastFrame, `› fix the login bug\nno older prompt holds: LOGIN${HINT}`, 'no older one');
});

test('Esc and Ctrl-G leave the search with the draft as it was; Ctrl-R with an empty query walks every entry', async () => {
	const calls: string[] = [];
	const {type, lastFrame, submitted} = await editor({onInterrupt: () => calls.push('esc')});
	await type('my draft', CTRL_R, '测试');
	await frameIs(lastFrame, `› 写一个测试\nsearch prompts: 测试${HINT}`);
	await type('\u001B');
	await delay(30); // a lone Esc reaches the editor after Ink's parser waits for more of a sequence
	await frameIs(lastFrame, '› my draft');
	assert.deepEqual(calls, [], 'Esc closed the search and did not interrupt');
	await type(CTRL_R, CTRL_R, CTRL_R);
	await frameIs(lastFrame, `› run npm test again\nsearch prompts: ${HINT}`);
	await type(CTRL_G);
	await frameIs(lastFrame, '› my draft');
	assert.deepEqual(submitted, []);
});

test('a key that moves takes the match and then moves; ↓ from a taken entry walks on to the draft', async () => {
	const {type, lastFrame} = await editor();
	await type('draft', CTRL_R, 'help', UP);
	await frameIs(lastFrame, '› fix the login bug', '↑ took /help and went one older');
	await type(DOWN, DOWN, DOWN, DOWN);
	await frameIs(lastFrame, '› draft');
});

test('the earlier runs’ prompts arriving later go before the ones sent since', async () => {
	const {type, lastFrame, submitted, rerender, props} = await editor({history: []});
	await type('typed before the load\r');
	assert.deepEqual(submitted, ['typed before the load']);
	rerender(<InputEditor {...props} history={['from an earlier run', 'typed before the load']} />);
	await type('now', UP);
	await frameIs(lastFrame, '› typed before the load');
	await type(UP);
	await frameIs(lastFrame, '› from an earlier run', 'the repeat at the join is kept once');
	await type(UP);
	await frameIs(lastFrame, '› from an earlier run');
	await type(DOWN, DOWN);
	await frameIs(lastFrame, '› now');
	await type(CTRL_R, 'earlier', '\r');
	await frameIs(lastFrame, '› from an earlier run');
});
