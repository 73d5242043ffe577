import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {appendFileSync, mkdirSync, readFileSync, existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, waitFor} from '../helpers/cli.js';

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

test('--session-name saves to <workspace>/.i/sessions and resumes with the same UUID and history', async () => {
	const box = sandbox();
	mock.enqueue({text: 'first answer'});
	const one = await runCli(['-p', 'first', '--json', '--session-name', 'work', '-C', box.workspace], {env: box.env});
	assert.equal(one.code, 0, one.stderr);
	const path = join(box.workspace, '.i', 'sessions', 'work.json');
	assert.ok(existsSync(path));
	const id = jsonEvents(one.stdout)[0]!.id;

	mock.enqueue({text: 'second answer'});
	const before = mock.requests.length;
	const two = await runCli(['-p', 'second', '--json', '--session-name', 'work', '-C', box.workspace], {env: box.env});
	assert.equal(two.code, 0, two.stderr);
	const opened = jsonEvents(two.stdout)[0]!;
	assert.equal(opened.id, id);
	assert.equal(opened.resumed_messages, 3);
	const sent = mock.requests[before]!.body.messages.map((message: any) => [message.role, message.content]);
	assert.deepEqual(sent.slice(1), [
		['user', 'first'],
		['assistant', 'first answer'],
		['user', 'second'],
	]);
});

test('a session killed mid-turn resumes from its last complete checkpoint', async () => {
	const box = sandbox();
	const session = join(box.root, 'killed.json');
	mock.enqueue({text: 'one'});
	assert.equal((await runCli(['-p', 'turn one', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);

	mock.enqueue({text: 'never finished', hangAfterEvents: 2});
	const killed = await runCli(['-p', 'turn two', '--session', session, '-C', box.workspace], {
		env: box.env,
		onSpawn(child, output) {
			void waitFor(() => output.stdout().length > 0, 10_000, 'first text').then(() => child.kill('SIGKILL'));
		},
	});
	assert.equal(killed.signal, 'SIGKILL');
	assert.ok(existsSync(`${session}.lock`), 'the killed process left its lock behind');

	mock.enqueue({text: 'three'});
	const before = mock.requests.length;
	const resumed = await runCli(['-p', 'turn three', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(resumed.code, 0, resumed.stderr);
	assert.equal(resumed.stdout, 'three\n');
	const sent = mock.requests[before]!.body.messages.map((message: any) => [message.role, message.content]);
	assert.deepEqual(sent.slice(1), [
		['user', 'turn one'],
		['assistant', 'one'],
		['user', 'turn two'],
		['user', 'turn three'],
	]);
});

test('a torn session file is repaired on open and the resume says what it dropped', async () => {
	const box = sandbox();
	const session = join(box.root, 'torn.json');
	mock.enqueue({text: 'fine'});
	assert.equal((await runCli(['-p', 'one', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
	appendFileSync(session, '{"type":"step","n":3,"messages":[{"role":"user","con');
	mock.enqueue({text: 'still fine'});
	const run = await runCli(['-p', 'two', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /session repaired: dropped 1 line\(s\), \d+ bytes \(line 4: incomplete/);
	assert.ok(readFileSync(session, 'utf8').endsWith('\n'));
});

test('a session is refused in another workspace', async () => {
	const box = sandbox();
	const session = join(box.root, 'ws.json');
	mock.enqueue({text: 'fine'});
	assert.equal((await runCli(['-p', 'one', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
	const other = join(box.root, 'other');
	mkdirSync(other);
	const run = await runCli(['-p', 'two', '--session', session, '-C', other], {env: box.env});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /belongs to workspace/);
});

test('a second process cannot open a session in use', async () => {
	const box = sandbox();
	mock.enqueue({text: 'holding on', hangAfterEvents: 2});
	let second: Awaited<ReturnType<typeof runCli>> | undefined;
	const first = await runCli(['-p', 'one', '--session-name', 'busy', '-C', box.workspace], {
		env: box.env,
		onSpawn(child, output) {
			void waitFor(() => output.stdout().length > 0, 10_000, 'first text').then(async () => {
				second = await runCli(['-p', 'two', '--session-name', 'busy', '-C', box.workspace], {env: box.env});
				child.kill('SIGINT');
			});
		},
	});
	assert.equal(first.code, 130);
	assert.ok(second);
	assert.equal(second.code, 2);
	assert.match(second.stderr, /in use by process \d+/);
});

test('a session file whose history a provider would refuse is repaired on open to its last well-formed step, and the resume says what it dropped', async () => {
	const box = sandbox();
	const session = join(box.root, 'old.json');
	// Written by hand as an older i would have saved a before_turn hook's orphan tool result.
	const header = {type: 'i-session', version: 1, id: randomUUID(), workspace: box.workspace, created: new Date().toISOString()};
	const steps = [
		[
			{role: 'system', content: 'You are i.'},
			{role: 'user', content: 'one'},
		],
		[{role: 'assistant', content: 'first answer'}],
		[
			{role: 'user', content: 'two'},
			{role: 'tool', tool_call_id: 'nope', content: 'x'},
		],
		[{role: 'assistant', content: 'never seen by a provider'}],
	];
	const good = [header, ...steps.slice(0, 2).map((messages, index) => ({type: 'step', n: index + 1, messages}))].map(line => `${JSON.stringify(line)}\n`).join('');
	const cut = steps
		.slice(2)
		.map((messages, index) => `${JSON.stringify({type: 'step', n: index + 3, messages})}\n`)
		.join('');
	writeFileSync(session, good + cut);

	mock.enqueue({text: 'fine again'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'three', '--json', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const opened = jsonEvents(run.stdout)[0]!;
	assert.equal(opened.resumed_messages, 3);
	assert.deepEqual(
		{...opened.dropped, savedTo: undefined},
		{
			bytes: Buffer.byteLength(cut),
			lines: 2,
			reason: 'line 4: message 1 (tool): the tool result for "nope" answers no tool call of the assistant message before it',
			savedTo: undefined,
		},
	);
	assert.equal(readFileSync(opened.dropped.savedTo, 'utf8'), cut, 'the dropped steps are kept beside the session');
	const sent = mock.requests[before]!.body.messages;
	assert.deepEqual(
		sent.map((message: any) => [message.role, message.content]),
		[
			['system', 'You are i.'],
			['user', 'one'],
			['assistant', 'first answer'],
			['user', 'three'],
		],
	);
	assert.ok(readFileSync(session, 'utf8').startsWith(good));
	assert.doesNotMatch(readFileSync(session, 'utf8'), /nope/);

	// In plain text the person is told too.
	writeFileSync(session, good + cut);
	mock.enqueue({text: 'and again'});
	const text = await runCli(['-p', 'four', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(text.code, 0, text.stderr);
	assert.match(text.stderr, /session repaired: dropped 2 line\(s\), \d+ bytes \(line 4: message 1 \(tool\): the tool result for "nope" answers no tool call/);
});
