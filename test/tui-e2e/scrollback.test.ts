import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {binPath, makeSandbox} from '../helpers/cli.js';
import {spawnInTerminal, type TerminalRun} from '../helpers/pty.js';
import {MODEL} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const LINES = 3000;

function answer(tag: string): string[] {
	return Array.from({length: LINES}, (_, index) => `${tag} line ${String(index + 1).padStart(4, '0')} of the long answer`);
}

/** Each expected line appears exactly once in the whole buffer, in order, and nothing else looks like one of them. */
function assertOnceInOrder(run: TerminalRun, tag: string, expected: string[]): void {
	const found = run.lines().filter(line => line.includes(`${tag} line `));
	const seen = new Map<string, number>();
	for (const line of found) seen.set(line, (seen.get(line) ?? 0) + 1);
	const duplicated = [...seen].filter(([, count]) => count > 1).map(([line, count]) => `${count}× ${line}`);
	assert.deepEqual(duplicated, [], `duplicated ${tag} lines`);
	assert.equal(found.length, expected.length, `${tag}: ${found.length} lines in the buffer, ${expected.length} sent`);
	assert.deepEqual(found, expected, `${tag} lines in order and whole`);
}

function assertOnce(run: TerminalRun, line: string): void {
	assert.equal(run.lines().filter(row => row === line).length, 1, `${JSON.stringify(line)} once in the buffer`);
}

const idle = async (run: TerminalRun, what: string) => run.waitFor(screen => screen.split('\n').some(row => row.endsWith('/help')), `the idle status line ${what}`);

/** Lines a shell printed before `i` started, in the same terminal. */
const BEFORE = Array.from({length: 40}, (_, index) => `before i started, line ${index + 1}`);

/** `i` started by a shell that first printed BEFORE, as a person starts it after other commands. */
async function startAfterShellOutput(cols: number, rows: number): Promise<TerminalRun> {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0});
	const script = 'i=1; while [ $i -le 40 ]; do echo "before i started, line $i"; i=$((i+1)); done; exec "$@"';
	const run = spawnInTerminal('/bin/sh', ['-c', script, 'sh', process.execPath, binPath, '-C', box.workspace], {env: box.env, cwd: box.workspace, cols, rows});
	await run.ready();
	return run;
}

/**
 * `i` erased its live area for this resize (ScreenStream's erase ends with ED0). The next resize waits for it, as a
 * person's next drag comes after the screen answered: a frame already on its way when the terminal resizes was
 * drawn for the old size, and a burst of resizes with no answer between them widens that window without bound.
 */
async function handled(run: TerminalRun, since: number, cols: number, rows: number): Promise<void> {
	await run.waitForOutput(output => output.includes('\r\u001B[J', since), `the live area erased for ${cols}×${rows}`);
}

/** Only the reflowed live area is erased on a resize: no clearing of the screen or the scrollback, nothing written again. */
function assertNoClear(run: TerminalRun, since: number): void {
	const written = run.output().slice(since);
	assert.ok(!written.includes('\u001B[3J') && !written.includes('\u001B[2J'), 'a resize clears neither the scrollback nor the screen');
}

test('resizes keep what the terminal held before i started and write no line twice, idle and while a 3000-line answer streams', async () => {
	const run = await startAfterShellOutput(100, 30);
	try {
		const first = answer('alpha');
		mock.enqueue({text: first.join('\n')});
		run.type('write a long answer\r');
		await run.waitFor(text => text.includes(first.at(-1)!), 'the last line', {whole: true});
		await idle(run, 'after the first answer');
		assertOnceInOrder(run, 'alpha', first);
		assertOnce(run, '› write a long answer');

		// Idle resizes, narrower and wider: the terminal reflows the transcript; the live area is erased as reflowed and drawn again.
		for (const [cols, rows] of [
			[80, 24],
			[120, 40],
			[60, 20],
			[100, 30],
		] as const) {
			const since = run.output().length;
			run.resize(cols, rows);
			await handled(run, since, cols, rows);
			await run.waitFor(text => text.split('\n').some(row => row.endsWith('/help') && row.length === cols), `the status line drawn again at ${cols}×${rows}`);
			assertNoClear(run, since);
			assert.ok(run.screen().every(row => row.length <= cols));
		}

		assertOnceInOrder(run, 'alpha', first);
		assertOnce(run, '› write a long answer');
		assert.deepEqual(
			run.lines().filter(line => line.startsWith('before i started')),
			BEFORE,
			'the shell output from before i started, whole and once',
		);

		// Resizes in the middle of a stream (about 3 s of it).
		const second = answer('beta');
		mock.enqueue({text: second.join('\n'), chunkDelayMs: 1});
		run.type('and another\r');
		await run.waitFor(text => text.includes('beta line 0300'), 'the stream under way', {whole: true});
		for (const [cols, rows] of [
			[90, 25],
			[110, 35],
			[70, 24],
			[100, 30],
		] as const) {
			const since = run.output().length;
			run.resize(cols, rows);
			await handled(run, since, cols, rows);
			await run.waitFor(text => text.split('\n').some(row => row.includes('beta line ') && row.length <= cols), `the stream going on at ${cols}×${rows}`);
			assertNoClear(run, since);
		}

		await run.waitFor(text => text.includes(second.at(-1)!), 'the last line of the second answer', {whole: true, timeoutMs: 30_000});
		await idle(run, 'after the second answer');
		assertOnceInOrder(run, 'alpha', first);
		assertOnceInOrder(run, 'beta', second);
		assertOnce(run, '› write a long answer');
		assertOnce(run, '› and another');
		assert.deepEqual(
			run.lines().filter(line => line.startsWith('before i started')),
			BEFORE,
		);
	} finally {
		await run.close();
	}
});
