// /clear and the terminal title in a real pseudo-terminal (issue 45,
// point 7): after /clear the screen holds nothing of the old session and
// the status line's counters start again, without erasing the scrollback
// (no ESC[3J); the title names the session and says when `i` works, is
// restored on exit, and a session name's control characters never reach it.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {MODEL, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const OSC_TITLE = /\u001B\]0;([^\u001B]*)\u001B\\/g;

/** Every title the program set, in order. */
function titles(output: string): string[] {
	return [...output.matchAll(OSC_TITLE)].map(match => match[1]!);
}

async function answered(run: TerminalRun, text: string): Promise<void> {
	await run.waitUntil(() => {
		const rows = run.screen();
		return rows.some(row => row.includes(text)) && rows.some(row => row.startsWith(`${MODEL} · `) && row.endsWith('/help'));
	}, `${text} and the turn's end`);
}

test('/clear leaves no old transcript and zeroed counters; the title follows the session and working, and is restored on exit', async () => {
	mock.enqueue({text: 'the login answer', usage: {input: 1234, output: 56}});
	const {run} = await startChat(mock, {config: {budget: {window: 100_000}}});
	try {
		run.type('fix the login\r');
		await answered(run, 'the login answer');
		const status = () => run.screen().find(row => row.startsWith(`${MODEL} · `)) ?? '';
		assert.match(status(), /↑1234 ↓56/);
		const before = titles(run.output());
		assert.ok(before.includes('i'), before.join(' | '));
		assert.ok(
			before.some(title => title.endsWith(' · working')),
			before.join(' | '),
		);
		assert.equal(before.at(-1), 'i · fix-the-login');

		const from = run.output().length;
		run.type('/clear\r');
		await run.waitFor(screen => screen.includes('it is named after its first message'), 'the new session');
		const screen = run.screen().join('\n');
		for (const gone of ['fix the login', 'the login answer', '↑', 'ctx', 'cache']) assert.ok(!screen.includes(gone), `${gone} in\n${screen}`);
		const cleared = run.output().slice(from);
		assert.ok(cleared.includes('\u001B[2J'), 'the visible screen is cleared');
		assert.ok(!cleared.includes('\u001B[3J'), 'the scrollback is kept');
		// A new session has no name yet.
		assert.equal(titles(cleared).at(-1), 'i');

		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
		// The terminal's own title back: popped from its stack, after an empty one for terminals without a stack.
		assert.ok(run.output().includes('\u001B]0;\u001B\\\u001B[23;0t'), 'the title is restored');
		assert.ok(run.output().includes('\u001B[22;0t'), 'the title was saved first');
	} finally {
		await run.close();
	}
});

test('a session name with control characters gives a title without them', async () => {
	const box = makeSandbox();
	const session = join(box.root, 'evil\u001B]0;pwned\u0007\u009B2Jname.json');
	mock.enqueue({text: 'ok'});
	const {run} = await startChat(mock, {box, args: ['--session', session]});
	try {
		run.type('hello\r');
		await answered(run, 'ok');
		const all = titles(run.output());
		assert.deepEqual([...new Set(all)], ['i · evil]0;pwned2Jname', 'i · evil]0;pwned2Jname · working'], all.join(' | '));
		assert.ok(!run.output().includes('\u001B]0;pwned'), 'no title the name could set');
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
	} finally {
		await run.close();
	}
});
