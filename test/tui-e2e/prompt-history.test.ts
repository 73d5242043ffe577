// Prompt history that lasts (issue 45, point 5), in a real pseudo-terminal
// against the mock provider: a prompt typed in one run comes back with ↑ in
// the next run in the same workspace (and in `i -c`), and Ctrl-R finds it.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, type Sandbox} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {MODEL, lastUserText, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const UP = '\u001B[A';
const CTRL_R = '\u0012';
const CTRL_U = '\u0015';

function historyFile(box: Sandbox): string {
	const registry = JSON.parse(readFileSync(join(box.env.I_DATA_DIR!, 'workspaces.json'), 'utf8')) as {workspaces: Record<string, string>};
	return join(box.env.I_DATA_DIR!, 'workspaces', Object.values(registry.workspaces)[0]!, 'prompt-history.jsonl');
}

/** `text` is on the screen and the turn is over (the status line offers /help again, not Esc). */
async function answered(run: TerminalRun, text: string): Promise<void> {
	await run.waitUntil(() => {
		const rows = run.screen();
		return rows.some(row => row.includes(text)) && !rows.some(row => row.includes('working — Esc to stop')) && rows.some(row => row.startsWith(`${MODEL} · `) && row.endsWith('/help'));
	}, `${text} and the turn's end`);
}

async function exitChat(run: TerminalRun): Promise<void> {
	run.type('/exit\r');
	const {exitCode} = await run.exit();
	assert.equal(exitCode, 0, run.output());
}

/** The editor's row shows `text` (the prompt row is the last one starting with the prompt mark). */
async function editorShows(run: TerminalRun, text: string): Promise<void> {
	await run.waitUntil(() => run.screen().findLast(row => row.startsWith('› ')) === `› ${text}`, `the editor showing ${JSON.stringify(text)}`);
}

test('a prompt from one run comes back with ↑ in the next run and in i -c, and Ctrl-R finds it', async () => {
	const box = makeSandbox();
	mock.enqueue({text: 'noted: banana'});
	const first = await startChat(mock, {box});
	try {
		first.run.type('Remember the word banana\r');
		await answered(first.run, 'noted: banana');
		await exitChat(first.run);
	} finally {
		await first.run.close();
	}

	const file = historyFile(box);
	assert.equal(statSync(file).mode & 0o777, 0o600);
	assert.equal(statSync(join(file, '..')).mode & 0o777, 0o700);
	assert.deepEqual(
		readFileSync(file, 'utf8')
			.trimEnd()
			.split('\n')
			.map(line => JSON.parse(line).text),
		['Remember the word banana', '/exit'],
		'slash commands are kept, as a shell keeps its commands',
	);

	const second = await startChat(mock, {box});
	try {
		second.run.type(UP);
		await editorShows(second.run, '/exit');
		second.run.type(UP);
		await editorShows(second.run, 'Remember the word banana');

		// Ctrl-R from an empty editor: typing narrows to the prompt, Enter takes it, Enter sends it.
		second.run.type(CTRL_U);
		await editorShows(second.run, 'Ask i anything; /help for keys and commands');
		second.run.type(CTRL_R);
		await second.run.waitFor(screen => screen.includes('search prompts:'), 'the search line');
		second.run.type('banana');
		await second.run.waitFor(screen => screen.includes('search prompts: banana'), 'the query on the search line');
		await editorShows(second.run, 'Remember the word banana');
		second.run.type('\r');
		await second.run.waitFor(screen => !screen.includes('search prompts:'), 'the search line gone');
		await editorShows(second.run, 'Remember the word banana');
		const sent = mock.requests.length;
		mock.enqueue({text: 'it was banana'});
		second.run.type('\r');
		await answered(second.run, 'it was banana');
		assert.equal(lastUserText(mock.requests[sent]!.body), 'Remember the word banana');
		await exitChat(second.run);
	} finally {
		await second.run.close();
	}

	const third = await startChat(mock, {box, args: ['--continue']});
	try {
		third.run.type(UP);
		await editorShows(third.run, '/exit');
		third.run.type(UP);
		await editorShows(third.run, 'Remember the word banana');
		third.run.type(CTRL_U);
		await editorShows(third.run, 'Ask i anything; /help for keys and commands');
		await exitChat(third.run);
	} finally {
		await third.run.close();
	}
});
