// The provider package on the host's own client (io.completions), through
// the built CLI against local SSE servers: a cut stream fails as truncated
// (exit 1), a 429 with Retry-After is retried (exit 0), OpenRouter's
// `reasoning` deltas are shown as thinking, each OpenAI-compatible module
// (Gemini, Groq, Mistral, xAI, Ollama) answers one request with its key,
// endpoint and quirks, and a catalogue entry of the wrong type names the
// file, the provider, the model and the field.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {chunk, done, finishChunk, startGateServer, textChunk, usageChunk, type GateServer} from '../fixtures/gate-server.js';
import {jsonEvents, makeSandbox, runCli, writeExtensionFile, type Sandbox} from '../helpers/cli.js';

const DS_KEY = 'sk-deepseek-secret-1111';

function sandbox(models: Record<string, unknown>): Sandbox {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: models}));
	return box;
}

async function withServer<T>(body: (server: GateServer) => Promise<T>): Promise<T> {
	const server = await startGateServer();
	try {
		return await body(server);
	} finally {
		await server.close();
	}
}

const reply = (text: string) => ({parts: [textChunk(text), finishChunk(), usageChunk(5, 2), done]});

test('a DeepSeek stream cut before finish_reason and [DONE] fails as truncated (exit 1), the text shown kept; a cut after finish_reason without [DONE] fails too', async () => {
	await withServer(async server => {
		const box = sandbox({deepseek: {baseUrl: server.baseUrl}});
		server.enqueue({parts: [textChunk('half an ans')]}, {parts: [textChunk('whole'), finishChunk()]});
		for (const shown of ['half an ans', 'whole']) {
			const run = await runCli(['-p', 'hi', '--json', '--model', 'deepseek/deepseek-flash', '-C', box.workspace], {env: {...box.env, DEEPSEEK_API_KEY: DS_KEY}});
			assert.equal(run.code, 1, run.stderr);
			const events = jsonEvents(run.stdout);
			const errors = events.filter(event => event.type === 'error');
			assert.equal(errors.length, 1, run.stdout);
			assert.match(errors[0]!.message, /provider "deepseek": deepseek stream ended before \[DONE\] \(truncated response\)/);
			assert.equal(errors[0]!.kind, 'stream');
			assert.equal(
				events
					.filter(event => event.type === 'text_delta')
					.map(event => event.text)
					.join(''),
				shown,
			);
			assert.deepEqual(
				events.filter(event => event.type === 'done').map(event => event.reason),
				['error'],
			);
		}
	});
});

test('a 429 with Retry-After is retried by the host’s HTTP layer: the same request again, then the answer (exit 0); the key is never shown', async () => {
	await withServer(async server => {
		const box = sandbox({deepseek: {baseUrl: server.baseUrl}});
		server.enqueue({status: 429, headers: {'retry-after': '0'}, body: JSON.stringify({error: {message: `slow down ${DS_KEY}`}})}, reply('after the wait'));
		const run = await runCli(['-p', 'hi', '--json', '--model', 'deepseek/deepseek-v4-pro', '-C', box.workspace], {env: {...box.env, DEEPSEEK_API_KEY: DS_KEY}});
		assert.equal(run.code, 0, run.stderr);
		const events = jsonEvents(run.stdout);
		const retries = events.filter(event => event.type === 'retry');
		assert.equal(retries.length, 1, run.stdout);
		assert.match(JSON.stringify(retries[0]), /429/);
		assert.equal(server.requests.length, 2);
		assert.deepEqual(server.requests[0]!.body, server.requests[1]!.body);
		assert.equal(server.requests[1]!.body.model, 'deepseek-v4-pro');
		assert.doesNotMatch(run.stdout + run.stderr, new RegExp(DS_KEY));
	});
});

test('OpenRouter’s thinking comes as `reasoning` deltas and is shown as thinking', async () => {
	await withServer(async server => {
		const box = sandbox({openrouter: {baseUrl: server.baseUrl}});
		server.enqueue({parts: [chunk({reasoning: 'mull it over'}), textChunk('answer'), finishChunk(), done]});
		const run = await runCli(['-p', 'hi', '--json', '--model', 'openrouter/openai/gpt-5', '-C', box.workspace], {env: {...box.env, OPENROUTER_API_KEY: 'sk-or-1'}});
		assert.equal(run.code, 0, run.stderr);
		const events = jsonEvents(run.stdout);
		assert.equal(
			events
				.filter(event => event.type === 'thinking_delta')
				.map(event => event.text)
				.join(''),
			'mull it over',
		);
		assert.equal(server.requests[0]!.body.max_tokens, undefined, 'no cap unless the config sets one');
	});
});

const modules = [
	{id: 'gemini', model: 'gemini-3-flash-preview', keyVar: 'GEMINI_API_KEY', cap: 'max_tokens', streamOptions: true},
	{id: 'groq', model: 'openai/gpt-oss-120b', keyVar: 'GROQ_API_KEY', cap: 'max_completion_tokens', streamOptions: true, reasoning: 'reasoning'},
	{id: 'mistral', model: 'mistral-large-latest', keyVar: 'MISTRAL_API_KEY', cap: 'max_tokens', streamOptions: false},
	{id: 'xai', model: 'grok-code-fast-1', keyVar: 'XAI_API_KEY', cap: 'max_tokens', streamOptions: true, reasoning: 'reasoning_content'},
	{id: 'ollama', model: 'qwen3-coder', keyVar: undefined, cap: 'max_tokens', streamOptions: true, reasoning: 'reasoning'},
] as const;

test('each OpenAI-compatible module is registered with its endpoint and key variable, and answers one request through its server with its own quirks', async () => {
	const box = makeSandbox();
	const listed = await runCli(['--list-models', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(listed.code, 0, listed.stderr);
	const rows = JSON.parse(listed.stdout) as Array<Record<string, any>>;
	for (const module of modules) {
		const row = rows.find(candidate => candidate.provider === module.id && candidate.model === module.model);
		assert.ok(row, `${module.id}/${module.model} is in the catalogue`);
		assert.equal(row.apiKeyEnv ?? undefined, module.keyVar);
		assert.equal(row.requiresAuth, module.keyVar !== undefined);
	}

	for (const module of modules) {
		await withServer(async server => {
			const key = `sk-${module.id}-secret-4444`;
			const box = sandbox({[module.id]: {baseUrl: server.baseUrl}});
			writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: module.id, model: module.model, max_tokens: 55}));
			const thinking = 'reasoning' in module ? [chunk({[module.reasoning]: 'thinking first'})] : [];
			server.enqueue({parts: [...thinking, textChunk(`hello from ${module.id}`), finishChunk(), usageChunk(7, 3), done]});
			const variables = {GEMINI_API_KEY: 'sk-gemini-secret-4444', GROQ_API_KEY: 'sk-groq-secret-4444', MISTRAL_API_KEY: 'sk-mistral-secret-4444', XAI_API_KEY: 'sk-xai-secret-4444'};
			const run = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env: {...box.env, ...variables}});
			assert.equal(run.code, 0, `${module.id}: ${run.stderr}`);
			const events = jsonEvents(run.stdout);
			const text = (type: string) =>
				events
					.filter(event => event.type === type)
					.map(event => event.text)
					.join('');
			assert.equal(text('text_delta'), `hello from ${module.id}`);
			if ('reasoning' in module) assert.equal(text('thinking_delta'), 'thinking first', module.id);
			assert.deepEqual(
				events.filter(event => event.type === 'usage').map(event => [event.usage.input, event.usage.output]),
				[[7, 3]],
			);
			const [request] = server.requests;
			assert.equal(request!.path, '/v1/chat/completions');
			assert.equal(request!.headers.authorization, module.keyVar === undefined ? undefined : `Bearer ${key}`, module.id);
			assert.equal(request!.body.model, module.model);
			assert.equal(request!.body[module.cap], 55, module.id);
			assert.equal(request!.body[module.cap === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens'], undefined, module.id);
			assert.equal('stream_options' in request!.body, module.streamOptions, module.id);
			assert.doesNotMatch(run.stdout + run.stderr, /secret-4444/);
		});
	}
});

test('a catalogue entry with a price or window of the wrong type names the file, the provider, the model and the field', async () => {
	const box = makeSandbox();
	const cases = [
		{field: 'contextWindow', value: '"1M"', where: /contextWindow/},
		{field: 'cost', value: '{input: "cheap"}', where: /cost\.input/},
	];
	for (const {field, value, where} of cases) {
		const file = writeExtensionFile(
			box,
			'bad-catalogue.mjs',
			`export default api => {
				api.declare({providers: [{id: 'bad-cat', models: [{id: 'fine', name: 'Fine', provider: 'bad-cat', api: 'x'}, {id: 'wrong-one', name: 'Wrong', provider: 'bad-cat', api: 'x', ${field}: ${value}}]}]});
				api.registerStreamingProvider({id: 'bad-cat', apiStyle: 'x', request: () => ({role: 'assistant', content: 'no'})});
			}`,
		);
		const run = await runCli(['--list-models', '--extension', file, '-C', box.workspace], {env: box.env});
		const said = run.stderr;
		assert.ok(said.includes(file), `names the file: ${said}`);
		assert.match(said, /provider "bad-cat"/);
		assert.match(said, /model "wrong-one"/);
		assert.match(said, where);
	}
});
