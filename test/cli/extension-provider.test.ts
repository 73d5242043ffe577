// Extension providers through the real `i` (spec/extensions.md §5): the
// example extension over a local SSE server of the test's own, whose gate
// holds the rest of the reply until the first delta came out of `i`; UTF-8
// split across chunks, usage, one terminal, a cancel before the stream ends, a
// provider that never polls, an HTTP 401, line mode, approval of a tool call
// it returns, the hook workers seeing its requests, and a config naming an id
// nobody registered.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {chunk, done, finishChunk, gate, startGateServer, textChunk, usageChunk, type GateServer} from '../fixtures/gate-server.js';
import {jsonEvents, makeSandbox, runCli, waitFor, type Sandbox} from '../helpers/cli.js';

const example = fileURLToPath(new URL('../../../examples/extension-provider', import.meta.url));
const lifecycle = fileURLToPath(new URL('../../../test/fixtures/workers/lifecycle.py', import.meta.url));

let server: GateServer;
before(async () => {
	server = await startGateServer();
});
after(async () => server.close());

function sandbox(config: Record<string, unknown> = {}): Sandbox {
	const box = makeSandbox();
	box.writeConfig({protocol: 'local-openai', model: 'local-model', ...config});
	box.env.LOCAL_OPENAI_BASE_URL = server.baseUrl;
	return box;
}

const textOf = (events: Array<Record<string, any>>) =>
	events
		.filter(event => event.type === 'text_delta')
		.map(event => event.text)
		.join('');

/** "wörld" with the two bytes of "ö" in two TCP chunks. */
const splitWorld = (() => {
	const bytes = Buffer.from(textChunk('lo wörld'), 'utf8');
	const at = bytes.indexOf(0xc3) + 1;
	return [bytes.subarray(0, at), bytes.subarray(at)];
})();

test('--json: the first delta comes out of i before the server sends the rest; UTF-8 split across chunks, usage, exactly one terminal, the final message saved', async () => {
	const box = sandbox();
	const rest = gate();
	server.enqueue({parts: [textChunk('Hel'), rest.promise, ...splitWorld, finishChunk(), usageChunk(12, 5, 4), done]});
	const requestsBefore = server.requests.length;
	let shownBeforeRest: string | undefined;
	const run = await runCli(['-p', 'hi', '--json', '--extension', example, '-C', box.workspace], {
		env: box.env,
		onSpawn: (_child, output) => {
			// The gate: the rest is sent only once i has shown the first delta.
			waitFor(() => output.stdout().includes('"text_delta"'), 15_000, 'the first delta on stdout')
				.then(() => {
					shownBeforeRest = textOf(jsonEvents(output.stdout().split('\n').slice(0, -1).join('\n')));
				})
				.finally(() => rest.open())
				.catch(() => {});
		},
	});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(shownBeforeRest, 'Hel', 'the first delta was out while the server held the rest');
	const events = jsonEvents(run.stdout);
	assert.equal(textOf(events), 'Hello wörld');
	assert.ok(!run.stdout.includes('\uFFFD'), 'no replacement character: the split ö came out whole');
	const usage = events.filter(event => event.type === 'usage');
	assert.equal(usage.length, 1);
	assert.equal(usage[0]!.model, 'local-model');
	assert.deepEqual({input: usage[0]!.usage.input, output: usage[0]!.usage.output, cacheRead: usage[0]!.usage.cacheRead}, {input: 12, output: 5, cacheRead: 4});
	const terminals = events.filter(event => event.type === 'done' || event.type === 'error');
	assert.deepEqual(
		terminals.map(event => [event.type, event.reason, event.steps]),
		[['done', 'stop', 1]],
	);
	// The request the example sent: the neutral request as Chat Completions, streamed with usage.
	const sent = server.requests[requestsBefore]!;
	assert.equal(sent.path, '/v1/chat/completions');
	assert.equal(sent.body.model, 'local-model');
	assert.equal(sent.body.stream, true);
	assert.deepEqual(sent.body.messages.at(-1), {role: 'user', content: 'hi'});
	const session = events.find(event => event.type === 'session')!;
	const saved = readFileSync(session.path, 'utf8');
	assert.match(saved, /"content":"Hello wörld"/);
});

test("-p in plain text (the base URL from the example's flag) and line mode show its answer; i extensions lists the provider without headers or keys", async () => {
	const box = sandbox();
	server.enqueue({parts: [textChunk('plain '), textChunk('answer'), finishChunk(), done]});
	// The base URL from the flag the example registers, instead of its environment variable.
	const {LOCAL_OPENAI_BASE_URL: _fromEnv, ...withoutEnv} = box.env;
	const print = await runCli(['-p', 'hi', '--extension', example, '--local-openai-url', server.baseUrl, '-C', box.workspace], {env: withoutEnv});
	assert.equal(print.code, 0, print.stderr);
	assert.equal(print.stdout, 'plain answer\n');
	server.enqueue({parts: [textChunk('one'), finishChunk(), done]}, {parts: [textChunk('two'), finishChunk(), done]});
	const line = await runCli(['--extension', example, '-C', box.workspace], {env: box.env, input: 'first\nsecond\n'});
	assert.equal(line.code, 0, line.stderr);
	assert.equal(line.stdout, 'one\ntwo\n');
	const listed = await runCli(['extensions', '--json', '--extension', example, '-C', box.workspace], {env: {...box.env, LOCAL_OPENAI_API_KEY: 'sk-listing-secret-1'}});
	assert.equal(listed.code, 0, listed.stderr);
	const [extension] = JSON.parse(listed.stdout).loaded;
	assert.deepEqual(extension.providers, [{id: 'local-openai', apiStyle: 'openai-completions', streaming: true, baseUrl: server.baseUrl, catalogueModels: null, apiKeyEnv: null}]);
	assert.doesNotMatch(listed.stdout, /sk-listing-secret|authorization/i);
	const plain = await runCli(['extensions', '--extension', example, '-C', box.workspace], {env: box.env});
	assert.match(plain.stdout, /provider local-openai \(openai-completions, streaming, http:\/\/127\.0\.0\.1:\d+\/v1\)/);
});

test('SIGINT while the reply streams: the partial text stays, exit 130, one terminal; the polling example drops the socket', async () => {
	const box = sandbox();
	server.enqueue({parts: [textChunk('partial '), textChunk('text')], hang: true});
	const requestsBefore = server.requests.length;
	const run = await runCli(['-p', 'hi', '--json', '--extension', example, '-C', box.workspace], {
		env: box.env,
		onSpawn: (child, output) => {
			waitFor(() => textOf(jsonEvents(output.stdout().split('\n').slice(0, -1).join('\n'))) === 'partial text', 15_000, 'the partial text').then(
				() => child.kill('SIGINT'),
				() => child.kill('SIGKILL'),
			);
		},
	});
	assert.equal(run.code, 130, run.stderr);
	const events = jsonEvents(run.stdout);
	assert.equal(textOf(events), 'partial text');
	assert.deepEqual(
		events.filter(event => event.type === 'done' || event.type === 'error').map(event => [event.type, event.reason]),
		[['done', 'interrupted']],
	);
	// The example polls control and passes the signal to fetch: the connection is gone, not left generating.
	await server.requests[requestsBefore]!.closedEarly;
});

/** An extension of the test's own, written to a file of the sandbox. */
function extensionFile(box: Sandbox, source: string): string {
	const file = join(box.root, 'provider.mjs');
	writeFileSync(file, source);
	return file;
}

test('a provider that never polls and resolves late: the cancel ends the turn at once, keeping the text and the usage it reported; its late success is ignored', async () => {
	const box = sandbox({protocol: 'deaf'});
	const marker = join(box.root, 'late.txt');
	const file = extensionFile(
		box,
		`import {writeFileSync} from 'node:fs';
		export default function register(api) {
			api.registerStreamingProvider({id: 'deaf', apiStyle: 'test', request: (req, {emit}) => new Promise(resolve => {
				emit({type: 'start'});
				emit({type: 'usage', usage: {input: 7, output: 2}});
				emit({type: 'text_delta', contentIndex: 0, delta: 'never '});
				emit({type: 'text_delta', contentIndex: 0, delta: 'stops'});
				// Generates on, deaf to the cancel, for 8 s; then resolves a success.
				const timer = setInterval(() => emit({type: 'text_delta', contentIndex: 0, delta: ' more'}), 50);
				setTimeout(() => { clearInterval(timer); writeFileSync(${JSON.stringify(marker)}, 'resolved'); resolve({role: 'assistant', content: 'late success'}); }, 8000);
			})});
		}`,
	);
	const started = {at: 0};
	const run = await runCli(['-p', 'hi', '--json', '--extension', file, '-C', box.workspace], {
		env: box.env,
		onSpawn: (child, output) => {
			waitFor(() => output.stdout().includes('never '), 15_000, 'the first delta').then(
				() => {
					started.at = Date.now();
					child.kill('SIGINT');
				},
				() => child.kill('SIGKILL'),
			);
		},
	});
	const took = Date.now() - started.at;
	assert.equal(run.code, 130, run.stderr);
	const events = jsonEvents(run.stdout);
	assert.match(textOf(events), /^never stops( more)*$/);
	assert.ok(!run.stdout.includes('late success'));
	assert.ok(!existsSync(marker), 'i did not wait for the provider to resolve');
	assert.ok(took < 8000, `the cancel took ${took} ms, not the provider's 8 s`);
	const usage = events.filter(event => event.type === 'usage');
	assert.equal(usage.length, 1);
	assert.deepEqual([usage[0]!.model, usage[0]!.usage.input, usage[0]!.usage.output], ['local-model', 7, 2]);
	assert.equal(events.filter(event => event.type === 'done').length, 1);
});

test("HTTP 401 from the provider's endpoint: an error naming the extension, the provider and the status, without the key; exit 1", async () => {
	const box = sandbox();
	box.env.LOCAL_OPENAI_API_KEY = 'sk-local-secret-4242';
	server.enqueue({status: 401, body: JSON.stringify({error: {message: 'Invalid API key: sk-local-secret-4242'}})});
	const requestsBefore = server.requests.length;
	const run = await runCli(['-p', 'hi', '--json', '--extension', example, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1, run.stderr);
	assert.equal(server.requests[requestsBefore]!.headers.authorization, 'Bearer sk-local-secret-4242');
	const events = jsonEvents(run.stdout);
	const errors = events.filter(event => event.type === 'error');
	assert.equal(errors.length, 1);
	assert.match(errors[0]!.message, /^extension i-extension-provider provider "local-openai": request failed: HTTP 401 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: Invalid API key: \[redacted\]$/);
	assert.equal(errors[0]!.kind, 'http');
	assert.doesNotMatch(run.stdout + run.stderr, /sk-local-secret-4242/);
	assert.deepEqual(
		events.filter(event => event.type === 'done').map(event => event.reason),
		['error'],
	);
});

test('a tool call it returns is approved like any: denied without a terminal, run with --yolo, its result in the next request', async () => {
	const box = sandbox();
	writeFileSync(join(box.workspace, 'notes.txt'), 'provider notes\n');
	const call = chunk({tool_calls: [{index: 0, id: 'call_1', type: 'function', function: {name: 'write', arguments: ''}}]});
	const args = JSON.stringify({files: [{path: 'notes.txt', content: 'changed\n'}]});
	const reply = () => ({
		parts: [call, chunk({tool_calls: [{index: 0, function: {arguments: args.slice(0, 10)}}]}), chunk({tool_calls: [{index: 0, function: {arguments: args.slice(10)}}]}), finishChunk('tool_calls'), done],
	});
	server.enqueue(reply(), {parts: [textChunk('denied, fine'), finishChunk(), done]});
	const denied = await runCli(['-p', 'write', '--json', '--extension', example, '-C', box.workspace], {env: box.env});
	assert.equal(denied.code, 0, denied.stderr);
	const events = jsonEvents(denied.stdout);
	assert.deepEqual(
		events.filter(event => event.type === 'tool_call').map(event => [event.id, event.name, event.arguments]),
		[['call_1', 'write', args]],
	);
	const approval = events.find(event => event.type === 'approval')!;
	assert.deepEqual([approval.decision, approval.by], ['deny', 'no_terminal']);
	assert.equal(readFileSync(join(box.workspace, 'notes.txt'), 'utf8'), 'provider notes\n');
	const requestsBefore = server.requests.length;
	server.enqueue(reply(), {parts: [textChunk('written'), finishChunk(), done]});
	const yolo = await runCli(['-p', 'write', '--json', '--yolo', '--extension', example, '-C', box.workspace], {env: box.env});
	assert.equal(yolo.code, 0, yolo.stderr);
	assert.equal(readFileSync(join(box.workspace, 'notes.txt'), 'utf8'), 'changed\n');
	const second = server.requests[requestsBefore + 1]!.body.messages;
	assert.equal(second.at(-2).tool_calls[0].id, 'call_1');
	assert.deepEqual([second.at(-1).role, second.at(-1).tool_call_id], ['tool', 'call_1']);
	assert.ok(second.every((message: Record<string, unknown>) => Object.keys(message).every(key => !key.startsWith('_'))));
});

test('context_budget, before_request and after_response hook workers see its requests and replies; before_request changes what it gets', async () => {
	const box = sandbox({plugins: ['hooks.json']});
	writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: [{events: ['context_budget', 'before_request', 'after_response'], exec: ['python3', lifecycle, 'w']}]}));
	writeFileSync(join(box.workspace, '.lifecycle.json'), JSON.stringify({w: {context_budget: {set: {fits: true}}}}));
	const file = extensionFile(
		box,
		`export default function register(api) {
			api.registerEventHandler('BeforeProviderRequest', event => ({body: {...event.body, marked_by_extension: true}}));
		}`,
	);
	server.enqueue({parts: [textChunk('seen'), finishChunk(), usageChunk(3, 1), done]});
	const requestsBefore = server.requests.length;
	const run = await runCli(['-p', 'hi', '--extension', example, '--extension', file, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const log = readFileSync(join(box.workspace, '.lifecycle.log'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map(line => JSON.parse(line) as {event: string; data: any});
	const budget = log.find(entry => entry.event === 'context_budget')!;
	assert.deepEqual([budget.data.protocol, budget.data.model], ['local-openai', 'local-model']);
	const request = log.find(entry => entry.event === 'before_request')!;
	assert.equal(request.data.url, 'extension://local-openai');
	assert.equal(request.data.body.marked_by_extension, true, 'the extension transform ran before the worker hook');
	const response = log.find(entry => entry.event === 'after_response')!;
	assert.deepEqual([response.data.response.protocol, response.data.response.message.content], ['local-openai', 'seen']);
	assert.equal(response.data.response.usage.input, 3);
	// The body the hooks saw is the one the provider got: its extra fields reach the endpoint.
	assert.equal(server.requests[requestsBefore]!.body.marked_by_extension, true);
});

test('a config naming an id no loaded extension registered is a usage error naming the file, the protocol, the built-ins and the registered ids', async () => {
	const box = sandbox({protocol: 'nobody'});
	const run = await runCli(['-p', 'hi', '--extension', example, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.match(
		run.stderr,
		/config \S+config\.json: field "protocol": "nobody" is neither a built-in protocol \(openai, deepseek, anthropic, responses\) nor a provider a loaded extension registered \(the loaded extensions registered local-openai, deepseek, openrouter, gemini, groq, mistral, xai, ollama, llama-cpp, proxy\)/,
	);
	const none = await runCli(['-p', 'hi', '--no-extensions', '-C', box.workspace], {env: box.env});
	assert.equal(none.code, 2);
	assert.match(none.stderr, /the loaded extensions registered no provider/);
});

test('runtime.getExecutionContext(): model, thinking, active tools, cwd and session; never the key, a header or the base URL', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: server.baseUrl, model: 'gpt-test', extra_body: {reasoning_effort: 'high'}});
	const file = extensionFile(
		box,
		`export default function register(api) {
			api.registerTool({name: 'ctx_probe', description: 'the context', parameters: {type: 'object'}, execute: () => ({output: JSON.stringify(api.runtime.getExecutionContext())})});
		}`,
	);
	server.enqueue(
		{parts: [chunk({tool_calls: [{index: 0, id: 'p1', type: 'function', function: {name: 'ctx_probe', arguments: '{}'}}]}), finishChunk('tool_calls'), done]},
		{parts: [textChunk('ok'), finishChunk(), done]},
	);
	const run = await runCli(['-p', 'probe', '--json', '--yolo', '--extension', file, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const result = events.find(event => event.type === 'tool_result')!;
	const context = JSON.parse(result.output);
	const session = events.find(event => event.type === 'session')!;
	assert.deepEqual(Object.keys(context).sort(), ['cwd', 'model', 'sessionId', 'thinking', 'tools']);
	assert.deepEqual(context.model, {provider: 'openai', id: 'gpt-test'});
	assert.equal(context.thinking, 'high');
	assert.equal(context.cwd, box.workspace);
	assert.equal(context.sessionId, session.id);
	assert.ok(context.tools.includes('ctx_probe') && context.tools.includes('read'), JSON.stringify(context.tools));
	const text = result.output;
	for (const secret of ['sk-test-secret-123', server.baseUrl, '127.0.0.1', 'TEST_API_KEY', 'authorization', 'Bearer']) assert.ok(!text.includes(secret), `${secret} is not in the context`);
});
