// An extension's OAuth flow (api.registerOAuthProvider) through the real `i`
// against a local OAuth server of the test's own: login with PKCE (the test
// plays the browser: it fetches the printed address and follows the
// redirect to i's loopback), login with the device code, the tokens in
// auth.json (0600), `i auth check` reading them without a request, logout,
// and no token in any output or file but auth.json.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, statSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {oauthExtensionSource, startOAuthServer, type OAuthServer} from '../fixtures/provider-oauth-server.js';
import {makeSandbox, runCli, waitFor, writeExtensionFile, type CliRun, type Sandbox} from '../helpers/cli.js';
import {recordBrowser} from '../helpers/oauth-server.js';
import {assertNoSecret} from '../helpers/no-secret.js';

let server: OAuthServer;
before(async () => {
	server = await startOAuthServer();
});
after(async () => server.close());

/** A sandbox whose global extensions folder holds the demo extension. */
function sandbox(options: Parameters<typeof oauthExtensionSource>[1] = {}): {box: Sandbox; env: NodeJS.ProcessEnv} {
	const box = makeSandbox();
	const file = writeExtensionFile(box, 'oauth-demo.mjs', oauthExtensionSource(server.url, options));
	return {box, env: {...box.env, I_EXTENSIONS_DIR: dirname(file)}};
}

/** Plays the browser: once the address is on stderr, fetches it and follows the redirect to i's loopback; resolves with the page i showed. */
function browse(output: {stderr: () => string}): Promise<{status: number; text: string}> {
	return new Promise((resolve, reject) => {
		const timer = setInterval(() => {
			const address = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(output.stderr())?.[1];
			if (address === undefined) return;
			clearInterval(timer);
			fetch(address)
				.then(async response => resolve({status: response.status, text: await response.text()}))
				.catch(reject);
		}, 20);
	});
}

/** Plays the person at the verification page: reads the code i printed and approves it. */
function approveDevice(output: {stderr: () => string}): void {
	const timer = setInterval(() => {
		const code = / enter the code (\S+)/.exec(output.stderr())?.[1];
		if (code === undefined) return;
		clearInterval(timer);
		server.approve(code);
	}, 20);
}

function storedEntry(box: Sandbox): Record<string, any> {
	return (JSON.parse(readFileSync(join(box.configDir, 'auth.json'), 'utf8')) as Record<string, any>)['oauth-demo'];
}

const outputs = (...runs: CliRun[]) =>
	Object.fromEntries(
		runs.flatMap((run, index) => [
			[`stdout ${index}`, run.stdout],
			[`stderr ${index}`, run.stderr],
		]),
	);

test('login with PKCE: the browser address on stderr, the redirect to the loopback, the tokens stored 0600; check, a run, logout', async () => {
	const {box, env} = sandbox();
	// $BROWSER is given the address (no browser is guessed); the test still plays the person from what stderr shows.
	const opened = join(box.root, 'browser.txt');
	env.BROWSER = `${JSON.stringify(process.execPath)} ${JSON.stringify(recordBrowser)}`;
	env.RECORD_BROWSER_FILE = opened;
	let page: Promise<{status: number; text: string}> | undefined;
	const before = server.tokenRequests.length;
	const login = await runCli(['auth', 'login', 'oauth-demo'], {env, onSpawn: (_child, output) => (page = browse(output))});
	assert.equal(login.code, 0, login.stderr);
	assert.match(login.stderr, /^Open this address in a browser to sign in to Demo Cloud \(it comes back to http:\/\/127\.0\.0\.1:\d+\/callback on this machine\):\n/);
	assert.deepEqual(await page, {status: 200, text: 'Logged in: you can close this page and go back to the terminal.\n'});
	const address = new URL(/^(http:\/\/\S+\/authorize\?\S+)$/m.exec(login.stderr)![1]!);
	await waitFor(() => existsSync(opened), 10_000, '$BROWSER to record the address');
	assert.equal(readFileSync(opened, 'utf8'), `${address.href}\n`);
	assert.equal(address.searchParams.get('code_challenge_method'), 'S256');
	assert.equal(address.searchParams.get('scope'), 'model.use offline_access');
	const path = join(box.configDir, 'auth.json');
	assert.match(
		login.stdout,
		new RegExp(
			`^signed in to Demo Cloud: stored the OAuth tokens for oauth-demo in ${path.replaceAll('.', '\\.')} \\(mode 0600\\); the token is valid until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC; i refreshes it before then\\n$`,
		),
	);
	assert.equal(statSync(path).mode & 0o777, 0o600);
	// The server checked the verifier against the challenge before it issued these.
	const exchange = server.tokenRequests.slice(before);
	assert.deepEqual(
		exchange.map(form => [form.grant_type, form.client_id, typeof form.code_verifier]),
		[['authorization_code', 'i-test-client', 'string']],
	);
	const entry = storedEntry(box);
	assert.equal(entry.type, 'oauth');
	assert.match(entry.access, /^access-canary-/);
	assert.match(entry.refresh, /^refresh-canary-/);
	assert.ok(entry.expires > Date.now() + 3_000_000 && entry.expires <= Date.now() + 3_600_000);

	// Check reads auth.json only: no request reaches the server.
	const requests = server.tokenRequests.length;
	const check = await runCli(['auth', 'check', 'oauth-demo'], {env});
	assert.equal(check.code, 0, check.stderr);
	assert.match(check.stdout, /^oauth-demo: ready, the key comes from auth\.json \(OAuth token valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\n$/);
	assert.equal(server.tokenRequests.length, requests);

	// A run sends the access token as the provider's key.
	box.writeConfig({provider: 'oauth-demo', model: 'demo-1', api_key_env: undefined});
	const run = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(server.modelTokens.at(-1), entry.access);
	assert.match(run.stdout, /hello from the oauth provider/);

	const logout = await runCli(['auth', 'logout', 'oauth-demo'], {env});
	assert.equal(logout.code, 0, logout.stderr);
	assert.match(logout.stdout, /^removed the OAuth token for oauth-demo from .*auth\.json; environment variables and models\.json are untouched: oauth-demo now has no credentials\n$/);
	assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {});
	const gone = await runCli(['auth', 'check', 'oauth-demo'], {env});
	assert.equal(gone.code, 1);
	assertNoSecret([entry.access, entry.refresh], outputs(login, check, run, logout, gone), box, [path]);
});

test('login with the device code: the verification address and the code on stderr, polled until the person approves', async () => {
	const {box, env} = sandbox();
	const before = server.tokenRequests.length;
	const login = await runCli(['auth', 'login', 'oauth-demo', '--device', '--json'], {env, onSpawn: (_child, output) => approveDevice(output)});
	assert.equal(login.code, 0, login.stderr);
	assert.match(login.stderr, new RegExp(`^To sign in to Demo Cloud, open ${server.url}/activate on any device and enter the code WXYZ-\\d+\\n`));
	const report = JSON.parse(login.stdout) as Record<string, unknown>;
	assert.deepEqual({...report, expires: typeof report.expires}, {provider: 'oauth-demo', stored: join(box.configDir, 'auth.json'), replaced: null, flow: 'device_code', expires: 'string', refresh: true});
	const polls = server.tokenRequests.slice(before);
	assert.ok(polls.length >= 1);
	assert.ok(polls.every(form => form.grant_type === 'urn:ietf:params:oauth:grant-type:device_code' && form.client_id === 'i-test-client'));
	const entry = storedEntry(box);
	assert.match(entry.access, /^access-canary-/);
	assertNoSecret([entry.access, entry.refresh], outputs(login), box, [join(box.configDir, 'auth.json')]);
});

test('a provider with only the device flow uses it without --device; --device where there is none is a usage error', async () => {
	const device = sandbox({browser: false});
	const login = await runCli(['auth', 'login', 'oauth-demo'], {env: device.env, onSpawn: (_child, output) => approveDevice(output)});
	assert.equal(login.code, 0, login.stderr);
	assert.match(login.stderr, /enter the code WXYZ-/);
	const browserOnly = sandbox({device: false});
	const refused = await runCli(['auth', 'login', 'oauth-demo', '--device'], {env: browserOnly.env});
	assert.equal(refused.code, 2);
	assert.match(refused.stderr, /^i: auth login: --device: Demo Cloud \(extension oauth-demo\) offers no device code flow/);
	assert.ok(!existsSync(join(browserOnly.box.configDir, 'auth.json')));
	// A provider without a flow still reads a key.
	const key = await runCli(['auth', 'login', 'deepseek', '--device'], {env: browserOnly.env});
	assert.equal(key.code, 2);
	assert.match(key.stderr, /--device: no extension registers an OAuth flow for deepseek/);
});

for (const mode of ['garbage', 'hang', 'redirect'] as const) {
	test(`login: a token endpoint that ${mode === 'hang' ? 'never answers (1 s bound)' : mode === 'garbage' ? 'answers garbage' : 'redirects'} fails naming the provider, and nothing is stored`, async () => {
		const {box, env} = sandbox({tokenTimeoutMs: 1000});
		server.tokenMode = mode;
		try {
			const login = await runCli(['auth', 'login', 'oauth-demo', '--device'], {env, onSpawn: (_child, output) => approveDevice(output)});
			assert.equal(login.code, 1, login.stderr);
			const said = {garbage: /answered HTTP 200 with something that is not a JSON object/, hang: /did not answer within 1 s/, redirect: /answered with a redirect \(HTTP 302\), which is not followed/}[mode];
			assert.match(login.stderr, new RegExp(`i: auth login: Demo Cloud \\(provider oauth-demo\\): the endpoint ${server.url.replaceAll('.', '\\.')}/token .*no token was stored`));
			assert.match(login.stderr, said);
			assert.equal(login.stdout, '');
			assert.ok(!existsSync(join(box.configDir, 'auth.json')));
		} finally {
			server.tokenMode = 'ok';
		}
	});
}

test('--no-browser: the address is printed and $BROWSER is not started', async () => {
	const {box, env} = sandbox();
	const opened = join(box.root, 'browser.txt');
	env.BROWSER = `${JSON.stringify(process.execPath)} ${JSON.stringify(recordBrowser)}`;
	env.RECORD_BROWSER_FILE = opened;
	let page: Promise<{status: number; text: string}> | undefined;
	const login = await runCli(['auth', 'login', 'oauth-demo', '--no-browser'], {env, onSpawn: (_child, output) => (page = browse(output))});
	assert.equal(login.code, 0, login.stderr);
	assert.equal((await page)?.status, 200);
	assert.ok(!existsSync(opened), '$BROWSER was started');
	assert.equal(storedEntry(box).type, 'oauth');
});

test('Ctrl-C (SIGINT) while waiting for the device sign-in cancels: exit 130, nothing stored', async () => {
	const {box, env} = sandbox();
	const login = await runCli(['auth', 'login', 'oauth-demo', '--device'], {
		env,
		onSpawn: (child, output) => {
			const timer = setInterval(() => {
				if (!output.stderr().includes('Ctrl-C cancels')) return;
				clearInterval(timer);
				child.kill('SIGINT');
			}, 20);
		},
	});
	assert.equal(login.code, 130, login.stderr);
	assert.match(login.stderr, /i: auth login: Demo Cloud \(provider oauth-demo\): login cancelled; no token was stored\n$/);
	assert.ok(!existsSync(join(box.configDir, 'auth.json')));
});
