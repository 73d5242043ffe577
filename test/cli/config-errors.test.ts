import {test} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {makeSandbox, runCli} from '../helpers/cli.js';

const base = {protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm'};

async function runWith(config: unknown, options: {raw?: boolean; env?: NodeJS.ProcessEnv} = {}) {
	const box = makeSandbox();
	const path = join(box.configDir, 'config.json');
	writeFileSync(path, options.raw ? String(config) : JSON.stringify(config));
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: {...box.env, ...options.env}});
	return {run, path};
}

test('an unknown field names the file and the field, exit 2', async () => {
	const {run, path} = await runWith({...base, api_key_env: 'TEST_API_KEY', temprature: 1});
	assert.equal(run.code, 2);
	assert.ok(run.stderr.includes(path), run.stderr);
	assert.match(run.stderr, /unknown field "temprature"/);
});

test('a wrong type names the field, exit 2', async () => {
	const {run} = await runWith({...base, api_key_env: 'TEST_API_KEY', max_tokens: '100'});
	assert.equal(run.code, 2);
	// The English message too: zod/mini has none unless core/zod-english.ts installs them.
	assert.match(run.stderr, /field "max_tokens": Invalid input: expected number, received string/);
});

test('an unknown protocol is refused, exit 2', async () => {
	const {run} = await runWith({...base, protocol: 'carrier-pigeon', api_key_env: 'TEST_API_KEY'});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /field "protocol"/);
});

test('invalid JSON names the file, exit 2', async () => {
	const {run, path} = await runWith('{"protocol": "openai",', {raw: true});
	assert.equal(run.code, 2);
	assert.ok(run.stderr.includes(path));
	assert.match(run.stderr, /not valid JSON/);
});

test('a missing API key variable is named, exit 2', async () => {
	const {run} = await runWith({...base, api_key_env: 'NOT_SET_ANYWHERE'});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /environment variable NOT_SET_ANYWHERE is not set/);
});

test('a key pasted into api_key_env is refused without echoing it', async () => {
	const {run} = await runWith({...base, api_key_env: 'sk-live-abc.def'});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /field "api_key_env": must be the NAME of an environment variable/);
	assert.doesNotMatch(run.stderr, /sk-live-abc\.def/);
});

test('extra_body may not override a reserved field', async () => {
	const {run} = await runWith({...base, protocol: 'anthropic', api_key_env: 'TEST_API_KEY', extra_body: {system: 'x', top_k: 3}});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /"extra_body" may not set "system"/);
});

test('an explicit BPE tokenizer fails instead of degrading, with one message naming the value and the fix', async () => {
	const {run, path} = await runWith({...base, api_key_env: 'TEST_API_KEY', budget: {window: 128000, tokenizer: 'cl100k_base'}});
	assert.equal(run.code, 2);
	assert.equal(
		run.stderr,
		`i: config ${path}: field "budget.tokenizer": "cl100k_base" is a BPE tokenizer, and BPE tokenizers were removed; omit "tokenizer" or set it to "utf8_bytes" (a conservative estimate from UTF-8 bytes)\n`,
	);
	const unknown = await runWith({...base, api_key_env: 'TEST_API_KEY', budget: {window: 128000, tokenizer: 'gpt2'}});
	assert.equal(unknown.run.code, 2);
	assert.equal((unknown.run.stderr.match(/tokenizer/g) ?? []).length, 3, unknown.run.stderr);
	assert.match(unknown.run.stderr, /"gpt2" is not a tokenizer; omit "tokenizer" or set it to "utf8_bytes"/);
});

test('no config at all says where it looked and what to do', async () => {
	const box = makeSandbox();
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.ok(run.stderr.includes(join(box.configDir, 'config.json')));
	assert.match(run.stderr, /--config FILE/);
});

test('--config FILE is used instead of the config folder', async () => {
	const box = makeSandbox();
	const path = join(box.root, 'elsewhere.json');
	writeFileSync(path, JSON.stringify({...base, api_key_env: 'TEST_API_KEY', bogus: true}));
	const run = await runCli(['-p', 'hi', '--config', path, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.ok(run.stderr.includes(path));
});

test('usage errors exit 2: unknown flag, both session flags, a missing workspace', async () => {
	const box = makeSandbox();
	const unknown = await runCli(['--frobnicate'], {env: box.env});
	assert.equal(unknown.code, 2);
	const both = await runCli(['-p', 'x', '--session', 'a.json', '--session-name', 'a'], {env: box.env});
	assert.equal(both.code, 2);
	assert.match(both.stderr, /pass one of them/);
	const missing = await runCli(['-p', 'x', '-C', join(box.root, 'nope')], {env: box.env});
	assert.equal(missing.code, 2);
	assert.match(missing.stderr, /does not exist/);
	box.writeConfig(base);
	const name = await runCli(['-p', 'x', '--session-name', '../escape', '-C', box.workspace], {env: box.env});
	assert.equal(name.code, 2);
	assert.match(name.stderr, /session name/i);
});

test('--version and --help answer without a config', async () => {
	const version = await runCli(['--version']);
	assert.equal(version.code, 0);
	assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
	const help = await runCli(['--help']);
	assert.equal(help.code, 0);
	for (const flag of ['--print', '--json', '--config', '--cwd', '--session', '--session-name', '--max-steps', '--yolo', '--dangerously-skip-permissions', '--no-logo', '--version']) {
		assert.ok(help.stdout.includes(flag), `help mentions ${flag}`);
	}
});

/** A config whose extra_body is nested `levels` objects deep (extra_body itself the first), as JSON text: too deep for JSON.stringify here too. */
function nested(config: Record<string, unknown>, levels: number): string {
	const body = `${'{"a":'.repeat(levels - 1)}{"end":true}${'}'.repeat(levels - 1)}`;
	return `${JSON.stringify(config).slice(0, -1)},"extra_body":${body}}`;
}

test('an extra_body nested too deep to send is a configuration error naming it, and no request is attempted', async () => {
	const server = createServer((_request, response) => {
		requests++;
		response.destroy();
	});
	let requests = 0;
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	try {
		const config = {...base, base_url: baseUrl, api_key_env: 'TEST_API_KEY', max_retries: 0};
		const deep = await runWith(nested(config, 5000), {raw: true});
		assert.equal(deep.run.code, 2, deep.run.stderr);
		assert.match(deep.run.stderr, /^i: config .*config\.json: field "extra_body" is nested more than 64 levels deep \(at extra_body(\.a){40}…\); a request body that deep cannot be sent: flatten it\n$/);
		const past = await runWith(nested(config, 65), {raw: true});
		assert.equal(past.run.code, 2);
		assert.equal(requests, 0, 'no request was attempted');
		// At the limit it is sent.
		const at = await runWith(nested(config, 64), {raw: true});
		assert.equal(at.run.code, 1);
		assert.equal(requests, 1);
	} finally {
		server.close();
	}
});
