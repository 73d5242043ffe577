import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandbox() {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	return box;
}

/** `<data_dir>/workspaces/<id>/sessions` of the sandbox's one workspace. */
function sessionsFolder(box: Sandbox): string {
	const registry = JSON.parse(readFileSync(join(box.env.I_DATA_DIR!, 'workspaces.json'), 'utf8')) as {workspaces: Record<string, string>};
	const ids = Object.values(registry.workspaces);
	assert.equal(ids.length, 1);
	return join(box.env.I_DATA_DIR!, 'workspaces', ids[0]!, 'sessions');
}

function sessionFiles(folder: string): string[] {
	return readdirSync(folder)
		.filter(name => name.endsWith('.json') && !name.startsWith('.'))
		.sort();
}

function sent(index: number): Array<[string, unknown]> {
	return mock.requests[index]!.body.messages.slice(1).map((message: any) => [message.role, message.content]);
}

test('a new session is named after its first message in the workspace folder, and -p -c continues the latest', async () => {
	const box = sandbox();
	mock.enqueue({text: 'first answer'});
	const one = await runCli(['-p', 'Fix the login bug, please!', '-C', box.workspace], {env: box.env});
	assert.equal(one.code, 0, one.stderr);
	const folder = sessionsFolder(box);
	assert.deepEqual(sessionFiles(folder), ['fix-the-login-bug-please.json']);
	// No provisional file, lock or temporary is left beside it.
	assert.deepEqual(
		readdirSync(folder).filter(name => name.startsWith('.new-') || name.endsWith('.lock')),
		[],
	);
	const index = JSON.parse(readFileSync(join(folder, '.index.json'), 'utf8'));
	assert.equal(index.sessions['fix-the-login-bug-please'].messages, 3);
	assert.equal(index.sessions['fix-the-login-bug-please'].title, 'Fix the login bug, please!');

	mock.enqueue({text: 'other answer'});
	assert.equal((await runCli(['-p', 'fix the login bug please', '-C', box.workspace], {env: box.env})).code, 0);
	assert.deepEqual(sessionFiles(folder), ['fix-the-login-bug-please-2.json', 'fix-the-login-bug-please.json'], 'a clash gets a suffix');

	mock.enqueue({text: 'continued'});
	const before = mock.requests.length;
	const three = await runCli(['-p', '-c', '--json', 'and now?', '-C', box.workspace], {env: box.env});
	assert.equal(three.code, 0, three.stderr);
	assert.deepEqual(sent(before), [
		['user', 'fix the login bug please'],
		['assistant', 'other answer'],
		['user', 'and now?'],
	]);
	const opened = jsonEvents(three.stdout)[0]!;
	assert.equal(opened.path, join(folder, 'fix-the-login-bug-please-2.json'));
	assert.equal(opened.resumed_messages, 3);
	assert.deepEqual(sessionFiles(folder), ['fix-the-login-bug-please-2.json', 'fix-the-login-bug-please.json'], 'continuing names nothing new');
});

test('-c with no saved session says so and starts a new one', async () => {
	const box = sandbox();
	mock.enqueue({text: 'fresh'});
	const before = mock.requests.length;
	const run = await runCli(['-p', '--continue', 'hello there', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'fresh\n');
	assert.match(run.stderr, /no saved session in this workspace .* to continue: a new one starts/);
	assert.deepEqual(sent(before), [['user', 'hello there']]);
	assert.deepEqual(sessionFiles(sessionsFolder(box)), ['hello-there.json']);
});

test('-c, --resume, --session and --session-name together are usage errors (exit 2)', async () => {
	const box = sandbox();
	for (const flags of [
		['-c', '--session', join(box.root, 'x.json')],
		['-c', '--session-name', 'work'],
		['-c', '--resume'],
		['--resume', '--session-name', 'work'],
	]) {
		const run = await runCli(['-p', 'hi', ...flags, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 2, flags.join(' '));
		assert.match(run.stderr, /each choose the session to open; pass one of them/);
	}
	const resume = await runCli(['-p', 'hi', '--resume', '-C', box.workspace], {env: box.env});
	assert.equal(resume.code, 2);
	assert.match(resume.stderr, /--resume opens a picker in the chat screen/);
	// Without a terminal (line mode), --resume has no picker either.
	const lines = await runCli(['--resume', '-C', box.workspace], {env: box.env, input: ''});
	assert.equal(lines.code, 2);
	assert.match(lines.stderr, /needs a terminal/);
	assert.equal(existsSync(join(box.env.I_DATA_DIR!, 'workspaces')), false, 'no session was opened');
});

test('--session FILE of the previous layout (<data_dir>/sessions/) loads, and -c does not look there', async () => {
	const box = sandbox();
	const old = join(box.env.I_DATA_DIR!, 'sessions', '2025-01-01T10-00-00-000Z-abcd1234.json');
	mkdirSync(join(box.env.I_DATA_DIR!, 'sessions'), {recursive: true});
	const header = {type: 'i-session', version: 1, id: randomUUID(), workspace: box.workspace, created: '2025-01-01T10:00:00.000Z'};
	const step = {
		type: 'step',
		n: 1,
		messages: [
			{role: 'system', content: 'you help'},
			{role: 'user', content: 'old question'},
			{role: 'assistant', content: 'old answer'},
		],
	};
	writeFileSync(old, `${JSON.stringify(header)}\n${JSON.stringify(step)}\n`);
	mock.enqueue({text: 'new answer'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'new question', '--session', old, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(sent(before), [
		['user', 'old question'],
		['assistant', 'old answer'],
		['user', 'new question'],
	]);
	assert.ok(readFileSync(old, 'utf8').includes('"new answer"'), 'the turn was saved to the old file');
	mock.enqueue({text: 'x'});
	const next = mock.requests.length;
	const continued = await runCli(['-p', '-c', 'again', '-C', box.workspace], {env: box.env});
	assert.equal(continued.code, 0, continued.stderr);
	assert.deepEqual(sent(next), [['user', 'again']], 'the workspace folder had no session: -c started a new one');
});

test('line mode names a new session by the time at once (its session event names the final path); one with no input leaves no file', async () => {
	const box = sandbox();
	const idle = await runCli(['--json', '-C', box.workspace], {env: box.env, input: ''});
	assert.equal(idle.code, 0, idle.stderr);
	const folder = sessionsFolder(box);
	assert.deepEqual(
		readdirSync(folder).filter(name => !name.startsWith('.index')),
		[],
		'an empty session leaves nothing',
	);

	mock.enqueue({text: 'line answer'});
	const run = await runCli(['--json', '-C', box.workspace], {env: box.env, input: 'a line\n'});
	assert.equal(run.code, 0, run.stderr);
	const opened = jsonEvents(run.stdout)[0]!;
	assert.match(opened.path, /\/session-\d{8}-\d{6}\.json$/);
	assert.ok(readFileSync(opened.path, 'utf8').includes('line answer'));
	assert.deepEqual(sessionFiles(folder), [opened.path.slice(folder.length + 1)]);
});
