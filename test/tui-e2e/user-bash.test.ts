// `!` commands and @-mentions in the chat screen, in a real pseudo-terminal
// against the mock provider (issue 17 items 4 and 5).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {sessionSteps, startChat, textOf} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const ESC = '\u001B';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/** The whole buffer with every run of white space as one space: a line Ink wrapped reads as one. */
const text = (run: TerminalRun) => run.lines().join(' ').replaceAll(/\s+/g, ' ');
const idle = async (run: TerminalRun) => run.waitFor(screen => screen.split('\n').some(row => row.endsWith('/help')), 'the idle status line');

function userExtensions(sources: Record<string, string>): {root: string; env: NodeJS.ProcessEnv} {
	const box = makeSandbox();
	const dir = join(box.root, 'user-extensions');
	mkdirSync(dir);
	for (const [name, source] of Object.entries(sources)) writeFileSync(join(dir, `${name}.mjs`), source);
	return {root: dir, env: {I_EXTENSIONS_DIR: dir}};
}

test('!ls shows its output; the next request carries the command and its output; !! adds nothing; a resumed session shows the command again', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.workspace, 'alpha.txt'), 'a');
	writeFileSync(join(box.workspace, 'beta.txt'), 'b');
	const {run} = await startChat(mock, {box, args: ['--session', 'chat.json']});
	try {
		const sent = mock.requests.length;
		run.type('!ls *.txt\r');
		await run.waitFor(screen => screen.includes('exit code 0 · added to the context of your next message'), 'the command ended');
		assert.match(text(run), /! ls \*\.txt alpha\.txt beta\.txt exit code 0/);
		run.type('!!echo not-for-the-model\r');
		await run.waitFor(screen => screen.includes('not added to the context'), 'the !! command ended');
		assert.match(text(run), /! echo not-for-the-model not-for-the-model exit code 0 · not added to the context/);
		assert.equal(mock.requests.length, sent, 'no model turn was started');

		mock.enqueue({text: 'I see two text files.'});
		run.type('what do you see?\r');
		await run.waitFor(screen => screen.includes('I see two text files.'), 'the answer');
		const messages = mock.requests[sent]!.body.messages as Array<{role: string; content: unknown}>;
		const users = messages.filter(message => message.role === 'user').map(message => textOf(message.content));
		assert.equal(users.length, 2, JSON.stringify(users));
		assert.match(users[0]!, /^I ran a shell command in the workspace myself[^\n]*\n\$ ls \*\.txt\n```\nalpha\.txt\nbeta\.txt\n```\nexit code 0$/);
		assert.equal(users[1], 'what do you see?');
		assert.ok(!JSON.stringify(messages).includes('not-for-the-model'), '!! stays out of the context');
		assert.ok(!JSON.stringify(messages).includes('_user_bash'), 'the local record never goes out');
		await idle(run);
	} finally {
		await run.close();
	}

	// The metadata stays local: saved in the session, never sent.
	const saved = sessionSteps(join(box.workspace, 'chat.json')).flat() as Array<{role: string; _user_bash?: {command: string}}>;
	assert.equal(saved.find(message => message._user_bash)?._user_bash?.command, 'ls *.txt');
	const again = await startChat(mock, {box, args: ['--session', 'chat.json']});
	try {
		await again.run.waitFor(screen => screen.includes('! ls *.txt'), 'the command shown again');
		assert.match(text(again.run), /! ls \*\.txt alpha\.txt beta\.txt exit code 0/);
	} finally {
		await again.run.close();
	}
});

test('Esc cancels a long !sleep 100 at once; the cancel is what the context gets', async () => {
	const box = makeSandbox();
	const {run} = await startChat(mock, {box, args: ['--session', 'chat.json']});
	try {
		run.type('!echo started; sleep 100\r');
		// Its own output row, not the typed command: the shell has started.
		await run.waitFor(screen => screen.split('\n').some(row => row.trim() === 'started') && screen.includes('running — Esc to stop'), 'the command runs, its output live');
		const stopped = Date.now();
		run.type(ESC);
		await run.waitFor(screen => screen.includes('cancelled; the command and everything it started were stopped'), 'the cancel');
		// SIGTERM ends sleep at once; the 2 s grace before SIGKILL is the most it could take.
		assert.ok(Date.now() - stopped < 10_000);
		await idle(run);
		const saved = sessionSteps(join(box.workspace, 'chat.json')).flat();
		assert.match(textOf(saved.at(-1)!.content), /\$ echo started; sleep 100\n```\nstarted\n```\ncancelled/);
	} finally {
		await run.close();
	}
});

test('a UserBash handler may answer instead of the shell; a failing one keeps the command as it was', async () => {
	const {env} = userExtensions({
		fake: `export default api => api.registerEventHandler('UserBash', event => event.command === 'deploy' ? {result: {output: 'pretended to deploy from ' + event.cwd, exitCode: 3}} : undefined);`,
		broken: `export default api => api.registerEventHandler('UserBash', () => { throw new Error('handler boom'); });`,
	});
	const box = makeSandbox();
	const {run} = await startChat(mock, {box, env, args: ['--session', 'chat.json']});
	try {
		run.type('!deploy\r');
		await run.waitFor(screen => screen.includes('answered by extension fake (exit code 3)'), 'the extension answered');
		assert.match(text(run), new RegExp(`pretended to deploy from ${box.workspace}`));
		assert.match(text(run), /extension broken: UserBash handler failed: handler boom; the value is kept/);
		run.type('!echo real run\r');
		await run.waitFor(screen => screen.includes('real run') && screen.split('\n').filter(row => row.includes('exit code 0')).length > 0, 'the shell ran it');
		await idle(run);
		const saved = sessionSteps(join(box.workspace, 'chat.json')).flat();
		const bash = saved.filter(message => (message as {_user_bash?: unknown})._user_bash !== undefined).map(message => textOf(message.content));
		assert.equal(bash.length, 2);
		assert.match(bash[0]!, /\$ deploy\n```\npretended to deploy from .*\n```\nanswered by extension fake \(exit code 3\)$/);
		assert.match(bash[1]!, /\$ echo real run\n```\nreal run\n```\nexit code 0$/);
	} finally {
		await run.close();
	}
});

test('@image.png picked and sent reaches the request as an image part; the transcript says what was attached', async () => {
	const box = makeSandbox();
	mkdirSync(join(box.workspace, 'shots'));
	writeFileSync(join(box.workspace, 'shots', 'image.png'), PNG);
	writeFileSync(join(box.workspace, 'notes.txt'), 'remember the milk\n');
	const {run} = await startChat(mock, {box, args: ['--session', 'chat.json']});
	try {
		run.type('compare @imag');
		await run.waitFor(screen => screen.includes('› shots/image.png'), 'the picker offers the image');
		run.type('\t');
		await run.waitFor(screen => screen.includes('› compare @shots/image.png') && !screen.includes('Tab or Enter chooses'), 'the path in the editor, the picker closed');
		run.type('with @notes.txt\r');
		const sent = mock.requests.length;
		mock.enqueue({text: 'Compared.'});
		await run.waitFor(screen => screen.includes('Compared.'), 'the answer');
		assert.match(text(run), /attached 2 files: shots\/image\.png \(image, 16 bytes\), notes\.txt \(18 bytes\)/);
		const body = mock.requests[sent]!.body;
		const user = [...body.messages].reverse().find((message: any) => message.role === 'user');
		assert.deepEqual(user.content, [
			{type: 'text', text: 'compare @shots/image.png with @notes.txt'},
			{type: 'text', text: `==> shots/image.png <== (image/png, ${PNG.length} bytes)`},
			{type: 'image_url', image_url: {url: `data:image/png;base64,${PNG.toString('base64')}`}},
			{type: 'text', text: '==> notes.txt <==\nremember the milk\n'},
		]);
		await idle(run);
	} finally {
		await run.close();
	}

	const again = await startChat(mock, {box, args: ['--session', 'chat.json']});
	try {
		await again.run.waitFor(screen => screen.includes('attached 2 files'), 'the attachments shown again');
		assert.match(text(again.run), /› compare @shots\/image\.png with @notes\.txt attached 2 files: shots\/image\.png \(image, 16 bytes\), notes\.txt \(18 bytes\)/);
	} finally {
		await again.run.close();
	}
});
