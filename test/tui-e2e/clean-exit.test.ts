// Leaving the chat screen (issue 45, point 2): /exit, Ctrl-C twice, Ctrl-D
// on an empty editor, SIGTERM and SIGHUP (also while a turn streams) erase
// the live region, so the shell's prompt comes on a clean line below the
// transcript with the cursor at its start; Ctrl-Z stops the process with the
// live region erased and the draft kept, and SIGCONT (fg) draws it again.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import type {TerminalRun} from '../helpers/pty.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const EDITOR = 'Ask i anything';
/** The status line: the session's short ID, then the /help hint at the right. */
const STATUS = /· session [0-9a-f]{8} .*\/help$/;

/** After the exit: no editor, no status line, the cursor at the start of an empty row below everything written. */
async function assertCleanEnd(run: TerminalRun, what: string): Promise<void> {
	await run.settled();
	const screen = run.screen();
	assert.ok(!screen.some(row => row.includes(EDITOR) || STATUS.test(row)), `${what}: the live region is gone:\n${screen.join('\n')}`);
	const cursor = run.cursor();
	assert.equal(cursor.x, 0, `${what}: the cursor starts its line`);
	assert.ok(
		screen.slice(cursor.y).every(row => row === ''),
		`${what}: nothing at or below the cursor:\n${screen.join('\n')}`,
	);
	assert.match(run.output(), /\u001B\[\?25h/, `${what}: the cursor is shown again`);
	assert.match(run.output(), /\u001B\[\?2004l/, `${what}: bracketed paste is off again`);
}

for (const [name, keys] of [
	['/exit', ['/exit\r']],
	['Ctrl-C twice', ['\u0003', '\u0003']],
	['Ctrl-D on the empty editor', ['\u0004']],
] as const) {
	test(`${name} leaves with code 0 and a clean line for the shell`, async () => {
		const {run} = await startChat(mock);
		try {
			mock.enqueue({text: 'An answer to keep.'});
			run.type('hello\r');
			await run.waitFor(screen => screen.includes('An answer to keep.') && screen.includes(EDITOR), 'the answer and the idle editor');
			for (const key of keys) {
				run.type(key);
				await new Promise(resolve => setTimeout(resolve, 50));
			}

			assert.equal((await run.exit()).exitCode, 0);
			assert.ok(
				run.screen().some(row => row.includes('An answer to keep.')),
				'the transcript stays',
			);
			await assertCleanEnd(run, name);
		} finally {
			await run.close();
		}
	});
}

for (const [signal, code] of [
	['SIGTERM', 143],
	['SIGHUP', 129],
] as const) {
	test(`${signal} while an answer streams saves and leaves a clean line (exit ${code})`, async () => {
		const {run} = await startChat(mock);
		try {
			mock.enqueue({text: 'Streaming part one. Streaming part two. Streaming part three.', hangAfterEvents: 3});
			run.type('tell me a story\r');
			await run.waitFor(screen => screen.includes('Streaming part one.'), 'the first text');
			process.kill(run.pid, signal);
			assert.equal((await run.exit()).exitCode, code);
			await assertCleanEnd(run, signal);
		} finally {
			await run.close();
		}
	});
}

/** The process state letter of /proc/PID/stat: T when stopped. */
function state(pid: number): string {
	return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0]!;
}

test('Ctrl-Z stops the process with the live region erased; SIGCONT draws it again with the draft kept', async () => {
	const {run} = await startChat(mock);
	try {
		run.type('half a thought');
		await run.waitFor(screen => screen.includes('› half a thought'), 'the draft');
		run.type('\u001A');
		await run.waitUntil(() => state(run.pid) === 'T', 'the process stopped');
		await run.settled();
		assert.ok(!run.screen().some(row => row.includes('half a thought') || STATUS.test(row)), run.screen().join('\n'));
		assert.equal(run.cursor().x, 0);
		process.kill(run.pid, 'SIGCONT');
		await run.waitFor(screen => screen.includes('› half a thought') && screen.split('\n').some(row => STATUS.test(row)), 'the editor and the status line again');
		mock.enqueue({text: 'Still here.'});
		run.type(' done\r');
		await run.waitFor(screen => screen.includes('Still here.'), 'the answer after the resume');
		assert.equal(mock.requests.at(-1)!.body.messages.at(-1).content, 'half a thought done');
	} finally {
		await run.close();
	}
});
