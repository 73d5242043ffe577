// Zero-config first runs (issue 46 point 5): with no config.json, `i -p`
// uses the first of anthropic, openai, deepseek, openrouter, gemini, xai, mistral, groq whose key
// resolves (its variable or auth.json), with that provider's first model,
// and says so once on stderr. models.json points the four providers at the
// local mock; the built CLI runs. Also: two keys (the order decides), none
// (the commands, exit 2), and a saved config whose key is gone (exit 2 with
// the fix).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
/** Each provider's first model, as the catalogue of such a sandbox lists it. */
let models: Record<Id, string>;
before(async () => {
	mock = await startMockProvider();
	models = await firstModels();
});
after(async () => mock.close());

const variables = {anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY', deepseek: 'DEEPSEEK_API_KEY', openrouter: 'OPENROUTER_API_KEY'} as const;
type Id = keyof typeof variables;
const order: Id[] = ['anthropic', 'openai', 'deepseek', 'openrouter'];

/** A sandbox without config.json whose models.json sends each of the four providers to the mock. */
function box(): Sandbox {
	const sandbox = makeSandbox();
	const providers = {
		anthropic: {baseUrl: mock.baseUrl('anthropic')},
		openai: {baseUrl: mock.baseUrl('openai')},
		deepseek: {baseUrl: mock.baseUrl('deepseek')},
		openrouter: {baseUrl: mock.baseUrl('openai')},
	};
	writeFileSync(join(sandbox.configDir, 'models.json'), JSON.stringify({providers}));
	return sandbox;
}

async function firstModels(): Promise<Record<Id, string>> {
	const sandbox = box();
	const listed = await runCli(['--list-models', '--json', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(listed.code, 0, listed.stderr);
	const rows = JSON.parse(listed.stdout) as Array<{provider: string; model: string}>;
	return Object.fromEntries(order.map(id => [id, rows.find(row => row.provider === id)!.model])) as Record<Id, string>;
}

/** `-p hi` in `sandbox` with `env`: exit 0 with the mock's answer; the request it sent and what stderr said. */
async function answered(sandbox: Sandbox, env: NodeJS.ProcessEnv): Promise<{request: (typeof mock.requests)[number]; stderr: string}> {
	mock.enqueue({text: 'zero-config answer'});
	const from = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env: {...sandbox.env, ...env}});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout.trim(), 'zero-config answer');
	const sent = mock.requests.slice(from);
	assert.equal(sent.length, 1);
	return {request: sent[0]!, stderr: run.stderr};
}

function keyOf(request: (typeof mock.requests)[number]): unknown {
	return request.headers['x-api-key'] ?? request.headers.authorization;
}

test('each key alone: its provider answers with its first model, said once on stderr; the key went to it and nowhere else', async () => {
	for (const id of order) {
		const key = `sk-zero-${id}-4646`;
		const {request, stderr} = await answered(box(), {[variables[id]]: key});
		assert.equal(request.body.model, models[id], id);
		assert.match(String(keyOf(request)), new RegExp(`${key}$`), id);
		const notices = stderr.split('\n').filter(line => line.includes('does not exist, so this run uses'));
		assert.equal(notices.length, 1, stderr);
		assert.match(
			notices[0]!,
			new RegExp(
				`^i: no config: .*config\\.json does not exist, so this run uses ${id}/${models[id]}, the first of anthropic, openai, deepseek, openrouter, gemini, xai, mistral, groq whose key is set \\(key from ${variables[id]}\\); choose another with --model`,
			),
		);
		assert.ok(!stderr.includes(key), 'the key is never shown');
	}
});

test('a key stored in auth.json counts as its variable does', async () => {
	const sandbox = box();
	writeFileSync(join(sandbox.configDir, 'auth.json'), JSON.stringify({deepseek: {type: 'api_key', key: 'sk-zero-stored-4646'}}), {mode: 0o600});
	const {request, stderr} = await answered(sandbox, {});
	assert.equal(request.body.model, models.deepseek);
	assert.equal(request.headers.authorization, 'Bearer sk-zero-stored-4646');
	assert.match(stderr, /so this run uses deepseek\/.* \(key from auth\.json \(API key\)\)/);
});

test('two keys: the order decides (openai before deepseek, anthropic before openrouter)', async () => {
	const one = await answered(box(), {DEEPSEEK_API_KEY: 'sk-zero-ds', OPENAI_API_KEY: 'sk-zero-oa'});
	assert.equal(one.request.body.model, models.openai);
	assert.match(one.stderr, /this run uses openai\//);
	const two = await answered(box(), {OPENROUTER_API_KEY: 'sk-zero-or', ANTHROPIC_API_KEY: 'sk-zero-an'});
	assert.equal(two.request.body.model, models.anthropic);
	assert.equal(two.request.headers['x-api-key'], 'sk-zero-an');
});

test('no key anywhere: the commands, exit 2, nothing sent; a flag that chooses (--model) is never overridden', async () => {
	const sandbox = box();
	const from = mock.requests.length;
	const none = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(none.code, 2);
	assert.match(none.stderr, /^i: no model config: .*config\.json does not exist\. Choose a model:\n/);
	assert.doesNotMatch(none.stderr, /this run uses/);
	assert.equal(mock.requests.length, from);

	// With --model the flag chooses, whatever key is set, and nothing is said about a config.
	mock.enqueue({text: 'flag answer'});
	const flagged = await runCli(['-p', 'hi', '--model', `openrouter/${models.openrouter}`, '-C', sandbox.workspace], {
		env: {...sandbox.env, ANTHROPIC_API_KEY: 'sk-a', OPENROUTER_API_KEY: 'sk-o'},
	});
	assert.equal(flagged.code, 0, flagged.stderr);
	assert.doesNotMatch(flagged.stderr, /this run uses/);
});

test('a saved config whose key is gone: exit 2 with the fix, nothing sent, even with another provider key set', async () => {
	const sandbox = box();
	writeFileSync(join(sandbox.configDir, 'config.json'), JSON.stringify({provider: 'deepseek'}));
	const from = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env: {...sandbox.env, OPENAI_API_KEY: 'sk-other'}});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /^i: no API key for deepseek: .*environment variable DEEPSEEK_API_KEY is not set; export DEEPSEEK_API_KEY with your API key or run i auth login deepseek\n$/);
	assert.equal(mock.requests.length, from);
});
