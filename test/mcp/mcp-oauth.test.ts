// OAuth for remote MCP servers, against a real OAuth-protected server built
// from the SDK's own parts (fixtures/mcp/oauth-server.ts: McpServer behind
// requireBearerAuth, mcpAuthRouter over the SDK's demo provider) in a
// process of its own. The test plays the browser: $BROWSER is a script
// that records the address, and the test GETs it, following the redirect
// to i's callback on 127.0.0.1.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {readMcpConfig} from '../../source/core/mcp/mcp-config.js';
import {McpServers} from '../../source/core/mcp/mcp-servers.js';
import {listenForCallback} from '../../source/core/mcp/oauth-callback.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, waitFor, type Sandbox} from '../helpers/cli.js';
import {recordBrowser, startOAuthServer, type OAuthServer} from '../helpers/oauth-server.js';

let mock: MockProvider;
const started: OAuthServer[] = [];
before(async () => {
	mock = await startMockProvider();
});
after(async () => {
	await mock.close();
	for (const server of started) server.close();
});

async function oauthServer(): Promise<OAuthServer> {
	const server = await startOAuthServer();
	started.push(server);
	return server;
}

interface Box extends Sandbox {
	urls: string;
	authFile: string;
}

function sandbox(url: string): Box {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'mock-model', max_retries: 0});
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({mcpServers: {demo: {type: 'http', url}}}));
	const urls = join(box.root, 'browser.txt');
	box.env.BROWSER = `${JSON.stringify(process.execPath)} ${JSON.stringify(recordBrowser)}`;
	box.env.RECORD_BROWSER_FILE = urls;
	return {...box, urls, authFile: join(box.configDir, 'mcp-auth.json')};
}

const cli = async (box: Box, ...args: string[]) => runCli(args, {env: box.env, cwd: box.workspace, timeoutMs: 60_000});

/** The addresses $BROWSER was given so far. */
const opened = (box: Box): string[] => (existsSync(box.urls) ? readFileSync(box.urls, 'utf8').split('\n').filter(Boolean) : []);

/** `i mcp login demo`, with the test at the browser: `beforeApproving` may knock on the callback first. */
async function login(box: Box, beforeApproving?: (callback: URL) => Promise<void>) {
	const before = opened(box).length;
	const run = cli(box, 'mcp', 'login', 'demo');
	await waitFor(() => opened(box).length > before, 30_000, 'the authorization URL at $BROWSER');
	const authorization = new URL(opened(box).at(-1)!);
	const callback = new URL(authorization.searchParams.get('redirect_uri')!);
	await beforeApproving?.(callback);
	// The demo authorization server approves at once and redirects to i's callback, which fetch follows.
	const page = await fetch(authorization);
	return {run: await run, authorization, callback, page: {status: page.status, text: await page.text()}};
}

function storedTokens(box: Box): {access_token: string; refresh_token?: string} {
	return JSON.parse(readFileSync(box.authFile, 'utf8')).servers.demo.tokens;
}

/** Every file under `dir`, read as text. */
function allText(dir: string): string {
	if (!existsSync(dir)) return '';
	return readdirSync(dir, {recursive: true, withFileTypes: true})
		.filter(entry => entry.isFile())
		.map(entry => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
		.join('\n');
}

const lastToolResult = (body: any): string => {
	const tool = [...body.messages].reverse().find((message: any) => message.role === 'tool');
	return typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content);
};

test('needs login before a login (nothing registered); i mcp login; then connected, a one-shot calls its tool, tokens only in mcp-auth.json (0600)', async () => {
	const server = await oauthServer();
	const box = sandbox(server.url);
	const listed = await cli(box, 'mcp', 'list');
	assert.equal(listed.code, 0, listed.stderr);
	assert.match(listed.stdout, /^demo {2}needs login {2}http {2}.*settings\.json\n {4}needs login: run i mcp login demo/);
	assert.equal((await server.stats()).clients, 0, 'a session registers no client');
	assert.ok(!existsSync(box.authFile));

	const wrongState = async (callback: URL) => {
		const forged = new URL(callback);
		forged.searchParams.set('code', 'forged');
		forged.searchParams.set('state', 'not-the-login');
		const answer = await fetch(forged);
		assert.equal(answer.status, 400);
		assert.match(await answer.text(), /does not belong to the login/);
	};
	const {run, callback, page} = await login(box, wrongState);
	assert.equal(run.code, 0, run.stderr);
	assert.equal(page.status, 200);
	assert.match(page.text, /Logged in/);
	assert.equal(callback.hostname, '127.0.0.1');
	assert.equal(callback.pathname, '/callback');
	assert.match(run.stdout, /^To log in to MCP server demo, open this address in a browser \(waiting for the redirect to http:\/\/127\.0\.0\.1:\d+\/callback\):\nhttp:\/\/127\.0\.0\.1:\d+\/authorize\?/);
	assert.match(run.stdout, /logged in to MCP server demo \(oauth-demo 2\.0\.0 at http:\/\/127\.0\.0\.1:\d+\/mcp\); its tokens are in .*mcp-auth\.json\n$/);
	assert.equal(statSync(box.authFile).mode & 0o777, 0o600);
	const tokens = storedTokens(box);
	assert.ok(tokens.access_token && tokens.refresh_token);
	assert.equal(JSON.parse(readFileSync(box.authFile, 'utf8')).servers.demo.url, server.url);

	const ready = await cli(box, 'mcp', 'get', 'demo');
	assert.equal(ready.code, 0, ready.stderr);
	assert.match(ready.stdout, /^demo {2}ready {2}http {2}2 tools, 0 prompts, 1 resource/);
	assert.match(ready.stdout, /tools: whoami, echo/);

	// A one-shot naming the server's resource waits for it, so its tools are offered from the first request.
	mock.enqueue({toolCalls: [{id: 'call_who', name: 'mcp__demo__whoami', arguments: '{}'}]}, {text: 'the server knows us'});
	const sent = mock.requests.length;
	const shot = await runCli(['-p', '--yolo', 'read @demo:demo://note and ask who I am'], {env: box.env, cwd: box.workspace, timeoutMs: 60_000});
	assert.equal(shot.code, 0, shot.stderr);
	assert.match(shot.stdout, /the server knows us/);
	assert.match(JSON.stringify(mock.requests[sent]!.body.messages), /a note behind OAuth/);
	assert.match(lastToolResult(mock.requests[sent + 1]!.body), /called by OAuth client [0-9a-f-]{36}/);

	// The tokens are nowhere but mcp-auth.json: not in any output, session or other file of i's.
	const everywhere =
		[listed, run, ready, shot].flatMap(result => [result.stdout, result.stderr]).join('\n') + allText(join(box.root, 'data')) + allText(join(box.root, 'cache')) + allText(join(box.root, 'runtime'));
	assert.ok(allText(join(box.root, 'data')).length > 0, 'the one-shot saved a session');
	for (const secret of [tokens.access_token, tokens.refresh_token!]) assert.ok(!everywhere.includes(secret), 'a token leaked');
	for (const request of mock.requests.slice(sent)) assert.ok(!JSON.stringify(request).includes(tokens.access_token), 'a token reached the model');
});

test('an expired token is refreshed by the SDK through mcp-auth.json; a refused refresh is needs login, and the turn goes on; logout forgets', async () => {
	const server = await oauthServer();
	const box = sandbox(server.url);
	assert.equal((await login(box)).run.code, 0);
	const first = storedTokens(box);

	await server.control('expire');
	const refreshed = await cli(box, 'mcp', 'list');
	assert.match(refreshed.stdout, /^demo {2}ready/, refreshed.stderr);
	assert.equal((await server.stats()).refreshes, 1);
	const second = storedTokens(box);
	assert.notEqual(second.access_token, first.access_token);
	assert.notEqual(second.refresh_token, first.refresh_token);

	// The server forgets every token: the refresh is refused, the state is needs login, and a turn goes on without the tools.
	await server.control('revoke');
	mock.enqueue({text: 'answered without the server'});
	const sent = mock.requests.length;
	// The prompt names the server's resource, so the one-shot waits for the server's start and hears its report.
	const lines = await runCli(['-p', 'hello, see @demo:demo://note'], {env: box.env, cwd: box.workspace, timeoutMs: 60_000});
	assert.equal(lines.code, 0, lines.stderr);
	assert.match(lines.stdout, /answered without the server/);
	assert.equal(lines.stderr.match(/MCP server demo needs login: run i mcp login demo/g)?.length, 1, lines.stderr);
	const tools = (mock.requests[sent]!.body.tools ?? []).map((tool: any) => tool.function?.name);
	assert.ok(!tools.includes('mcp__demo__whoami'), tools.join(', '));
	const listed = await cli(box, 'mcp', 'list');
	assert.equal(listed.code, 0);
	assert.match(listed.stdout, /^demo {2}needs login {2}http/);
	assert.equal(JSON.parse(readFileSync(box.authFile, 'utf8')).servers.demo.tokens, undefined, 'the refused tokens were forgotten');

	const out = await cli(box, 'mcp', 'logout', 'demo');
	assert.equal(out.code, 0, out.stderr);
	assert.match(out.stdout, /^logged out of MCP server demo: its tokens were removed from .*mcp-auth\.json\n$/);
	assert.deepEqual(JSON.parse(readFileSync(box.authFile, 'utf8')).servers, {});
	assert.match((await cli(box, 'mcp', 'logout', 'demo')).stdout, /was not logged in/);
	assert.match((await cli(box, 'mcp', 'list')).stdout, /^demo {2}needs login/);
});

test('a broken mcp-auth.json: a clear error naming it, from list and login, and the file is left as it was', async () => {
	const server = await oauthServer();
	const box = sandbox(server.url);
	for (const [broken, problem] of [
		['{"version": 1, "servers": {"demo": ', /not valid JSON/],
		['{"version": 1, "servers": {"demo": {"url": 5}}}', /server "demo": field "url"/],
		['{"version": 2, "servers": {}}', /field "version"/],
	] as const) {
		writeFileSync(box.authFile, broken, {mode: 0o600});
		const listed = await cli(box, 'mcp', 'list');
		assert.equal(listed.code, 1);
		assert.match(listed.stdout, new RegExp(`demo {2}failed .*\\n {4}could not start: MCP auth file ${box.authFile.replaceAll('.', '\\.')}: `));
		assert.match(listed.stdout, problem);
		const loggingIn = await cli(box, 'mcp', 'login', 'demo');
		assert.equal(loggingIn.code, 2);
		assert.match(loggingIn.stderr, /^i: mcp login: MCP auth file .*mcp-auth\.json: .*fix or remove/);
		assert.equal(readFileSync(box.authFile, 'utf8'), broken);
	}

	writeFileSync(box.authFile, '{"version": 1, "servers": {}}');
	chmodSync(box.authFile, 0o644);
	const shared = await cli(box, 'mcp', 'login', 'demo');
	assert.match(shared.stderr, /can be read or changed by other users \(mode 0644\)/);
	assert.deepEqual(opened(box), [], 'no login was started');
});

test('a stored token is sent to the URL it was obtained for only; login refuses a stdio server and an entry with its own Authorization header', async () => {
	const server = await oauthServer();
	const box = sandbox(server.url);
	assert.equal((await login(box)).run.code, 0);
	// The same name at another URL (the path differs): not logged in there.
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({mcpServers: {demo: {type: 'http', url: `${server.url}/../mcp?moved=1`}}}));
	assert.match((await cli(box, 'mcp', 'list')).stdout, /^demo {2}needs login/);
	writeFileSync(
		join(box.configDir, 'settings.json'),
		JSON.stringify({mcpServers: {local: {command: process.execPath, args: ['-e', '']}, headed: {type: 'http', url: server.url, headers: {authorization: 'Bearer x'}}}}),
	);
	const local = await cli(box, 'mcp', 'login', 'local');
	assert.equal(local.code, 2);
	assert.match(local.stderr, /MCP server local is a program i starts .*only a remote server/);
	const headed = await cli(box, 'mcp', 'login', 'headed');
	assert.equal(headed.code, 1);
	assert.match(headed.stderr, /sends an "Authorization" header of its own/);
	const nobody = await cli(box, 'mcp', 'login', 'nobody');
	assert.equal(nobody.code, 2);
	assert.match(nobody.stderr, /no MCP server named "nobody" here \(configured: local, headed\)/);
});

test('/mcp login (McpServers.login): the address said, the login made, the server connected; a token refused mid-session is needs login', async () => {
	const server = await oauthServer();
	const box = sandbox(server.url);
	const dirs = {config_dir: box.configDir, data_dir: join(box.root, 'data'), cache_dir: join(box.root, 'cache'), runtime_dir: join(box.root, 'runtime')};
	const config = await readMcpConfig({workspace: box.workspace, configDir: box.configDir, trusted: false, environment: {}});
	const reports: string[] = [];
	const servers = new McpServers({config, workspace: box.workspace, dirs, clientVersion: '0.0.0-test', takenToolNames: new Map(), report: message => reports.push(message), environment: {}});
	try {
		await servers.start();
		assert.equal(servers.status()[0]?.state, 'needs login');
		assert.deepEqual(reports, ['MCP server demo needs login: run i mcp login demo (or /mcp login demo in the chat screen); its tools are not offered until then']);
		const said: string[] = [];
		const result = servers.login('demo', line => said.push(line));
		await waitFor(() => said.length > 0, 30_000, 'the address');
		const address = said[0]!.split('\n')[1]!;
		assert.equal((await fetch(address)).status, 200);
		const done = await result;
		assert.equal(done.ok, true, done.message);
		assert.match(done.message, /^logged in to MCP server demo .*; MCP server demo is connected: 2 tools$/);
		assert.equal(servers.status()[0]?.state, 'ready');
		const whoami = servers.tools().find(tool => tool.name === 'mcp__demo__whoami')!;
		const signal = new AbortController().signal;
		assert.match((await (await whoami.plan({}, {workspace: box.workspace, signal, outputLimit: 10_000})).run()).output, /called by OAuth client/);

		// Every token revoked while the server is connected: the next call says needs login, once, and the tools go.
		await server.control('revoke');
		await assert.rejects(async () => (await whoami.plan({}, {workspace: box.workspace, signal, outputLimit: 10_000})).run(), /MCP server demo needs login: run i mcp login demo/);
		assert.equal(servers.status()[0]?.state, 'needs login');
		assert.deepEqual(servers.tools(), []);
		assert.equal(reports.length, 2);
		const out = await servers.logout('demo');
		assert.match(out.message, /^logged out of MCP server demo .*; it is needs login now$/);
	} finally {
		await servers.close();
	}
});

test('the callback listener: 127.0.0.1, only its own path and state count, an error redirect and the timeout reject', async () => {
	const callback = await listenForCallback({state: 'the-state', timeoutMs: 60_000});
	try {
		assert.match(callback.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		const url = new URL(callback.redirectUrl);
		assert.equal((await fetch(new URL('/elsewhere?code=c&state=the-state', url))).status, 404);
		assert.equal((await fetch(`${callback.redirectUrl}?code=c&state=other`)).status, 400);
		assert.equal((await fetch(`${callback.redirectUrl}?code=c`)).status, 400, 'no state at all');
		assert.equal((await fetch(`${callback.redirectUrl}?code=the-code&state=the-state`)).status, 200);
		assert.equal(await callback.code, 'the-code');
	} finally {
		await callback.close();
	}

	const refused = await listenForCallback({state: 's'});
	try {
		assert.equal((await fetch(`${refused.redirectUrl}?error=access_denied&error_description=no%20thanks&state=s`)).status, 400);
		await assert.rejects(refused.code, /the authorization server refused: access_denied \(no thanks\)/);
	} finally {
		await refused.close();
	}

	const late = await listenForCallback({state: 's', timeoutMs: 50});
	try {
		await assert.rejects(late.code, /no redirect came back within 50 ms/);
	} finally {
		await late.close();
	}

	// The port a stored registration names is taken again when it is free.
	const taken = await listenForCallback({state: 's'});
	const port = Number(new URL(taken.redirectUrl).port);
	await taken.close();
	const again = await listenForCallback({state: 's', port});
	assert.equal(Number(new URL(again.redirectUrl).port), port);
	const other = await listenForCallback({state: 's', port});
	assert.notEqual(Number(new URL(other.redirectUrl).port), port, 'a taken port: any free one');
	await Promise.all([again.close(), other.close()]);
});

test('two sessions on one mcp-auth.json: the second’s refused refresh (the first rotated the refresh token) keeps the first’s tokens and goes on with them', async () => {
	const server = await oauthServer();
	const box = sandbox(server.url);
	assert.equal((await login(box)).run.code, 0);
	const dirs = {config_dir: box.configDir, data_dir: join(box.root, 'data'), cache_dir: join(box.root, 'cache'), runtime_dir: join(box.root, 'runtime')};
	const config = await readMcpConfig({workspace: box.workspace, configDir: box.configDir, trusted: false, environment: {}});
	const reports: string[] = [];
	const sessions = [0, 1].map(() => new McpServers({config, workspace: box.workspace, dirs, clientVersion: '0.0.0-test', takenToolNames: new Map(), report: message => reports.push(message), environment: {}}));
	try {
		await Promise.all(sessions.map(async session => session.start()));
		assert.deepEqual(
			sessions.map(session => session.status()[0]?.state),
			['ready', 'ready'],
		);
		await server.control('expire');
		const signal = new AbortController().signal;
		const whoami = async (session: McpServers) =>
			(
				await (
					await session
						.tools()
						.find(tool => tool.name === 'mcp__demo__whoami')!
						.plan({}, {workspace: box.workspace, signal, outputLimit: 10_000})
				).run()
			).output;
		assert.match(await whoami(sessions[0]!), /called by OAuth client/);
		assert.equal((await server.stats()).refreshes, 1);
		// The second still holds the expired token and the refresh token the first used up.
		assert.match(await whoami(sessions[1]!), /called by OAuth client/);
		assert.equal((await server.stats()).refreshes, 2, 'it refreshed with the first one’s newer refresh token');
		assert.deepEqual(reports, []);
		assert.ok(storedTokens(box).access_token);
	} finally {
		await Promise.all(sessions.map(async session => session.close()));
	}
});
