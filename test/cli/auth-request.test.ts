// The credential a run resolves (source/core/auth) through the real `i`
// against the mock provider: the header the server received, and the key in
// no file `i` wrote, no --json event, no stderr line, no shell output and no
// later request body, whether it came from auth.json (a key, or OAuth tokens
// an extension's flow refreshed) or --api-key.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {oauthExtensionSource, startOAuthServer} from '../fixtures/provider-oauth-server.js';
import {jsonEvents, makeSandbox, runCli, writeExtensionFile, type Sandbox} from '../helpers/cli.js';
import {everythingWritten} from '../helpers/no-secret.js';

const example = fileURLToPath(new URL('../../../examples/extension-provider', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandboxFor(protocol: 'openai' | 'anthropic', auth?: Record<string, unknown>): Sandbox {
	const box = makeSandbox();
	box.writeConfig({protocol, base_url: mock.baseUrl(protocol), model: `model-${protocol}`, max_retries: 0});
	if (auth) writeFileSync(join(box.configDir, 'auth.json'), JSON.stringify(auth), {mode: 0o600});
	return box;
}

function assertNowhere(key: string, places: Record<string, string>, box: Sandbox, except: string[] = []): void {
	for (const [where, text] of Object.entries(places)) assert.ok(!text.includes(key), `the key is in ${where}:\n${text.slice(0, 2000)}`);
	const written = everythingWritten(box.root, except);
	assert.ok(
		written.some(file => file.path.endsWith('.json') && file.path.includes('sessions')),
		`a session file was written: ${written.map(file => file.path).join(', ')}`,
	);
	for (const file of written) assert.ok(!file.text.includes(key), `the key is in ${file.path}`);
}

/** A turn that runs `env` through the shell and then answers: the shell's output goes back to the model in the next request. */
function enqueueEnvTurn(command = 'env; echo shell-ran'): void {
	mock.enqueue({toolCalls: [{id: 'e1', name: 'shell', arguments: JSON.stringify({command})}]}, {text: 'done'});
}

for (const protocol of ['openai', 'anthropic'] as const) {
	test(`${protocol}: a key from auth.json is sent (and beats the config's variable), and appears nowhere else`, async () => {
		const key = `sk-authjson-DISTINCT-${protocol}-9f3e`;
		const box = sandboxFor(protocol, {[protocol]: {type: 'api_key', key}, other: {type: 'api_key', key: 'sk-other-provider-key'}});
		enqueueEnvTurn();
		const before = mock.requests.length;
		const run = await runCli(['-p', 'show env', '--json', '--yolo', '-C', box.workspace], {env: {...box.env, COPY_OF_STORED_KEY: key}});
		assert.equal(run.code, 0, run.stderr);
		const [first, second] = mock.requests.slice(before);
		if (protocol === 'anthropic') assert.equal(first!.headers['x-api-key'], key);
		else assert.equal(first!.headers.authorization, `Bearer ${key}`);
		const followUp = JSON.stringify(second!.body);
		assert.match(followUp, /shell-ran/, 'the shell ran and its output went back');
		assert.doesNotMatch(followUp, /COPY_OF_STORED_KEY|sk-other-provider-key/);
		assert.ok(jsonEvents(run.stdout).some(event => event.type === 'done'));
		assertNowhere(key, {stdout: run.stdout, stderr: run.stderr, 'the next request': followUp}, box, [join(box.configDir, 'auth.json')]);
	});
}

test('OAuth tokens from auth.json (an extension provider with registerOAuthProvider): the refreshed access token is sent, and neither token reaches the shell, the next request, an event or a file', async () => {
	const oauth = await startOAuthServer();
	try {
		const box = makeSandbox();
		const file = writeExtensionFile(box, 'oauth-demo.mjs', oauthExtensionSource(oauth.url));
		writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'oauth-demo', model: 'demo-1'}));
		const old = oauth.issue();
		const authPath = join(box.configDir, 'auth.json');
		writeFileSync(authPath, JSON.stringify({'oauth-demo': {type: 'oauth', ...old, expires: Date.now() - 60_000}}), {mode: 0o600});
		oauth.shellOnce = 'env; echo shell-ran';
		const run = await runCli(['-p', 'show env', '--json', '--yolo', '-C', box.workspace], {env: {...box.env, I_EXTENSIONS_DIR: dirname(file)}});
		assert.equal(run.code, 0, run.stderr);
		const fresh = (JSON.parse(readFileSync(authPath, 'utf8')) as Record<string, {access: string; refresh: string}>)['oauth-demo']!;
		assert.deepEqual(oauth.modelTokens, [fresh.access, fresh.access]);
		const followUp = oauth.modelBodies[1]!;
		assert.match(followUp, /shell-ran/, 'the shell ran and its output went back');
		for (const token of [old.access, old.refresh, fresh.access, fresh.refresh]) assertNowhere(token, {stdout: run.stdout, stderr: run.stderr, 'the next request': followUp}, box, [authPath]);
	} finally {
		await oauth.close();
	}
});

test('--api-key beats auth.json for the selected provider, is never stored, and appears nowhere but the header', async () => {
	const key = 'sk-flag-DISTINCT-5e1c0a';
	const authJson = {openai: {type: 'api_key', key: 'sk-stored-loses'}};
	const box = sandboxFor('openai', authJson);
	// The shell's parent is i: its command line is where the flag was. Outside the sandbox, where a process can see i (inside it, i is not there at all: test/sandbox).
	const linux = process.platform === 'linux';
	enqueueEnvTurn(linux ? 'env; tr "\\0" " " < /proc/$PPID/cmdline; echo; ps -o args= -p $PPID; echo shell-ran' : undefined);
	const before = mock.requests.length;
	const run = await runCli(['-p', 'show env', '--json', '--yolo', '--no-sandbox', '--api-key', key, '-C', box.workspace], {env: {...box.env, COPY_OF_FLAG_KEY: key}});
	assert.equal(run.code, 0, run.stderr);
	const [first, second] = mock.requests.slice(before);
	assert.equal(first!.headers.authorization, `Bearer ${key}`);
	const followUp = JSON.stringify(second!.body);
	assert.match(followUp, /shell-ran/);
	if (linux) assert.match(followUp, /--api-key \*\*\*/, 'the command line was read, with the value hidden');
	assert.doesNotMatch(followUp, /COPY_OF_FLAG_KEY/);
	assert.deepEqual(JSON.parse(readFileSync(join(box.configDir, 'auth.json'), 'utf8')), authJson, 'never stored');
	assertNowhere(key, {stdout: run.stdout, stderr: run.stderr, 'the next request': followUp}, box);
});

test('--api-key in a failure: an HTTP 401 that quotes the key shows it redacted', async () => {
	const key = 'sk-flag-DISTINCT-401-77aa';
	const box = sandboxFor('openai');
	mock.enqueue({status: 401, errorMessage: `Incorrect API key provided: ${key}`});
	const run = await runCli(['-p', 'hi', '--json', '--api-key', key, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.match(run.stdout + run.stderr, /HTTP 401/);
	assert.match(run.stdout + run.stderr, /\[redacted\]/);
	assertNowhere(key, {stdout: run.stdout, stderr: run.stderr}, box);
});

test('--api-key for a provider i does not send keys to (an extension provider) is refused without repeating it', async () => {
	const key = 'sk-flag-DISTINCT-ext-31';
	const box = makeSandbox();
	box.writeConfig({protocol: 'local-openai', model: 'local-model'});
	const run = await runCli(['-p', 'hi', '--api-key', key, '--extension', example, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /--api-key: "local-openai" .* is served by a provider worker or an extension provider, which finds its own credentials/);
	assert.doesNotMatch(run.stdout + run.stderr, new RegExp(key));
});

test('a run without any credential says what was tried (exit 2), and a broken auth.json is named', async () => {
	const box = sandboxFor('openai');
	const missing = await runCli(['-p', 'hi', '-C', box.workspace], {env: {...box.env, TEST_API_KEY: ''}});
	assert.equal(missing.code, 2);
	assert.match(
		missing.stderr,
		/^i: no API key for openai: auth\.json \(.*\) has no entry for openai; environment variable TEST_API_KEY is blank \(named by "api_key_env" in .*config\.json\); export TEST_API_KEY/,
	);
	writeFileSync(join(box.configDir, 'auth.json'), '{"openai": 1}', {mode: 0o600});
	const broken = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(broken.code, 2);
	assert.match(broken.stderr, /auth file .*auth\.json: entry "openai": field "type" must be "api_key" or "oauth"/);
	// With no api_key_env at all, an auth.json key is enough.
	const noVariable = makeSandbox();
	writeFileSync(join(noVariable.configDir, 'config.json'), JSON.stringify({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'}));
	const without = await runCli(['-p', 'hi', '-C', noVariable.workspace], {env: noVariable.env});
	assert.equal(without.code, 2);
	assert.match(without.stderr, /missing field "api_key_env": the name of the environment variable that holds the API key \(.*has no entry for openai.*\); set it, pass --api-key, or run i auth login openai/);
	writeFileSync(join(noVariable.configDir, 'auth.json'), JSON.stringify({openai: {type: 'api_key', key: 'sk-only-stored'}}), {mode: 0o600});
	mock.enqueue({text: 'fine'});
	const before = mock.requests.length;
	const withStored = await runCli(['-p', 'hi', '-C', noVariable.workspace], {env: noVariable.env});
	assert.equal(withStored.code, 0, withStored.stderr);
	assert.equal(mock.requests[before]!.headers.authorization, 'Bearer sk-only-stored');
});
