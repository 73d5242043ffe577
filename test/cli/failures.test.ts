import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, waitFor} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandbox(protocol: 'openai' | 'anthropic' | 'deepseek' | 'responses' = 'openai') {
	const box = makeSandbox();
	box.writeConfig({protocol, base_url: mock.baseUrl(protocol), model: 'm', max_retries: 2});
	return box;
}

function sessionLines(path: string): Array<Record<string, any>> {
	return readFileSync(path, 'utf8')
		.trim()
		.split('\n')
		.map(line => JSON.parse(line) as Record<string, any>);
}

test("401 fails the turn with the provider's own message and never prints the key", async () => {
	const box = sandbox('anthropic');
	mock.enqueue({status: 401, errorMessage: 'invalid x-api-key'});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.equal(run.stdout, '');
	assert.match(run.stderr, /401/);
	assert.match(run.stderr, /invalid x-api-key/);
	assert.doesNotMatch(run.stderr + run.stdout, /sk-test-secret-123/);
});

test('401 in --json mode is an error event and a non-zero exit', async () => {
	const box = sandbox();
	mock.enqueue({status: 401, errorMessage: 'Incorrect API key provided'});
	const run = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	const events = jsonEvents(run.stdout);
	const error = events.find(event => event.type === 'error')!;
	assert.match(error.message, /Incorrect API key provided/);
	assert.deepEqual(events.at(-1)!.reason, 'error');
});

test('429 with Retry-After is retried, the retry is an event, and the answer arrives', async () => {
	const box = sandbox('deepseek');
	mock.enqueue({status: 429, errorMessage: 'slow down', headers: {'retry-after': '1'}}, {text: 'after the wait'});
	const run = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const retries = events.filter(event => event.type === 'retry');
	assert.equal(retries.length, 1);
	assert.equal(retries[0]!.attempt, 1);
	assert.equal(retries[0]!.status, 429);
	assert.equal(retries[0]!.delay_ms, 1000);
	assert.equal(
		events
			.filter(event => event.type === 'text_delta')
			.map(event => event.text)
			.join(''),
		'after the wait',
	);
});

test('a retry in text mode is reported on stderr, not stdout', async () => {
	const box = sandbox();
	mock.enqueue({status: 503, headers: {'retry-after': '0'}}, {text: 'ok'});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'ok\n');
	assert.match(run.stderr, /retry 1/);
});

test('a stream cut mid-way fails the turn, keeps the partial text visible, and leaves the session clean', async () => {
	const box = sandbox('anthropic');
	const session = join(box.root, 'cut.json');
	mock.enqueue({text: 'The first part of a long answer that never ends', cutAfterEvents: 6});
	const run = await runCli(['-p', 'hi', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.ok(run.stdout.length > 0, 'some partial text was shown');
	assert.ok('The first part of a long answer that never ends\n'.startsWith(run.stdout.trimEnd()), run.stdout);
	assert.match(run.stderr, /error: .*(truncated|ended|connection lost)/i);
	// The checkpoint holds the user message only: no partial assistant message.
	const roles = sessionLines(session)
		.slice(1)
		.flatMap(step => step.messages.map((message: any) => message.role));
	assert.deepEqual(roles, ['system', 'user']);

	mock.enqueue({text: 'second try'});
	const before = mock.requests.length;
	const again = await runCli(['-p', 'again', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(again.code, 0, again.stderr);
	const sent = mock.requests[before]!.body.messages as Array<{role: string}>;
	assert.deepEqual(
		sent.map(message => message.role),
		['user'],
	);
});

test('a malformed SSE line fails the turn with a clear error', async () => {
	const box = sandbox();
	const chunk = (content: string) => `data: ${JSON.stringify({id: 'x', object: 'chat.completion.chunk', choices: [{index: 0, delta: {content}, finish_reason: null}]})}\n\n`;
	mock.enqueue({raw: `${chunk('Hel')}${chunk('lo')}data: {"choices": [oops\n\n`});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.equal(run.stdout, 'Hello\n');
	assert.match(run.stderr, /malformed|invalid JSON/i);
});

test('SIGINT mid-stream cancels the request, keeps the last checkpoint and exits 130', async () => {
	const box = sandbox();
	const session = join(box.root, 'int.json');
	mock.enqueue({text: 'streaming forever and ever', hangAfterEvents: 3});
	const run = await runCli(['-p', 'hi', '--session', session, '-C', box.workspace], {
		env: box.env,
		onSpawn(child, output) {
			void waitFor(() => output.stdout().length > 0, 10_000, 'first text').then(() => child.kill('SIGINT'));
		},
	});
	assert.equal(run.code, 130, run.stderr);
	assert.ok(run.stdout.length > 0);
	const steps = sessionLines(session).slice(1);
	assert.equal(steps.length, 1);
	assert.deepEqual(
		steps[0]!.messages.map((message: any) => message.role),
		['system', 'user'],
	);
});

test('a worker error of 5 MiB reaches stderr and the --json error event cut to 8 KiB, saying how much was cut', async () => {
	const box = sandbox();
	const worker = join(box.root, 'loud-worker.mjs');
	writeFileSync(
		worker,
		[
			"process.stdin.on('data', chunk => {",
			'  const id = JSON.parse(String(chunk).split("\\n")[0]).id;',
			"  process.stdout.write(JSON.stringify({id, error: 'E'.repeat(5 * 1024 * 1024)}) + '\\n');",
			'});',
		].join('\n'),
	);
	writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: [{events: ['before_turn'], exec: [process.execPath, worker]}]}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['hooks.json']});
	const plain = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(plain.code, 1);
	assert.ok(plain.stderr.length < 10_000, `stderr has ${plain.stderr.length} characters`);
	assert.match(plain.stderr, /before_turn hook .* the worker answered with an error: E{8192}… \[5234688 more bytes of the error cut\]/);
	const json = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env: box.env});
	const [error] = jsonEvents(json.stdout).filter(event => event.type === 'error');
	assert.ok(error!.message.length < 10_000, `the error event has ${error!.message.length} characters`);
	assert.match(error!.message, /more bytes of the error cut\]/);
});
