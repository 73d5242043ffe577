import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {jsonEvents, makeSandbox, runCli, waitFor} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('line mode answers each input line as a turn of one session, in plain text', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	mock.enqueue({text: 'one'}, {text: 'two'});
	const before = mock.requests.length;
	const run = await runCli(['-C', box.workspace], {env: box.env, input: 'first\n\nsecond\r\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'one\ntwo\n');
	assert.doesNotMatch(run.stdout + run.stderr, /\u001B/);
	assert.match(run.stderr, /session /);
	const sent = mock.requests[before + 1]!.body.messages.map((message: any) => [message.role, message.content]);
	assert.deepEqual(sent.slice(1), [
		['user', 'first'],
		['assistant', 'one'],
		['user', 'second'],
	]);
});

test('line mode goes on after a failed turn and exits 1 at the end', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	mock.enqueue({status: 400, errorMessage: 'bad request'}, {text: 'recovered'});
	const run = await runCli(['--json', '-C', box.workspace], {env: box.env, input: 'a\nb\n'});
	assert.equal(run.code, 1);
	const done = jsonEvents(run.stdout).filter(event => event.type === 'done');
	assert.deepEqual(
		done.map(event => event.reason),
		['error', 'stop'],
	);
});

test('line mode with empty input exits 0 at once', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const run = await runCli(['-C', box.workspace], {env: box.env, input: ''});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, '');
});

test('SIGINT while line mode waits for input exits 130 and releases the session', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const run = await runCli(['--session-name', 'idle', '-C', box.workspace], {
		env: box.env,
		input: null,
		onSpawn(child, output) {
			void waitFor(() => output.stderr().includes('session '), 10_000, 'the session line').then(() => child.kill('SIGINT'));
		},
	});
	assert.equal(run.code, 130, run.stderr);
	assert.equal(existsSync(join(box.workspace, '.i', 'sessions', 'idle.json.lock')), false);
});

test('line mode with stdin open but silent gives up after the first-byte limit instead of waiting forever', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const run = await runCli(['-C', box.workspace], {env: box.env, input: null, timeoutMs: 15_000});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /no input within 5 s on standard input, which is open but not a terminal/);
});
