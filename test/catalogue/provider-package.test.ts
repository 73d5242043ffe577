// The provider package as i loads it by default, through the built CLI,
// against local SSE servers: streaming gated on the first delta reaching
// the host, UTF-8 split across chunks, usage, one terminal, cancel before
// the stream ends, HTTP 401, auth isolation between two providers and two
// keys, models.json endpoint and header overrides, llama.cpp sending no
// authorization header, DeepSeek's reasoning_content going back on a tool
// continuation, choosing with --provider / --model and their errors, and
// --list-models with and without the package.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {readFileSync, writeFileSync, mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {chunk, done, finishChunk, gate, startGateServer, textChunk, usageChunk, type GateServer} from '../fixtures/gate-server.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {importRecorder} from '../helpers/import-log.js';
import {startTestProxy} from '../helpers/http-proxy.js';

const DS_KEY = 'sk-deepseek-secret-1111';
const OR_KEY = 'sk-openrouter-secret-2222';
const OPENAI_KEY = 'sk-openai-secret-3333';

function sandbox(models?: Record<string, unknown>): Sandbox {
	const box = makeSandbox();
	if (models) writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: models}));
	return box;
}

function env(box: Sandbox, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	return {...box.env, ...extra};
}

const reply = (text: string) => ({parts: [textChunk(text), finishChunk(), usageChunk(5, 2), done]});

async function withServers<T>(count: number, body: (servers: GateServer[]) => Promise<T>): Promise<T> {
	const servers = await Promise.all(Array.from({length: count}, async () => startGateServer()));
	try {
		return await body(servers);
	} finally {
		await Promise.all(servers.map(async server => server.close()));
	}
}

test('the package streams: the first delta reaches i before the server sends the rest; a UTF-8 character split across chunks comes out whole; usage and exactly one terminal', async () => {
	await withServers(1, async ([server]) => {
		const box = sandbox({deepseek: {baseUrl: server!.baseUrl, headers: {'x-team': 'team-header-value'}}});
		const shown = gate();
		const bytes = Buffer.from(textChunk('世界'));
		const cut = bytes.indexOf(Buffer.from('世')) + 1;
		server!.enqueue({parts: [textChunk('Hel'), shown.promise, bytes.subarray(0, cut), bytes.subarray(cut), finishChunk(), usageChunk(11, 3, 4), done]});
		const run = await runCli(['-p', 'hi', '--json', '--model', 'deepseek/deepseek-chat', '-C', box.workspace], {
			env: env(box, {DEEPSEEK_API_KEY: DS_KEY}),
			onSpawn(_child, output) {
				const timer = setInterval(() => {
					if (output.stdout().includes('"text_delta"')) {
						clearInterval(timer);
						shown.open();
					}
				}, 5);
			},
		});
		assert.equal(run.code, 0, run.stderr);
		const events = jsonEvents(run.stdout);
		assert.equal(
			events
				.filter(event => event.type === 'text_delta')
				.map(event => event.text)
				.join(''),
			'Hel世界',
		);
		assert.ok(!events.some(event => event.type === 'text_delta' && event.text.includes('\uFFFD')));
		const usage = events.filter(event => event.type === 'usage');
		assert.deepEqual(
			usage.map(event => [event.model, event.usage.input, event.usage.output, event.usage.cacheRead]),
			[['deepseek-chat', 11, 3, 4]],
		);
		assert.equal(events.filter(event => event.type === 'done' || event.type === 'error').length, 1);
		const [request] = server!.requests;
		assert.equal(request!.path, '/v1/chat/completions');
		assert.equal(request!.headers.authorization, `Bearer ${DS_KEY}`);
		assert.equal(request!.headers['x-team'], 'team-header-value');
		// deepseek-chat is an old name: it goes out as deepseek-flash with thinking off.
		assert.equal(request!.body.model, 'deepseek-flash');
		assert.deepEqual(request!.body.thinking, {type: 'disabled'});
		assert.equal(request!.body.stream, true);
		// Nothing secret in what i printed.
		assert.doesNotMatch(run.stdout + run.stderr, new RegExp(`${DS_KEY}|team-header-value`));
	});
});

test('the package’s requests go through the host’s HTTP layer (io.completions): HTTP_PROXY carries them, as it does the built-in adapters’', async () => {
	await withServers(1, async ([server]) => {
		const proxy = await startTestProxy();
		try {
			const box = sandbox({deepseek: {baseUrl: server!.baseUrl}});
			server!.enqueue(reply('proxied'));
			const run = await runCli(['-p', 'hi', '--model', 'deepseek/deepseek-chat', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY, HTTP_PROXY: proxy.url})});
			assert.equal(run.code, 0, run.stderr);
			assert.equal(run.stdout, 'proxied\n');
			assert.deepEqual(proxy.forwarded, [`${server!.baseUrl.replace(/\/+$/, '')}/chat/completions`]);
		} finally {
			await proxy.close();
		}
	});
});

test('HTTP 401: the turn fails naming the provider and the server’s message, the key hidden even when the server echoes it', async () => {
	await withServers(1, async ([server]) => {
		const box = sandbox({deepseek: {baseUrl: server!.baseUrl}});
		server!.enqueue({status: 401, body: JSON.stringify({error: {message: `invalid key ${DS_KEY}`}})});
		const run = await runCli(['-p', 'hi', '--model', 'deepseek-chat', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY})});
		assert.equal(run.code, 1);
		assert.match(run.stderr, /provider "deepseek": deepseek: HTTP 401: invalid key \[redacted\] \(POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\)/);
		assert.doesNotMatch(run.stdout + run.stderr, new RegExp(DS_KEY));
	});
});

test('auth isolation: two providers on two servers with two keys; each server sees only its own key, and OPENAI_API_KEY reaches neither', async () => {
	await withServers(2, async ([one, two]) => {
		const box = sandbox({deepseek: {baseUrl: one!.baseUrl}, openrouter: {baseUrl: two!.baseUrl}});
		one!.enqueue(reply('from deepseek'));
		two!.enqueue(reply('from openrouter'));
		const keys = {DEEPSEEK_API_KEY: DS_KEY, OPENROUTER_API_KEY: OR_KEY, OPENAI_API_KEY: OPENAI_KEY};
		const first = await runCli(['-p', 'hi', '--provider', 'deepseek', '-C', box.workspace], {env: env(box, keys)});
		const second = await runCli(['-p', 'hi', '--model', 'openrouter/deepseek/deepseek-v4-flash', '-C', box.workspace], {env: env(box, keys)});
		assert.equal(first.code, 0, first.stderr);
		assert.equal(second.code, 0, second.stderr);
		assert.equal(first.stdout.trim(), 'from deepseek');
		assert.equal(second.stdout.trim(), 'from openrouter');
		assert.deepEqual(
			one!.requests.map(request => [request.headers.authorization, request.body.model]),
			[[`Bearer ${DS_KEY}`, 'deepseek-flash']],
		);
		assert.deepEqual(
			two!.requests.map(request => [request.headers.authorization, request.body.model]),
			[[`Bearer ${OR_KEY}`, 'deepseek/deepseek-v4-flash']],
		);
		for (const request of [...one!.requests, ...two!.requests]) assert.doesNotMatch(JSON.stringify(request.headers) + JSON.stringify(request.body), new RegExp(OPENAI_KEY));
	});
});

test('llama.cpp is anonymous: no authorization header on the wire, with every other key in the environment; the output cap is max_tokens', async () => {
	await withServers(1, async ([server]) => {
		const box = sandbox({'llama-cpp': {baseUrl: server!.baseUrl}});
		writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'llama-cpp', model: 'local', max_tokens: 77}));
		server!.enqueue(reply('local answer'));
		const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY, OPENAI_API_KEY: OPENAI_KEY, OPENROUTER_API_KEY: OR_KEY})});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout.trim(), 'local answer');
		const [request] = server!.requests;
		assert.equal(request!.headers.authorization, undefined);
		assert.doesNotMatch(JSON.stringify(request!.headers), /sk-/);
		assert.equal(request!.body.max_tokens, 77);
		assert.equal(request!.body.max_completion_tokens, undefined);
	});
});

test('cancel before the stream ends: SIGINT after the first delta closes the connection; i exits 130 and keeps what was shown', async () => {
	await withServers(1, async ([server]) => {
		const box = sandbox({deepseek: {baseUrl: server!.baseUrl}});
		server!.enqueue({parts: [textChunk('partial')], hang: true});
		const run = await runCli(['-p', 'hi', '--model', 'deepseek/deepseek-chat', '-C', box.workspace], {
			env: env(box, {DEEPSEEK_API_KEY: DS_KEY}),
			onSpawn(child, output) {
				const timer = setInterval(() => {
					if (output.stdout().includes('partial')) {
						clearInterval(timer);
						child.kill('SIGINT');
					}
				}, 5);
			},
		});
		assert.equal(run.code, 130, run.stderr);
		assert.match(run.stdout, /partial/);
		await server!.requests[0]!.closedEarly;
	});
});

test('DeepSeek tool continuation: the reasoning_content of the turn that called a tool goes back on the next request (requiresReasoningContent)', async () => {
	await withServers(1, async ([server]) => {
		const box = sandbox({deepseek: {baseUrl: server!.baseUrl}});
		writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
		const call = chunk({tool_calls: [{index: 0, id: 'call_1', type: 'function', function: {name: 'read', arguments: JSON.stringify({files: [{path: 'a.txt'}]})}}]});
		server!.enqueue({parts: [chunk({reasoning_content: 'I should read a.txt'}), call, finishChunk('tool_calls'), usageChunk(5, 2), done]}, reply('it says alpha'));
		const run = await runCli(['-p', 'read a.txt', '--yolo', '--model', 'deepseek/deepseek-reasoner', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY})});
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, /it says alpha/);
		const second = server!.requests[1]!.body.messages as Array<Record<string, unknown>>;
		const assistant = second.find(message => message.role === 'assistant');
		assert.equal(assistant?.reasoning_content, 'I should read a.txt');
		assert.equal((assistant?.tool_calls as unknown[] | undefined)?.length, 1);
		assert.ok(second.some(message => message.role === 'tool' && message.tool_call_id === 'call_1' && String(message.content).includes('alpha')));
	});
});

test('choosing: the config’s "provider", --model over it, --provider alone; unknown ids are exit 2 naming the nearest; a config mixing both ways is refused clearly', async () => {
	await withServers(1, async ([server]) => {
		const box = sandbox({deepseek: {baseUrl: server!.baseUrl}, openrouter: {baseUrl: server!.baseUrl}});
		const keys = {DEEPSEEK_API_KEY: DS_KEY, OPENROUTER_API_KEY: OR_KEY};
		writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'deepseek', model: 'deepseek-reasoner'}));
		server!.enqueue(reply('a'), reply('b'), reply('c'));
		assert.equal((await runCli(['-p', 'hi', '-C', box.workspace], {env: env(box, keys)})).code, 0);
		assert.equal((await runCli(['-p', 'hi', '--model', 'openrouter/openai/gpt-5', '-C', box.workspace], {env: env(box, keys)})).code, 0);
		// --provider alone keeps the config's model when it is that provider's.
		assert.equal((await runCli(['-p', 'hi', '--provider', 'deepseek', '-C', box.workspace], {env: env(box, keys)})).code, 0);
		assert.deepEqual(
			server!.requests.map(request => [request.body.model, request.headers.authorization]),
			[
				['deepseek-flash', `Bearer ${DS_KEY}`],
				['openai/gpt-5', `Bearer ${OR_KEY}`],
				['deepseek-flash', `Bearer ${DS_KEY}`],
			],
		);
		const unknownModel = await runCli(['-p', 'hi', '--model', 'deepseek/deepseek-chatt', '-C', box.workspace], {env: env(box, keys)});
		assert.equal(unknownModel.code, 2);
		assert.match(unknownModel.stderr, /--model: provider "deepseek" has no model "deepseek-chatt"; the nearest: deepseek-chat, .*; i --list-models lists them/);
		// PROVIDER/MODEL stays with PROVIDER, even when another provider lists the same text as a model id of its own.
		writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: {deepseek: {baseUrl: server!.baseUrl}, openrouter: {baseUrl: server!.baseUrl, models: [{id: 'deepseek/deepseek-v9'}]}}}));
		const elsewhere = await runCli(['-p', 'hi', '--model', 'deepseek/deepseek-v9', '-C', box.workspace], {env: env(box, keys)});
		assert.equal(elsewhere.code, 2, elsewhere.stderr);
		assert.match(elsewhere.stderr, /--model: provider "deepseek" has no model "deepseek-v9"; the nearest: .*deepseek-/);
		assert.equal(server!.requests.length, 3, 'no request went to another provider');
		const unknownProvider = await runCli(['-p', 'hi', '--provider', 'deepsek', '-C', box.workspace], {env: env(box, keys)});
		assert.equal(unknownProvider.code, 2);
		assert.match(unknownProvider.stderr, /--provider: there is no provider "deepsek" in the catalogue; the nearest: deepseek/);
		// Without extensions the package's providers are gone with their catalogue.
		const without = await runCli(['-p', 'hi', '--no-extensions', '--model', 'deepseek/deepseek-chat', '-C', box.workspace], {env: env(box, keys)});
		assert.equal(without.code, 2);
		assert.match(without.stderr, /--model: no provider of the catalogue has the model "deepseek\/deepseek-chat"/);
		const missingKey = await runCli(['-p', 'hi', '--provider', 'openrouter', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY})});
		assert.equal(missingKey.code, 2);
		assert.match(missingKey.stderr, /no API key for openrouter: .*environment variable OPENROUTER_API_KEY is not set; export OPENROUTER_API_KEY with your API key or run i auth login openrouter/);
		writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'deepseek', protocol: 'openai', api_key_env: 'X', model: 'deepseek-chat'}));
		const mixed = await runCli(['-p', 'hi', '-C', box.workspace], {env: env(box, keys)});
		assert.equal(mixed.code, 2);
		assert.match(mixed.stderr, /"provider": "deepseek" selects a catalogue provider, .* so "protocol", "api_key_env" cannot be set beside it/);
		writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({model: 'deepseek-chat'}));
		const neither = await runCli(['-p', 'hi', '-C', box.workspace], {env: env(box, keys)});
		assert.equal(neither.code, 2);
		assert.match(neither.stderr, /missing field "protocol" \(a built-in wire: .*\) or "provider" \(a catalogue provider/);
		assert.doesNotMatch(unknownModel.stderr + missingKey.stderr + mixed.stderr, /sk-/);
	});
});

test('--model works without a config.json; --provider and --model need a value; --list-models refuses -p', async () => {
	await withServers(1, async ([server]) => {
		const box = sandbox({deepseek: {baseUrl: server!.baseUrl}});
		server!.enqueue(reply('no config needed'));
		const run = await runCli(['-p', 'hi', '--model', 'deepseek/deepseek-chat', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY})});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout.trim(), 'no config needed');
		const empty = await runCli(['-p', 'hi', '--model', ' ', '-C', box.workspace], {env: env(box)});
		assert.equal(empty.code, 2);
		assert.match(empty.stderr, /--model needs a value/);
		const both = await runCli(['--list-models', '-p', 'hi'], {env: env(box)});
		assert.equal(both.code, 2);
		assert.match(both.stderr, /--list-models lists the catalogue and exits; it does not run a turn/);
	});
});

test('--list-models: the catalogue with the package and without it, no credentials needed or shown; --json; models.json entries and their headers never shown', async () => {
	const box = sandbox({proxy: {baseUrl: 'https://gateway.test/v1', headers: {'x-gateway-secret': 'gateway-header-secret'}, models: [{id: 'team-model', cost: {input: 1}}]}});
	const plain = await runCli(['--list-models', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY})});
	assert.equal(plain.code, 0, plain.stderr);
	assert.match(plain.stdout, /^PROVIDER +MODEL +NAME +CONTEXT +MAX OUT +INPUT +IN \$\/M +OUT \$\/M +CACHE READ +CACHE WRITE +KEY$/m);
	assert.match(plain.stdout, /^deepseek +deepseek-chat +.*\$0\.14 +\$0\.28 +\$0\.0028 +\$0 +DEEPSEEK_API_KEY$/m);
	assert.match(plain.stdout, /^openrouter +openai\/gpt-5 +.* \$1\.25 +\$10 +\$0\.125 +\$0 +none \(OPENROUTER_API_KEY not set\)$/m);
	assert.match(plain.stdout, /^llama-cpp +local +.* none needed$/m);
	assert.match(plain.stdout, /^proxy +team-model +team-model +\? +\? +text +\$1 +unknown +unknown +unknown +none \(PROXY_API_KEY not set\)$/m);
	assert.match(plain.stdout, /^anthropic +claude-sonnet-5 /m);
	const json = await runCli(['--list-models', '--json', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY})});
	assert.equal(json.code, 0, json.stderr);
	const rows = JSON.parse(json.stdout) as Array<Record<string, any>>;
	const chat = rows.find(row => row.provider === 'deepseek' && row.model === 'deepseek-chat')!;
	assert.deepEqual(
		[chat.keySet, chat.apiKeyEnv, chat.requiresAuth, chat.cost, chat.source],
		[true, 'DEEPSEEK_API_KEY', true, {input: 0.14, output: 0.28, cacheRead: 0.0028, cacheWrite: 0}, 'extension i-providers'],
	);
	assert.deepEqual(rows.find(row => row.provider === 'openrouter' && row.model === 'deepseek/deepseek-v4-flash')!.cost, {input: 0.14, output: 0.28, cacheRead: null, cacheWrite: null});
	for (const output of [plain.stdout + plain.stderr, json.stdout + json.stderr]) assert.doesNotMatch(output, new RegExp(`${DS_KEY}|gateway-header-secret|x-gateway-secret`));
	const bare = await runCli(['--list-models', '--json', '--no-extensions', '-C', box.workspace], {env: env(box)});
	assert.equal(bare.code, 0, bare.stderr);
	// The proxy entry of models.json has no provider to override without the package: it is a provider of its own then.
	assert.deepEqual([...new Set((JSON.parse(bare.stdout) as Array<{provider: string}>).map(row => row.provider))], ['openai', 'anthropic', 'proxy']);
});

test('removing the package: "providerPackage": false in settings.json; i extensions lists it with its catalogue when loaded', async () => {
	const box = sandbox();
	const listed = await runCli(['extensions', '-C', box.workspace], {env: env(box)});
	assert.equal(listed.code, 0, listed.stderr);
	assert.match(listed.stdout, /^i-providers {2}\S+providers\/dist\/src\/index\.js$/m);
	assert.match(listed.stdout, /from i itself \(the provider package; "providerPackage": false in settings\.json removes it\)/);
	assert.match(listed.stdout, /provider deepseek \(openai-completions, streaming, https:\/\/api\.deepseek\.com, 4 catalogue models, key in DEEPSEEK_API_KEY\)/);
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({providerPackage: false}));
	const gone = await runCli(['extensions', '-C', box.workspace], {env: env(box)});
	assert.match(gone.stdout, /no extensions loaded/);
	const models = await runCli(['--list-models', '--json', '-C', box.workspace], {env: env(box)});
	assert.deepEqual([...new Set((JSON.parse(models.stdout) as Array<{provider: string}>).map(row => row.provider))], ['openai', 'anthropic']);
	mkdirSync(join(box.workspace, '.i'));
	writeFileSync(join(box.workspace, '.i', 'settings.json'), JSON.stringify({providerPackage: true}));
	const back = await runCli(['--list-models', '--json', '-C', box.workspace], {env: env(box)});
	assert.ok((JSON.parse(back.stdout) as Array<{provider: string}>).some(row => row.provider === 'deepseek'));
});

test('a provider id an extension of the person registers wins over the package’s, a trusted project’s too; the package’s is said not to be used', async () => {
	const box = sandbox();
	mkdirSync(join(box.workspace, '.i', 'extensions'), {recursive: true});
	writeFileSync(
		join(box.workspace, '.i', 'extensions', 'mine.mjs'),
		`export default api => {
			api.declare({providers: [{id: 'deepseek', apiKeyEnv: 'DEEPSEEK_API_KEY', models: [{id: 'my-ds', name: 'Mine', provider: 'deepseek', api: 'x'}]}]});
			api.registerStreamingProvider({id: 'deepseek', apiStyle: 'x', request: req => ({role: 'assistant', content: 'from mine with ' + (req.apiKey === null ? 'no key' : 'a key')})});
		}`,
	);
	const listed = await runCli(['--list-models', '--json', '--trust-project', '-C', box.workspace], {env: env(box)});
	assert.equal(listed.code, 0, listed.stderr);
	assert.deepEqual(
		(JSON.parse(listed.stdout) as Array<{provider: string; model: string}>).filter(row => row.provider === 'deepseek').map(row => row.model),
		['my-ds'],
	);
	assert.match(listed.stderr, /extension i-providers: its provider "deepseek" is not used: extension mine \(\S+mine\.mjs\) registered that id first/);
	const run = await runCli(['-p', 'hi', '--trust-project', '--model', 'deepseek/my-ds', '-C', box.workspace], {env: env(box, {DEEPSEEK_API_KEY: DS_KEY})});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout.trim(), 'from mine with a key');
});

test('the package is compiled into the CLI: a run imports none of its files; its own build registers only, and needs the host’s client', async () => {
	await withServers(1, async ([server]) => {
		const box = sandbox({deepseek: {baseUrl: server!.baseUrl}});
		const packageFiles = /\/providers\/(dist|src)\//;
		const imports = async (args: string[], name: string) => {
			const log = join(box.root, name);
			const run = await runCli(args, {env: env(box, {DEEPSEEK_API_KEY: DS_KEY, NODE_OPTIONS: `--import=${importRecorder}`, I_TEST_IMPORT_LOG: log})});
			assert.equal(run.code, 0, run.stderr);
			return {run, imported: readFileSync(log, 'utf8').split('\n')};
		};
		const listed = await imports(['--list-models', '-C', box.workspace], 'list.log');
		assert.match(listed.run.stdout, /^deepseek\s+deepseek-chat/m, 'the package’s providers are in the catalogue');
		assert.deepEqual(
			listed.imported.filter(url => packageFiles.test(url)),
			[],
			'no file of the package is imported',
		);
		server!.enqueue(reply('called'));
		const called = await imports(['-p', 'hi', '--model', 'deepseek/deepseek-chat', '-C', box.workspace], 'call.log');
		assert.match(called.run.stdout, /called/);
		assert.deepEqual(
			called.imported.filter(url => packageFiles.test(url)),
			[],
		);
	});

	// The package's own build (what the unbundled tree and another host import): register declares and
	// registers only, and its requests need the host's client; a host without one is told to upgrade.
	const script = `
		const {default: register} = await import(${JSON.stringify(new URL('../../../providers/dist/src/index.js', import.meta.url).href)});
		const providers = [];
		register({declare() {}, registerStreamingProvider(provider) { providers.push(provider); }});
		process.stdout.write(providers.map(provider => provider.id).join(' ') + '\\n');
		await providers[0].request({model: 'm', messages: [], tools: []}, {}).catch(error => process.stdout.write(error.message + '\\n'));
	`;
	const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'});
	assert.equal(run.status, 0, run.stderr);
	assert.equal(run.stdout, "deepseek openrouter gemini groq mistral xai ollama llama-cpp proxy\ni-providers needs io.completions (the host's own client), which this i does not have: upgrade i\n");
});
