// OAuth tokens in auth.json as runs use them (api.registerOAuthProvider)
// through the real `i` against a local OAuth server: refreshed before a
// request when they are within 5 minutes of expiry (and not before), once
// more at a 401, never by `i auth check`; a refresh that fails names the
// provider and changes nothing; no token in any output or other file.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {oauthExtensionSource, startOAuthServer, type OAuthServer} from '../fixtures/provider-oauth-server.js';
import {makeSandbox, runCli, writeExtensionFile, type Sandbox} from '../helpers/cli.js';
import {assertNoSecret} from '../helpers/no-secret.js';

let server: OAuthServer;
before(async () => {
	server = await startOAuthServer();
});
after(async () => server.close());

const MINUTE = 60_000;

interface Setup {
	box: Sandbox;
	env: NodeJS.ProcessEnv;
	authPath: string;
	/** The tokens auth.json holds at the start. */
	tokens: {access: string; refresh?: string};
}

/** A sandbox with the demo extension, a config selecting its provider, and auth.json holding tokens that expire at `expires`. */
function setup(expires: number, options: {refresh?: boolean} = {}): Setup {
	const box = makeSandbox();
	const file = writeExtensionFile(box, 'oauth-demo.mjs', oauthExtensionSource(server.url, {tokenTimeoutMs: 1000}));
	writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({provider: 'oauth-demo', model: 'demo-1'}));
	const issued = server.issue();
	const tokens = options.refresh === false ? {access: issued.access} : issued;
	const authPath = join(box.configDir, 'auth.json');
	writeFileSync(authPath, JSON.stringify({'oauth-demo': {type: 'oauth', ...tokens, expires}, other: {type: 'api_key', key: 'sk-kept-other'}}), {mode: 0o600});
	return {box, env: {...box.env, I_EXTENSIONS_DIR: dirname(file)}, authPath, tokens};
}

const stored = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>)['oauth-demo'];
const refreshes = () => server.tokenRequests.filter(form => form.grant_type === 'refresh_token').length;

test('auth check says "expired, refresh possible" without a request; a run refreshes first, sends the new token, and stores it 0600', async () => {
	const {box, env, authPath, tokens} = setup(Date.now() - MINUTE);
	const before = server.tokenRequests.length;
	const check = await runCli(['auth', 'check', 'oauth-demo'], {env});
	assert.equal(check.code, 0, check.stderr);
	assert.match(check.stdout, /^oauth-demo: ready, the key comes from auth\.json \(OAuth token expired \d{4}-\d\d-\d\d \d\d:\d\d UTC, refresh possible\)\n$/);
	const json = await runCli(['auth', 'check', 'oauth-demo', '--json'], {env});
	assert.equal(JSON.parse(json.stdout).ready, true);
	assert.equal(server.tokenRequests.length, before, 'auth check contacted the token endpoint');

	const run = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const sent = server.tokenRequests.slice(before);
	assert.deepEqual(sent, [{grant_type: 'refresh_token', refresh_token: tokens.refresh, client_id: 'i-test-client'}]);
	const entry = stored(authPath);
	assert.notEqual(entry.access, tokens.access);
	assert.equal(server.modelTokens.at(-1), entry.access);
	assert.ok(entry.expires > Date.now() + 50 * MINUTE);
	assert.equal(statSync(authPath).mode & 0o777, 0o600);
	// The other entry is written back as it was.
	assert.deepEqual(JSON.parse(readFileSync(authPath, 'utf8')).other, {type: 'api_key', key: 'sk-kept-other'});
	assert.ok(
		readdirSync(join(box.root, 'data'), {recursive: true}).some(name => String(name).includes('sessions')),
		'the run saved a session to look in',
	);
	const after = await runCli(['auth', 'check', 'oauth-demo'], {env});
	assert.match(after.stdout, /OAuth token valid until/);
	assertNoSecret([tokens.access, tokens.refresh!, entry.access, entry.refresh], {check: check.stdout + check.stderr, json: json.stdout, stdout: run.stdout, stderr: run.stderr}, box, [authPath]);
});

test('the refresh margin is 5 minutes: a token 4 minutes from expiry is refreshed, one 6 minutes from it is used as it is', async () => {
	const near = setup(Date.now() + 4 * MINUTE);
	const before = refreshes();
	const first = await runCli(['-p', 'hi', '-C', near.box.workspace], {env: near.env});
	assert.equal(first.code, 0, first.stderr);
	assert.equal(refreshes(), before + 1);
	assert.notEqual(stored(near.authPath).access, near.tokens.access);

	const far = setup(Date.now() + 6 * MINUTE);
	const second = await runCli(['-p', 'hi', '-C', far.box.workspace], {env: far.env});
	assert.equal(second.code, 0, second.stderr);
	assert.equal(refreshes(), before + 1);
	assert.equal(server.modelTokens.at(-1), far.tokens.access);
	assert.equal(stored(far.authPath).access, far.tokens.access);
});

test('two runs that find the token expired at once refresh it once: the second waits for the lock and uses the new tokens', async () => {
	const {box, env, authPath} = setup(Date.now() - MINUTE);
	const before = refreshes();
	// Two prompts: each run its own session.
	const runs = await Promise.all(['first question', 'second question'].map(async prompt => runCli(['-p', prompt, '-C', box.workspace], {env})));
	for (const run of runs) assert.equal(run.code, 0, run.stderr);
	assert.equal(refreshes(), before + 1);
	const entry = stored(authPath);
	assert.deepEqual(server.modelTokens.slice(-2), [entry.access, entry.access]);
});

test('a 401 for a token the server revoked early: one refresh, the request again with the new token, the answer shown', async () => {
	const {box, env, authPath, tokens} = setup(Date.now() + 60 * MINUTE);
	server.revokeOnce = tokens.access;
	const before = refreshes();
	const seen = server.modelTokens.length;
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /hello from the oauth provider/);
	assert.equal(refreshes(), before + 1);
	const entry = stored(authPath);
	assert.deepEqual(server.modelTokens.slice(seen), [tokens.access, entry.access]);
	assertNoSecret([tokens.access, tokens.refresh!, entry.access, entry.refresh], {stdout: run.stdout, stderr: run.stderr}, box, [authPath]);
});

test('a 401 with no refresh token fails the run naming the provider; the token the server quoted is redacted', async () => {
	const {box, env, authPath, tokens} = setup(Date.now() + 60 * MINUTE, {refresh: false});
	server.revokeOnce = tokens.access;
	const before = readFileSync(authPath, 'utf8');
	const run = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env});
	assert.equal(run.code, 1, run.stderr);
	assert.match(
		run.stderr + run.stdout,
		/Demo Cloud \(provider oauth-demo\): the OAuth token needs a refresh \(the provider answered 401 to it\), but auth\.json holds no refresh token; run i auth login oauth-demo/,
	);
	assert.equal(readFileSync(authPath, 'utf8'), before);
	assertNoSecret([tokens.access], {stdout: run.stdout, stderr: run.stderr}, box, [authPath]);
});

test('an expired token without a refresh token does not count: auth check says what was tried (exit 1)', async () => {
	const {env} = setup(Date.now() - MINUTE, {refresh: false});
	const check = await runCli(['auth', 'check', 'oauth-demo'], {env});
	assert.equal(check.code, 1);
	assert.match(check.stdout, /the OAuth token for oauth-demo in auth\.json \(.*\) expired \d{4}-\d\d-\d\d \d\d:\d\d UTC and there is no refresh token/);
});

test('a refresh token the server no longer accepts: its refusal is quoted with the token redacted, and the fix is to log in again', async () => {
	const {box, env, authPath} = setup(Date.now() - MINUTE);
	const unknown = 'refresh-canary-revoked-5e1f0a';
	const entry = {...stored(authPath), refresh: unknown};
	writeFileSync(authPath, JSON.stringify({'oauth-demo': entry}), {mode: 0o600});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env});
	assert.equal(run.code, 1, run.stderr);
	assert.match(run.stderr, /refused: invalid_grant \(unknown refresh token \[redacted\]\); no token was stored; the refresh token is no longer accepted: run i auth login oauth-demo/);
	assert.deepEqual(stored(authPath), entry);
	assertNoSecret([unknown, entry.access], {stdout: run.stdout, stderr: run.stderr}, box, [authPath]);
});

for (const mode of ['garbage', 'hang', 'redirect'] as const) {
	test(`a refresh whose token endpoint ${mode === 'hang' ? 'never answers (1 s bound)' : mode === 'garbage' ? 'answers garbage quoting the refresh token' : 'redirects'} fails the run naming the provider; auth.json is unchanged`, async () => {
		const {box, env, authPath, tokens} = setup(Date.now() - MINUTE);
		const before = readFileSync(authPath, 'utf8');
		server.tokenMode = mode;
		try {
			const run = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {env});
			assert.equal(run.code, 1, run.stderr);
			const said = {garbage: /not a JSON object/, hang: /did not answer within 1 s/, redirect: /answered with a redirect \(HTTP 302\)/}[mode];
			// --json: the error is an event on stdout.
			assert.match(run.stdout + run.stderr, /refreshing the OAuth token \(it expired .*\) failed: Demo Cloud \(provider oauth-demo\): the endpoint http:\/\/127\.0\.0\.1:\d+\/token /);
			assert.match(run.stdout + run.stderr, said);
			assert.equal(readFileSync(authPath, 'utf8'), before);
			assertNoSecret([tokens.access, tokens.refresh!], {stdout: run.stdout, stderr: run.stderr}, box, [authPath]);
		} finally {
			server.tokenMode = 'ok';
		}
	});
}
