import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import type {TerminalRun} from '../helpers/pty.js';
import {startChat} from './chat.js';

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

test('a 3000-line answer lands in the scrollback once, in order; resizing idle and while streaming duplicates nothing', async () => {
	const {run} = await startChat(mock, {cols: 100, rows: 30});
	try {
		const first = answer('alpha');
		mock.enqueue({text: first.join('\n')});
		run.type('write a long answer\r');
		await run.waitFor(text => text.includes(first.at(-1)!), 'the last line', {whole: true});
		await idle(run, 'after the first answer');
		assertOnceInOrder(run, 'alpha', first);
		assertOnce(run, '› write a long answer');

		// Idle resizes, narrower and wider: the live area is redrawn; the scrollback is not written again.
		// Each settled resize clears the screen and the scrollback (ED3) and writes the transcript again at the new width.
		for (const [cols, rows] of [
			[80, 24],
			[120, 40],
			[60, 20],
			[100, 30],
		] as const) {
			const since = run.output().length;
			run.resize(cols, rows);
			await run.waitForOutput(output => output.includes('\u001B[3J', since), `the repaint at ${cols}×${rows}`);
			await idle(run, `at ${cols}×${rows}`);
			await run.waitFor(text => text.includes(first.at(-1)!), `the transcript written again at ${cols}×${rows}`, {whole: true});
			assert.ok(run.screen().every(row => row.length <= cols));
		}

		assertOnceInOrder(run, 'alpha', first);
		assertOnce(run, '› write a long answer');

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
			await run.waitForOutput(output => output.includes('\u001B[3J', since), `the repaint at ${cols}×${rows}`);
			await run.waitFor(text => text.split('\n').some(row => row.includes('beta line ') && row.length <= cols), `the stream going on at ${cols}×${rows}`);
		}

		await run.waitFor(text => text.includes(second.at(-1)!), 'the last line of the second answer', {whole: true, timeoutMs: 30_000});
		await idle(run, 'after the second answer');
		assertOnceInOrder(run, 'alpha', first);
		assertOnceInOrder(run, 'beta', second);
		assertOnce(run, '› write a long answer');
		assertOnce(run, '› and another');
	} finally {
		await run.close();
	}
});
