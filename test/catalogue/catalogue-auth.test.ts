// A catalogue selection's key comes from auth's one resolution
// (credential-for.ts → resolveCredential), through the real `i` against the
// mock provider: auth.json beats the declared variable, models.json's
// variable comes before it, --api-key goes to the selected provider only
// (a built-in adapter and an extension provider given req.apiKey alike),
// the shell tool never sees the key whatever its source, and `i auth`
// knows every catalogue provider.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

const STORED_DS = 'sk-stored-deepseek-5151';
const STORED_OPENAI = 'sk-stored-openai-6262';
const ENV_DS = 'sk-env-deepseek-7373';
const FLAG = 'sk-flag-only-8484';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandbox(models: Record<string, unknown>, auth?: Record<string, unknown>): Sandbox {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: models}));
	if (auth) writeFileSync(join(box.configDir, 'auth.json'), JSON.stringify(auth), {mode: 0o600});
	return box;
}

/** The authorization header of each request a run made. */
async function keysSent(box: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{code: number | null; stderr: string; keys: unknown[]; bodies: string[]}> {
	const from = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', box.workspace, ...args], {env: {...box.env, ...env}});
	const requests = mock.requests.slice(from);
	return {code: run.code, stderr: run.stderr, keys: requests.map(request => request.headers.authorization), bodies: requests.map(request => JSON.stringify(request.body))};
}

test('auth.json over the declared variable, models.json’s variable before it, --api-key for the selected provider only; an extension provider gets the same key as req.apiKey', async () => {
	const base = mock.baseUrl('openai');
	const box = sandbox({deepseek: {baseUrl: base}, openai: {baseUrl: base}}, {deepseek: {type: 'api_key', key: STORED_DS}, openai: {type: 'api_key', key: STORED_OPENAI}});
	// deepseek is the provider package's (an extension provider): its key from auth.json, not DEEPSEEK_API_KEY.
	mock.enqueue({text: 'one'}, {text: 'two'}, {text: 'three'});
	const stored = await keysSent(box, ['--provider', 'deepseek'], {DEEPSEEK_API_KEY: ENV_DS});
	assert.equal(stored.code, 0, stored.stderr);
	assert.deepEqual(stored.keys, [`Bearer ${STORED_DS}`]);
	// --api-key goes to the selection (openai, a built-in adapter) and never to deepseek's next run.
	const flagged = await keysSent(box, ['--model', 'openai/gpt-4.1', '--api-key', FLAG], {DEEPSEEK_API_KEY: ENV_DS});
	assert.equal(flagged.code, 0, flagged.stderr);
	assert.deepEqual(flagged.keys, [`Bearer ${FLAG}`]);
	const flaggedDs = await keysSent(box, ['--provider', 'deepseek', '--api-key', FLAG]);
	assert.equal(flaggedDs.code, 0, flaggedDs.stderr);
	assert.deepEqual(flaggedDs.keys, [`Bearer ${FLAG}`], 'the extension provider is given --api-key as req.apiKey');
	for (const run of [stored, flagged, flaggedDs]) assert.doesNotMatch(run.stderr + run.bodies.join(''), /sk-/);

	// models.json's "apiKey" variable comes before the declared DEEPSEEK_API_KEY (auth.json absent).
	const named = sandbox({deepseek: {baseUrl: base, apiKey: 'MY_DS_KEY'}});
	mock.enqueue({text: 'four'}, {text: 'five'});
	const viaModels = await keysSent(named, ['--provider', 'deepseek'], {DEEPSEEK_API_KEY: ENV_DS, MY_DS_KEY: 'sk-models-json-9595'});
	assert.equal(viaModels.code, 0, viaModels.stderr);
	assert.deepEqual(viaModels.keys, ['Bearer sk-models-json-9595']);
	const fallsBack = await keysSent(named, ['--provider', 'deepseek'], {DEEPSEEK_API_KEY: ENV_DS, MY_DS_KEY: '  '});
	assert.equal(fallsBack.code, 0, fallsBack.stderr);
	assert.deepEqual(fallsBack.keys, [`Bearer ${ENV_DS}`], 'a blank models.json variable does not count');
	const none = await keysSent(named, ['--provider', 'deepseek']);
	assert.equal(none.code, 2);
	assert.match(none.stderr, /no API key for deepseek: .*environment variable MY_DS_KEY is not set \(named by "apiKey" in .*models\.json\); environment variable DEEPSEEK_API_KEY is not set/);
	assert.deepEqual(none.keys, []);
});

test('the shell tool hides a catalogue selection’s key from auth.json and the provider’s variables, under any name', async () => {
	const box = sandbox({openai: {baseUrl: mock.baseUrl('openai')}}, {openai: {type: 'api_key', key: STORED_OPENAI}});
	mock.enqueue({toolCalls: [{id: 'e1', name: 'shell', arguments: JSON.stringify({command: 'env; echo shell-ran'})}]}, {text: 'done'});
	const from = mock.requests.length;
	const run = await runCli(['-p', 'show env', '--yolo', '--model', 'openai/gpt-4.1', '-C', box.workspace], {
		env: {...box.env, COPY_OF_STORED_KEY: STORED_OPENAI, OPENAI_API_KEY: 'sk-declared-openai-1212'},
	});
	assert.equal(run.code, 0, run.stderr);
	const [first, second] = mock.requests.slice(from);
	assert.equal(first!.headers.authorization, `Bearer ${STORED_OPENAI}`);
	const followUp = JSON.stringify(second!.body);
	assert.match(followUp, /shell-ran/);
	assert.doesNotMatch(followUp, new RegExp(`${STORED_OPENAI}|COPY_OF_STORED_KEY|OPENAI_API_KEY|sk-declared-openai-1212`));
});

test('i auth knows every catalogue provider: the package’s, models.json’s (its variable first), a config’s catalogue "provider"; an unknown id exits 2 naming the nearest', async () => {
	const box = sandbox({mine: {baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'MINE_KEY', models: [{id: 'm'}]}, proxy: {models: [{id: 'any'}]}});
	const check = async (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['auth', 'check', ...args], {env: {...box.env, ...env}});
	const openrouter = await check(['openrouter'], {OPENROUTER_API_KEY: 'sk-or-1'});
	assert.equal(openrouter.code, 0, openrouter.stderr);
	assert.equal(openrouter.stdout, 'openrouter: ready, the key comes from OPENROUTER_API_KEY\n');
	const llama = await check(['llama-cpp']);
	assert.equal(llama.code, 0, llama.stderr);
	assert.match(llama.stdout, /^llama-cpp: ready without a key/);
	const mine = await check(['mine']);
	assert.equal(mine.code, 1);
	assert.match(mine.stdout, /^no API key for mine: .*environment variable MINE_KEY is not set \(named by "apiKey" in .*models\.json\)/);
	const unknown = await check(['openroutr']);
	assert.equal(unknown.code, 2);
	assert.match(unknown.stderr, /^i: auth check: unknown provider "openroutr" \(did you mean openrouter\?\); the known providers are .*\bmine\b/);
	const login = await runCli(['auth', 'login', 'proxy'], {env: box.env, input: 'sk-proxy-typed-3030\n'});
	assert.equal(login.code, 0, login.stderr);
	// A config that names a catalogue provider: auth check without an id checks it, and --api-key counts for it.
	writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'proxy', model: 'any'}));
	const selected = await check([]);
	assert.equal(selected.code, 0, selected.stderr);
	assert.equal(selected.stdout, 'proxy: ready, the key comes from auth.json (API key)\n');
	const flag = await check(['--api-key', 'sk-x-4040']);
	assert.equal(flag.stdout, 'proxy: ready, the key comes from --api-key (this run only)\n');
	// It is checked as the run selects it: a model the provider does not list is the run's error (exit 2).
	writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'proxy', model: 'unlisted'}));
	const unlisted = await check([]);
	assert.equal(unlisted.code, 2);
	assert.match(unlisted.stderr, /^i: auth check: config .*config\.json: provider "proxy" has no model "unlisted"/);
	assert.doesNotMatch(login.stdout + login.stderr + selected.stdout + flag.stdout, /sk-proxy-typed-3030|sk-x-4040/);
});
