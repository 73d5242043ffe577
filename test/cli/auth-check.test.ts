import {test} from 'node:test';
import assert from 'node:assert/strict';
import {chmodSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {runAuth} from '../../source/commands/auth-command.js';
import {catalogueAuth} from '../../source/commands/run-catalogue.js';
import {buildCatalogue} from '../../source/core/catalogue/build-catalogue.js';
import {checkModelsFile} from '../../source/core/catalogue/models-file.js';

const hour = 3_600_000;
const base = {protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm'};

function sandboxWith(config: Record<string, unknown> | undefined, auth?: unknown): Sandbox {
	const box = makeSandbox();
	if (config) box.writeConfig({...base, ...config});
	if (auth !== undefined) writeFileSync(join(box.configDir, 'auth.json'), typeof auth === 'string' ? auth : JSON.stringify(auth), {mode: 0o600});
	return box;
}

async function check(box: Sandbox, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
	return runCli(['auth', 'check', ...args], {env: {...box.env, ...env}});
}

test('auth check: the declared variable of the config, then --api-key over it, each named without its value', async () => {
	const box = sandboxWith({api_key_env: 'TEST_API_KEY'});
	const declared = await check(box);
	assert.equal(declared.code, 0, declared.stderr);
	assert.equal(declared.stdout, `openai: ready, the key comes from TEST_API_KEY (named by "api_key_env" in ${join(box.configDir, 'config.json')})\n`);
	const flag = await check(box, ['--api-key', 'sk-flag-distinct-77']);
	assert.equal(flag.code, 0, flag.stderr);
	assert.equal(flag.stdout, 'openai: ready, the key comes from --api-key (this run only)\n');
	assert.doesNotMatch(flag.stdout + flag.stderr, /sk-flag-distinct-77|sk-test-secret-123/);
});

test('auth check takes PROVIDER, --provider and --model as a run does, and --api-key is for the provider they select', async () => {
	const box = sandboxWith({api_key_env: 'TEST_API_KEY'});
	const key = 'sk-flag-distinct-77';
	// PROVIDER is --provider: `i --provider deepseek --api-key K` would send K to deepseek.
	for (const args of [['deepseek'], ['--provider', 'deepseek'], ['--model', 'deepseek/deepseek-chat'], ['deepseek', '--model', 'deepseek-chat']]) {
		const flagged = await check(box, [...args, '--api-key', key]);
		assert.equal(flagged.code, 0, `${args.join(' ')}: ${flagged.stderr}`);
		assert.equal(flagged.stdout, 'deepseek: ready, the key comes from --api-key (this run only)\n');
		const without = await check(box, args);
		assert.equal(without.code, 1);
		assert.match(without.stdout, /^no API key for deepseek: .*environment variable DEEPSEEK_API_KEY is not set/);
		assert.doesNotMatch(flagged.stdout + flagged.stderr + without.stdout, new RegExp(key));
	}

	// Naming the config's provider is the same as naming none.
	const same = await check(box, ['openai', '--api-key', key]);
	assert.equal(same.code, 0);
	assert.match(same.stdout, /--api-key \(this run only\)/);
	// --model openai/… selects the catalogue's openai, whose variable is OPENAI_API_KEY, not the config's api_key_env: the run says the same.
	const byCatalogue = await check(box, ['--model', 'openai/gpt-4.1']);
	assert.equal(byCatalogue.code, 1);
	assert.match(byCatalogue.stdout, /^no API key for openai: .*environment variable OPENAI_API_KEY is not set/);
	const run = await runCli(['-p', 'hi', '--model', 'openai/gpt-4.1', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.ok(run.stderr.includes(byCatalogue.stdout.trim()), `the run says what the check says:\n${run.stderr}\n${byCatalogue.stdout}`);
});

test('auth check with --provider or --model needs no config, and fails where the run fails (exit 2, the same words)', async () => {
	const box = sandboxWith(undefined);
	const ready = await check(box, ['--model', 'deepseek/deepseek-chat', '--api-key', 'sk-flag-no-config-1']);
	assert.equal(ready.code, 0, ready.stderr);
	assert.equal(ready.stdout, 'deepseek: ready, the key comes from --api-key (this run only)\n');
	const unknown = await check(box, ['--model', 'deepseek/no-such-model']);
	const run = await runCli(['-p', 'hi', '--model', 'deepseek/no-such-model', '-C', box.workspace], {env: box.env});
	assert.equal(unknown.code, 2);
	assert.equal(run.code, 2);
	const reason = /--model: .*/.exec(run.stderr)?.[0];
	assert.ok(reason, run.stderr);
	assert.equal(unknown.stderr, `i: auth check: ${reason}\n`);
	// PROVIDER with --model is --provider with it: a model that provider does not list is the run's error.
	const both = await check(box, ['deepseek', '--model', 'openai/gpt-4.1']);
	const bothRun = await runCli(['-p', 'hi', '--provider', 'deepseek', '--model', 'openai/gpt-4.1', '-C', box.workspace], {env: box.env});
	assert.equal(both.code, 2);
	assert.equal(bothRun.code, 2);
	assert.equal(both.stderr, `i: auth check: ${/--model: .*/.exec(bothRun.stderr)?.[0]}\n`);
	const twice = await check(box, ['deepseek', '--provider', 'openai']);
	assert.equal(twice.code, 2);
	assert.equal(twice.stderr, 'i: auth check: PROVIDER "deepseek" and --provider "openai" differ: give one of them\n');
});

test('auth check: an auth.json key beats the variable; an OAuth token counts until it expires', async () => {
	const keyed = sandboxWith({api_key_env: 'TEST_API_KEY'}, {openai: {type: 'api_key', key: 'sk-stored-1'}});
	const stored = await check(keyed);
	assert.equal(stored.code, 0);
	assert.equal(stored.stdout, 'openai: ready, the key comes from auth.json (API key)\n');

	const expires = Date.now() + 48 * hour;
	const oauth = sandboxWith({api_key_env: 'UNSET_VARIABLE'}, {openai: {type: 'oauth', access: 'tok-1', refresh: 'ref-1', expires}});
	const valid = await check(oauth, ['--json']);
	assert.equal(valid.code, 0);
	const report = JSON.parse(valid.stdout);
	assert.equal(report.source, 'auth.json');
	assert.equal(report.detail, `auth.json (OAuth token valid until ${new Date(expires).toISOString().slice(0, 16).replace('T', ' ')} UTC)`);

	const old = sandboxWith({api_key_env: 'UNSET_VARIABLE'}, {openai: {type: 'oauth', access: 'tok-1', expires: Date.now() - hour}});
	const expired = await check(old);
	assert.equal(expired.code, 1);
	assert.match(expired.stdout, /the OAuth token for openai in auth\.json \(.*\) expired \d{4}-\d\d-\d\d \d\d:\d\d UTC; environment variable UNSET_VARIABLE is not set/);
	// The expired token is skipped in favour of a variable that is set, and said.
	const fallback = await check(old, [], {UNSET_VARIABLE: 'sk-now-set'});
	assert.equal(fallback.code, 0);
	assert.match(fallback.stdout, /ready, the key comes from UNSET_VARIABLE .*; skipped: the OAuth token for openai in auth\.json .* expired/);
});

test('auth check: none, blank values, and the protocol never implying a key', async () => {
	const box = sandboxWith({protocol: 'deepseek', api_key_env: 'DS_KEY'});
	const none = await check(box, [], {OPENAI_API_KEY: 'sk-openai', DEEPSEEK_API_KEY: 'sk-ds-usual'});
	assert.equal(none.code, 1);
	assert.match(none.stdout, /^no API key for deepseek: auth\.json \(.*\) has no entry for deepseek; environment variable DS_KEY is not set \(named by "api_key_env" in .*\); export DS_KEY/);
	const blank = await check(box, ['--api-key', ' '], {DS_KEY: '  '});
	assert.equal(blank.code, 1);
	assert.match(blank.stdout, /--api-key is blank; .*environment variable DS_KEY is blank/);
	const blankStored = sandboxWith({api_key_env: 'UNSET_VARIABLE'}, {openai: {type: 'api_key', key: ''}});
	const stored = await check(blankStored, ['--json']);
	assert.equal(stored.code, 1);
	assert.deepEqual(Object.keys(JSON.parse(stored.stdout)), ['provider', 'ready', 'problem', 'reason']);
	assert.match(JSON.parse(stored.stdout).reason, /the key for openai in auth\.json .* is blank/);
});

test('auth check: configuration errors exit 2: an unknown provider, a broken auth.json, a broken or missing config', async () => {
	const box = sandboxWith({api_key_env: 'TEST_API_KEY'});
	const unknown = await check(box, ['deepsek']);
	assert.equal(unknown.code, 2);
	assert.equal(
		unknown.stderr,
		'i: auth check: unknown provider "deepsek" (did you mean deepseek?); the known providers are openai, anthropic, deepseek, openrouter, gemini, groq, mistral, xai, ollama, llama-cpp, proxy\n',
	);
	const broken = sandboxWith({api_key_env: 'TEST_API_KEY'}, '{"openai": ');
	const brokenRun = await check(broken);
	assert.equal(brokenRun.code, 2);
	assert.match(brokenRun.stderr, new RegExp(`^i: auth check: auth file ${join(broken.configDir, 'auth.json')}: not valid JSON`));
	const json = await check(broken, ['--json']);
	assert.equal(json.code, 2);
	assert.equal(JSON.parse(json.stdout).problem, 'config');
	const noConfig = sandboxWith(undefined);
	const bare = await check(noConfig);
	assert.equal(bare.code, 2);
	assert.match(bare.stderr, /no model config: .*config\.json does not exist, so no provider is selected; name one \(i auth check PROVIDER, --provider ID or --model ID\) or pass --config FILE/);
	// Without a config a named provider is checked against its own declared variable.
	const named = await check(noConfig, ['deepseek'], {DEEPSEEK_API_KEY: 'sk-ds'});
	assert.equal(named.code, 0);
	assert.equal(named.stdout, 'deepseek: ready, the key comes from DEEPSEEK_API_KEY\n');
	writeFileSync(join(noConfig.configDir, 'config.json'), '{"protocol": ');
	const badConfig = await check(noConfig, ['deepseek']);
	assert.equal(badConfig.code, 2);
	assert.match(badConfig.stderr, /config .*config\.json: not valid JSON/);
});

test('auth.json in a folder others can write to is refused by a run, auth check and login, naming the folder, its mode and the fix; 0755 and 0700 are fine', {skip: process.platform === 'win32'}, async () => {
	const box = sandboxWith({api_key_env: 'TEST_API_KEY'}, {openai: {type: 'api_key', key: 'sk-stored-in-shared'}});
	const fix = `its folder ${box.configDir} can be written by other users`;
	for (const mode of [0o777, 0o775]) {
		chmodSync(box.configDir, mode);
		const shown = `(mode 0${mode.toString(8)}), who could replace or remove the file; it holds keys, so it is not used: run chmod go-w ${box.configDir}`;
		const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 2);
		assert.ok(run.stderr.includes(`${fix} ${shown}`), run.stderr);
		const checked = await check(box);
		assert.equal(checked.code, 2);
		assert.ok(checked.stderr.startsWith(`i: auth check: auth file ${join(box.configDir, 'auth.json')}: ${fix} ${shown}`), checked.stderr);
		assert.doesNotMatch(run.stderr + checked.stdout + checked.stderr, /sk-stored-in-shared/);
	}

	for (const mode of [0o755, 0o700]) {
		chmodSync(box.configDir, mode);
		const checked = await check(box);
		assert.equal(checked.code, 0, checked.stderr);
		assert.equal(checked.stdout, 'openai: ready, the key comes from auth.json (API key)\n');
	}

	// Login into such a folder stops before the key is read, and writes nothing.
	const empty = sandboxWith(undefined);
	chmodSync(empty.configDir, 0o777);
	const login = await runCli(['auth', 'login', 'deepseek'], {env: empty.env, input: 'sk-never-stored\n'});
	assert.equal(login.code, 2);
	assert.match(login.stderr, /^i: auth login: auth file .*auth\.json: its folder .* can be written by other users \(mode 0777\)/);
	assert.doesNotMatch(login.stderr, /API key for deepseek/, 'the key was never asked for');
	assert.deepEqual(readdirSync(empty.configDir), []);
});

test('auth check with a catalogue: the models.json variable and an anonymous provider (the command takes its catalogue as a parameter)', async () => {
	const box = sandboxWith(undefined);
	process.env.I_CONFIG_DIR = box.configDir;
	const entry = (id: string, fields: Record<string, unknown>) => ({
		extension: 'x',
		entry: {id, requiresAuth: true, models: [{id: `${id}-m`, name: 'M', provider: id, api: 'openai-completions', input: ['text' as const], reasoning: false, cost: {}}], ...fields},
	});
	const models = checkModelsFile({providers: {proxy: {apiKey: 'MY_PROXY_KEY'}}}, '/x/models.json', false);
	const catalogue = catalogueAuth(buildCatalogue([entry('llama-cpp', {requiresAuth: false}), entry('proxy', {apiKeyEnv: 'PROXY_API_KEY'})], [models]));

	const run = async (args: string[], env: NodeJS.ProcessEnv) => {
		let out = '';
		let err = '';
		const code = await runAuth(['check', ...args], {catalogue, env, out: text => (out += text), err: text => (err += text)});
		return {code, out, err};
	};

	const fromModels = await run(['proxy'], {MY_PROXY_KEY: 'sk-m', PROXY_API_KEY: 'sk-p'});
	assert.deepEqual(fromModels, {code: 0, out: 'proxy: ready, the key comes from MY_PROXY_KEY (named by "apiKey" in /x/models.json)\n', err: ''});
	const declared = await run(['--model', 'proxy/proxy-m'], {PROXY_API_KEY: 'sk-p'});
	assert.equal(declared.code, 0);
	assert.match(declared.out, /the key comes from PROXY_API_KEY; skipped: environment variable MY_PROXY_KEY is not set/);
	const anonymous = await run(['--provider', 'llama-cpp'], {});
	assert.deepEqual(anonymous, {code: 0, out: 'llama-cpp: ready without a key (llama-cpp allows requests without one)\n', err: ''});
	const unknown = await run(['nope'], {});
	assert.equal(unknown.code, 2);
	assert.match(unknown.err, /the known providers are openai, anthropic, llama-cpp, proxy, deepseek/);
});

test('i auth with no command, a wrong one, and --help', async () => {
	const box = sandboxWith(undefined);
	const none = await runCli(['auth'], {env: box.env});
	assert.equal(none.code, 2);
	assert.match(none.stderr, /^i: auth: name what to do: i auth check \[PROVIDER\], i auth login PROVIDER or i auth logout PROVIDER/);
	const typo = await runCli(['auth', 'chek'], {env: box.env});
	assert.equal(typo.code, 2);
	assert.match(typo.stderr, /unknown auth command "chek" \(did you mean i auth check\?\)/);
	const help = await runCli(['auth', '--help'], {env: box.env});
	assert.equal(help.code, 0);
	assert.match(help.stdout, /^i auth — credentials for model providers/);
	assert.match(help.stdout, /0 ready · 1 missing credentials · 2 configuration error/);
	const main = await runCli(['--help'], {env: box.env});
	assert.match(main.stdout, /i auth check \[PROVIDER\]/);
	assert.match(main.stdout, /--api-key KEY/);
});
