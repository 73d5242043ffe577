// The chat screen's sessions in a real pseudo-terminal against the mock
// provider: a conversation, quit, `i --continue` shows it and the next
// request carries it; /resume's picker filters and opens another session;
// /fork then a turn leaves the original file unchanged; /rename moves the
// file; --resume starts with the picker.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {MODEL, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sessionsFolder(box: Sandbox): string {
	const registry = JSON.parse(readFileSync(join(box.env.I_DATA_DIR!, 'workspaces.json'), 'utf8')) as {workspaces: Record<string, string>};
	return join(box.env.I_DATA_DIR!, 'workspaces', Object.values(registry.workspaces)[0]!, 'sessions');
}

function sessionFiles(box: Sandbox): string[] {
	return readdirSync(sessionsFolder(box))
		.filter(name => name.endsWith('.json') && !name.startsWith('.'))
		.sort();
}

function sentMessages(index: number): Array<[string, string]> {
	return mock.requests[index]!.body.messages.filter((message: any) => message.role !== 'system').map((message: any) => [message.role, message.content]);
}

/** Types `text` into the picker's filter until the screen shows it: keys typed before the field listens are not heard. */
async function typeFilter(run: TerminalRun, text: string, shown: (screen: string) => boolean): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		run.type(text);
		try {
			await run.waitFor(screen => screen.includes(`filter › ${text}`) && shown(screen), 'the filtered list', {timeoutMs: 3000});
			return;
		} catch (error) {
			if (attempt === 3 || !run.screen().some(row => row.includes('filter › type to filter'))) throw error;
		}
	}
}

/** `text` is on the screen and the turn is over (the status line offers /help again, not Esc). */
async function answered(run: TerminalRun, text: string): Promise<void> {
	await run.waitUntil(() => {
		const rows = run.screen();
		return rows.some(row => row.includes(text)) && rows.some(row => row.startsWith(`${MODEL} · `) && row.endsWith('/help'));
	}, `${text} and the turn's end`);
}

async function exitChat(run: TerminalRun): Promise<void> {
	run.type('/exit\r');
	const {exitCode} = await run.exit();
	assert.equal(exitCode, 0, run.output());
}

test('a conversation, quit, i --continue shows it and the next turn carries it', async () => {
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
	assert.deepEqual(sessionFiles(box), ['remember-the-word-banana.json']);

	const second = await startChat(mock, {box, args: ['--continue']});
	try {
		// The transcript of the resumed session is on the screen.
		await second.run.waitFor(screen => screen.includes('Remember the word banana') && screen.includes('noted: banana'), 'the resumed conversation');
		mock.enqueue({text: 'it was banana'});
		const from = mock.requests.length;
		second.run.type('Which word?\r');
		await answered(second.run, 'it was banana');
		assert.deepEqual(sentMessages(from), [
			['user', 'Remember the word banana'],
			['assistant', 'noted: banana'],
			['user', 'Which word?'],
		]);
		await exitChat(second.run);
	} finally {
		await second.run.close();
	}
	assert.deepEqual(sessionFiles(box), ['remember-the-word-banana.json'], 'continuing added no session');
});

test('/resume filters and opens another session; /fork then a turn leaves the original unchanged; /rename moves the file', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0});
	for (const [prompt, answer] of [
		['alpha topic', 'alpha answer'],
		['beta topic', 'beta answer'],
	] as const) {
		mock.enqueue({text: answer});
		const run = await runCli(['-p', prompt, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
	}

	const {run} = await startChat(mock, {box, rows: 40, cols: 160});
	try {
		run.type('/resume\r');
		await run.waitFor(screen => screen.includes('Resume a session (2)') && screen.includes('alpha-topic') && screen.includes('beta-topic'), 'the picker');
		// Newest first, with when, how many messages and the first words.
		const rows = run.screen();
		const beta = rows.findIndex(row => row.includes('beta-topic'));
		const alpha = rows.findIndex(row => row.includes('alpha-topic'));
		assert.ok(beta < alpha, rows.join('\n'));
		assert.match(rows[alpha]!, /alpha-topic +just now · 3 messages · alpha topic/);
		await typeFilter(run, 'alph', screen => !screen.includes('beta-topic'));
		run.type('\r');
		await run.waitFor(screen => screen.includes('resumed alpha-topic (3 messages)') && screen.includes('alpha answer'), 'the resumed session');

		const folder = sessionsFolder(box);
		const original = join(folder, 'alpha-topic.json');
		const before = readFileSync(original, 'utf8');
		run.type('/fork\r');
		await run.waitFor(screen => screen.includes('forked into alpha-topic-fork (3 messages); alpha-topic stays as it was'), 'the fork');
		assert.equal(run.screen().join('\n').split('alpha answer').length, 2, 'the fork does not show the conversation a second time');
		mock.enqueue({text: 'fork answer'});
		const from = mock.requests.length;
		run.type('only in the fork\r');
		await answered(run, 'fork answer');
		assert.deepEqual(sentMessages(from), [
			['user', 'alpha topic'],
			['assistant', 'alpha answer'],
			['user', 'only in the fork'],
		]);
		assert.equal(readFileSync(original, 'utf8'), before, 'the original file is unchanged');
		assert.ok(readFileSync(join(folder, 'alpha-topic-fork.json'), 'utf8').includes('only in the fork'));

		run.type('/rename beta-topic\r');
		await run.waitFor(screen => screen.includes('a session named beta-topic exists in this workspace'), 'the clash');
		run.type('/rename release-plan\r');
		await run.waitFor(screen => screen.includes('renamed alpha-topic-fork to release-plan'), 'the rename');
		assert.equal(existsSync(join(folder, 'alpha-topic-fork.json')), false);
		mock.enqueue({text: 'after the rename'});
		run.type('still here?\r');
		await answered(run, 'after the rename');
		assert.ok(readFileSync(join(folder, 'release-plan.json'), 'utf8').includes('still here?'));
		await exitChat(run);
	} finally {
		await run.close();
	}
	// The screen's own new session got no message: it left no file.
	assert.deepEqual(sessionFiles(box), ['alpha-topic.json', 'beta-topic.json', 'release-plan.json']);
});

test('--resume starts with the picker; Esc keeps the new session and says so', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0});
	mock.enqueue({text: 'gamma answer'});
	assert.equal((await runCli(['-p', 'gamma topic', '-C', box.workspace], {env: box.env})).code, 0);
	// Not `ready` first: the picker may open before the editor ever takes the keys, and it asks for no bracketed paste.
	const {run} = await startChat(mock, {box, args: ['--resume'], rows: 40, cols: 160, ready: false});
	try {
		await run.waitFor(screen => screen.includes('Resume a session (1)') && screen.includes('gamma-topic'), 'the picker at start');
		run.type('\u001B');
		await run.waitFor(screen => screen.includes('no session chosen: this is a new one'), 'the cancel');
		// The editor has the keys again once it has asked for bracketed paste.
		await run.ready();
		await exitChat(run);
	} finally {
		await run.close();
	}
	assert.deepEqual(sessionFiles(box), ['gamma-topic.json']);
});
