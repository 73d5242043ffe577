import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {Message} from '../../source/core/messages.js';
import {createResponsesAdapter} from '../../source/core/providers/responses.js';
import type {ToolSchema} from '../../source/core/providers/types.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

const lifecycle = fileURLToPath(new URL('../../../test/fixtures/workers/lifecycle.py', import.meta.url));
const providerWorker = fileURLToPath(new URL('../../../test/fixtures/workers/provider.py', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** A Chat Completions config (protocol openai) whose plugins select an official profile. */
function profileSandbox(profile: string, extra: Record<string, unknown> = {}): Sandbox {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(box.configDir, 'plugins.json'), JSON.stringify({profile, disabled: []}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['builtin.json'], ...extra});
	return box;
}

/** The history a session file holds: its step messages, from the last compaction checkpoint on. */
function sessionHistory(path: string): Message[] {
	let history: Message[] = [];
	for (const line of readFileSync(path, 'utf8').trim().split('\n')) {
		const entry = JSON.parse(line);
		if (entry.type !== 'step') continue;
		history = entry.replaces_history ? [...entry.messages] : [...history, ...entry.messages];
	}

	return history;
}

test("the responses profile sends a Chat config's turn, tool call included, over /v1/responses and replays the reasoning", async () => {
	const box = profileSandbox('responses');
	const session = join(box.root, 's.json');
	writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
	const start = mock.requests.length;
	mock.enqueue({thinking: 'I should read the file.', toolCalls: [{id: 'call_r1', name: 'read', arguments: JSON.stringify({files: [{path: 'a.txt'}]})}]}, {text: 'It says alpha.'});
	const run = await runCli(['-p', 'what is in a.txt?', '--json', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	assert.equal(
		events
			.filter(event => event.type === 'text_delta')
			.map(event => event.text)
			.join(''),
		'It says alpha.',
	);

	const requests = mock.requests.slice(start);
	assert.deepEqual(
		requests.map(request => request.path),
		['/v1/responses', '/v1/responses'],
	);
	assert.equal(requests[0]!.headers.authorization, 'Bearer sk-test-secret-123', "headers and auth stay the openai caller's");
	for (const {body} of requests) {
		assert.ok(Array.isArray(body.input));
		for (const field of ['messages', 'stream_options', 'max_completion_tokens', 'wire']) assert.equal(field in body, false, field);
		assert.equal(body.stream, true);
		assert.ok(body.tools.every((tool: Record<string, unknown>) => tool.type === 'function' && tool.strict === false && typeof tool.name === 'string'));
	}

	// The second request is exactly what the native responses adapter makes of the saved history, reasoning item first.
	const history = sessionHistory(session);
	const reply = history.findLast(message => message.role === 'assistant' && message.tool_calls);
	assert.ok(reply && reply.role === 'assistant' && reply._responses_output, 'the session keeps the output items');
	assert.equal((reply._responses_output[0] as {type: string}).type, 'reasoning');
	const second = requests[1]!.body as {tools: ToolSchema[]; input: unknown[]};
	const tools: ToolSchema[] = second.tools.map(({name, description, parameters}) => ({name, description, parameters}));
	const sent = history.slice(
		0,
		history.findLastIndex(message => message.role === 'assistant'),
	);
	const native = createResponsesAdapter({model: 'm', baseUrl: mock.baseUrl('responses'), useMaxTokens: false, extraBody: {}}).prepare(sent, tools);
	assert.deepEqual(second, native.body);
	assert.equal(new URL(native.url).pathname, requests[1]!.path);
	assert.deepEqual(second.input[1], reply._responses_output[0]);
});

test('the responses-budget profile loads both modules: the budget measures and refuses, the request goes out as Responses', async () => {
	const box = profileSandbox('responses-budget', {max_retries: 0, budget: {window: 20_000}});
	const start = mock.requests.length;
	mock.enqueue({text: 'ok'});
	const run = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const budget = jsonEvents(run.stdout).find(event => event.type === 'budget');
	assert.equal(budget?.window, 20_000, 'the budget module answered with its figures');
	assert.deepEqual(
		mock.requests.slice(start).map(request => request.path),
		['/v1/responses'],
	);
	assert.ok(Array.isArray(mock.requests.at(-1)!.body.input));

	const refused = await runCli(['-p', `a long question ${'z'.repeat(20_000)}`, '-C', box.workspace], {env: box.env});
	assert.equal(refused.code, 1);
	assert.match(refused.stderr, /does not fit the model's window/);
	assert.equal(mock.requests.length, start + 1, 'nothing was sent');
});

test("an incomplete Responses reply is refused with the module's reason", async () => {
	const box = profileSandbox('responses');
	mock.enqueue({thinking: 'thinking until the cap', finish: 'length'});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.match(run.stderr, /responses module: the Responses reply has neither text nor tool calls \(only reasoning items, cut off by max_output_tokens\); it is refused/);
});

/** A config whose before_request hook (the lifecycle fixture) answers `wire`. */
function wireSandbox(wire: string, extra: Record<string, unknown> = {}): Sandbox {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: [{events: ['before_request'], exec: ['python3', lifecycle, 'w']}], tools: []}));
	writeFileSync(join(box.workspace, '.lifecycle.json'), JSON.stringify({w: {before_request: {set: {wire}}}}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['hooks.json'], ...extra});
	return box;
}

test('a before_request wire that names no built-in protocol fails the turn before any request', async () => {
	const box = wireSandbox('gemini');
	const start = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.match(run.stderr, /before_request hook returned wire "gemini"; wire names a built-in protocol: openai, deepseek, anthropic, responses/);
	assert.equal(mock.requests.length, start);
});

test("a hook-chosen wire reads the reply with that protocol's assembler, even a plain Chat body", async () => {
	// The body stays Chat Completions; the hook says the reply streams as Chat Completions too: nothing changes.
	const box = wireSandbox('openai');
	mock.enqueue({text: 'chat as before'});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /chat as before/);
	// Told the reply is a Responses stream, the core reads the Chat stream as one and fails.
	const wrong = wireSandbox('responses');
	mock.enqueue({text: 'chat again'});
	const failed = await runCli(['-p', 'hi', '-C', wrong.workspace], {env: wrong.env});
	assert.equal(failed.code, 1);
	assert.match(failed.stderr, /responses stream/);
});

test('a provider worker refuses a wire: it has no HTTP stream to assemble', async () => {
	const box = wireSandbox('responses', {protocol: 'openai', provider: {exec: ['python3', providerWorker]}, api_key_env: undefined, base_url: undefined});
	writeFileSync(join(box.workspace, '.provider.json'), JSON.stringify([{message: {content: 'never'}, finish_reason: 'stop'}]));
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.match(run.stderr, /provider worker .*: a before_request hook asked for the "responses" wire, but a provider worker answers in frames, not an HTTP stream to assemble/);
	assert.equal(existsSync(join(box.workspace, '.provider.log')), false, 'the provider worker was never called');
});

test('with the cache module (spec/platform.md §6): the cache prepares the converted body and observes a reply the responses module then refuses', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	const others = ['prompts', 'approval', 'budget', 'compact', 'memory', 'skills', 'web', 'search'];
	writeFileSync(join(box.configDir, 'plugins.json'), JSON.stringify({profile: 'full', disabled: others}));
	writeFileSync(join(box.configDir, 'cache.json'), JSON.stringify({mode: 'openai', namespace: 'responses-e2e'}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['builtin.json']});
	const start = mock.requests.length;
	mock.enqueue({text: 'fine', usage: {input: 2000, output: 5, cacheRead: 1024}}, {thinking: 'out of room', finish: 'length', usage: {input: 2100, output: 9, cacheRead: 1920}});
	const session = join(box.root, 's.json');
	assert.equal((await runCli(['-p', 'one', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
	const refused = await runCli(['-p', 'two', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(refused.code, 1);
	assert.match(refused.stderr, /responses module: the Responses reply has neither text nor tool calls/);

	const requests = mock.requests.slice(start);
	assert.deepEqual(
		requests.map(request => request.path),
		['/v1/responses', '/v1/responses'],
	);
	for (const {body} of requests) assert.match(body.prompt_cache_key, /^[0-9a-f]{64}$/, 'the cache prepared the request');
	// The cache prepared what the responses module made: it was told the protocol is now responses.
	const workspaces = join(box.root, 'data', 'workspaces');
	const [id] = readdirSync(workspaces);
	const stats = JSON.parse(readFileSync(join(workspaces, id!, 'metrics', 'cache-stats.json'), 'utf8')) as {records: Array<{protocol: string; observed: boolean}>};
	assert.deepEqual(
		stats.records.map(record => [record.protocol, record.observed]),
		[
			['responses', true],
			['responses', true],
		],
	);
	const report = await runCli(['--runtime', 'cache-report', '-C', box.workspace, '--json'], {env: box.env});
	assert.equal(report.code, 0, report.stderr);
	const figures = JSON.parse(report.stdout) as Record<string, any>;
	assert.deepEqual(figures.predictions, {new: 1, append: 1, compact: 0, reset: 0});
	assert.equal(figures.observed, 2, 'the refused reply was observed before the responses module refused it');
	assert.equal(figures.input_tokens, 4100);
	assert.equal(figures.cache_read_tokens, 2944);
});
