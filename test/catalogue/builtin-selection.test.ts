// Choosing a built-in provider or a models.json provider by catalogue,
// through the built CLI against the mock of all four wires: the model's
// api picks the built-in adapter (Responses for gpt-5, Chat Completions
// for gpt-4.1, Messages for Claude), models.json's endpoint and headers
// reach the wire, its anonymous provider is sent no credential, and each
// provider's own variable is its key.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const keys = {OPENAI_API_KEY: 'sk-openai-only-1', ANTHROPIC_API_KEY: 'sk-ant-only-2', DEEPSEEK_API_KEY: 'sk-ds-only-3'};

test('the model’s api picks the built-in adapter; models.json moves the endpoint and adds headers; each provider gets its own key only', async () => {
	const box = makeSandbox();
	writeFileSync(
		join(box.configDir, 'models.json'),
		JSON.stringify({
			providers: {
				openai: {baseUrl: mock.baseUrl('openai'), headers: {'x-org': 'org-header'}},
				anthropic: {baseUrl: mock.baseUrl('anthropic')},
				local: {baseUrl: mock.baseUrl('openai'), models: [{id: 'qwen'}]},
			},
		}),
	);
	const env = {...box.env, ...keys};
	const cases: Array<[string, string, string]> = [
		['openai/gpt-5', 'from responses', '/v1/responses'],
		['gpt-4.1', 'from chat', '/v1/chat/completions'],
		['anthropic/claude-haiku-4-5', 'from messages', '/v1/messages'],
		['local/qwen', 'from the local one', '/v1/chat/completions'],
	];
	for (const [model, text, path] of cases) {
		mock.enqueue({text});
		const before = mock.requests.length;
		const run = await runCli(['-p', 'hi', '--model', model, '-C', box.workspace], {env});
		assert.equal(run.code, 0, `${model}: ${run.stderr}`);
		assert.equal(run.stdout.trim(), text);
		assert.equal(mock.requests[before]!.path, path, model);
	}

	const [responses, chat, messages, local] = mock.requests.slice(-4);
	assert.equal(responses!.headers.authorization, `Bearer ${keys.OPENAI_API_KEY}`);
	assert.equal(responses!.headers['x-org'], 'org-header');
	assert.equal(responses!.body.model, 'gpt-5');
	assert.equal(chat!.body.model, 'gpt-4.1');
	assert.equal(messages!.headers['x-api-key'], keys.ANTHROPIC_API_KEY);
	assert.equal(messages!.headers.authorization, undefined);
	// A models.json provider without "apiKey" is anonymous: no credential header at all, whatever keys are set.
	assert.equal(local!.headers.authorization, undefined);
	assert.equal(local!.headers['x-api-key'], undefined);
	assert.equal(local!.body.model, 'qwen');
	for (const request of mock.requests.slice(-4)) assert.doesNotMatch(JSON.stringify(request.headers), new RegExp(keys.DEEPSEEK_API_KEY));
});

test('a catalogue choice refuses an extra_body that sets what its adapter owns, as a protocol config does, before any request', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'openai', model: 'gpt-4.1', extra_body: {stream: false, temperature: 0.2}}));
	const requests = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: {...box.env, OPENAI_API_KEY: 'sk-test'}});
	assert.equal(run.code, 2, run.stderr);
	assert.match(run.stderr, /config .*config\.json: field "extra_body" may not set "stream": the openai adapter owns /);
	assert.equal(mock.requests.length, requests);
});
