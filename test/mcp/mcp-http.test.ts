// Remote MCP servers: server-everything over Streamable HTTP behind a front
// that wants a bearer token (the entry's headers), and over the legacy
// HTTP+SSE transport, reached through the fallback from an "http" entry and
// directly with "sse".
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {createServer, request as httpRequest, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {readMcpConfig} from '../../source/core/mcp/mcp-config.js';
import {McpServers} from '../../source/core/mcp/mcp-servers.js';
import type {Tool} from '../../source/core/tools/types.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

const everythingServer = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-mcp-http-')));
const children: ChildProcess[] = [];
const opened: McpServers[] = [];
let front: Server;
let frontUrl: string;
let streamablePort: number;
let ssePort: number;
const authorizations: Array<string | undefined> = [];
const requests: Array<{method: string | undefined; authorization: string | undefined}> = [];

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	await new Promise(resolve => server.close(resolve));
	return port;
}

async function startEverything(transport: 'streamableHttp' | 'sse'): Promise<number> {
	const port = await freePort();
	const child = spawn(process.execPath, [everythingServer, transport], {env: {PATH: process.env.PATH, PORT: String(port)}, stdio: ['ignore', 'ignore', 'pipe']});
	children.push(child);
	await new Promise<void>((resolve, reject) => {
		let stderr = '';
		child.stderr!.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			if (stderr.includes(String(port))) resolve();
		});
		child.once('exit', code => reject(new Error(`server-everything ${transport} exited with ${code}: ${stderr}`)));
	});
	return port;
}

before(async () => {
	[streamablePort, ssePort] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
	// A front that wants the bearer token, then passes the request (and its streamed answer) on.
	front = createServer((incoming, outgoing) => {
		authorizations.push(incoming.headers.authorization);
		requests.push({method: incoming.method, authorization: incoming.headers.authorization});
		if (incoming.headers.authorization !== 'Bearer tok-123') {
			outgoing.writeHead(401, {'content-type': 'application/json'}).end('{"error":"unauthorized"}');
			return;
		}

		const upstream = httpRequest({host: '127.0.0.1', port: streamablePort, path: incoming.url, method: incoming.method, headers: incoming.headers}, answer => {
			outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(outgoing);
		});
		upstream.on('error', () => outgoing.destroy());
		incoming.pipe(upstream);
	});
	await new Promise<void>(resolve => front.listen(0, '127.0.0.1', resolve));
	frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`;
});

after(async () => {
	await Promise.all(opened.map(async servers => servers.close()));
	front?.closeAllConnections();
	await new Promise(resolve => front?.close(resolve));
	for (const child of children) child.kill('SIGKILL');
});

let count = 0;
async function serversOf(mcpServers: Record<string, unknown>, environment: NodeJS.ProcessEnv = {}) {
	const base = join(root, `run-${++count}`);
	const dirs = {config_dir: join(base, 'config'), data_dir: join(base, 'data'), cache_dir: join(base, 'cache'), runtime_dir: join(base, 'runtime')};
	mkdirSync(dirs.config_dir, {recursive: true});
	writeFileSync(join(dirs.config_dir, 'settings.json'), JSON.stringify({mcpServers}));
	const config = await readMcpConfig({workspace: base, configDir: dirs.config_dir, trusted: false, environment});
	const reports: string[] = [];
	const servers = new McpServers({config, workspace: base, dirs, clientVersion: '0.0.0-test', takenToolNames: new Map(), report: message => reports.push(message), environment});
	opened.push(servers);
	await servers.start();
	return {servers, reports};
}

async function run(tools: readonly Tool[], name: string, args: Record<string, unknown>, signal = new AbortController().signal) {
	const tool = tools.find(candidate => candidate.name === name);
	assert.ok(tool, `${name} among ${tools.map(candidate => candidate.name).join(', ')}`);
	return (await tool.plan(args, {workspace: root, signal, outputLimit: 100_000})).run();
}

test('Streamable HTTP with the entry’s bearer header: text, image, a cancelled long call', async () => {
	authorizations.length = 0;
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	const {servers, reports} = await serversOf({far: {type: 'http', url: frontUrl, headers: {Authorization: 'Bearer ${TOKEN}'}}}, {TOKEN: 'tok-123'});
	assert.deepEqual(reports, []);
	assert.equal(servers.status()[0]?.state, 'ready');
	assert.equal(servers.status()[0]?.transport, 'http');
	assert.match((await run(servers.tools(), 'mcp__far__echo', {message: 'over http'})).output, /over http/);
	const image = await run(servers.tools(), 'mcp__far__get-tiny-image', {});
	assert.equal((image.images as unknown[]).length, 1);
	const controller = new AbortController();
	const long = run(servers.tools(), 'mcp__far__trigger-long-running-operation', {duration: 30, steps: 30}, controller.signal);
	setTimeout(() => controller.abort(new Error('cancelled by the test')), 200);
	await assert.rejects(long, /cancelled by the test/);
	assert.ok(authorizations.length >= 4);
	assert.ok(
		authorizations.every(header => header === 'Bearer tok-123'),
		JSON.stringify(authorizations),
	);
});

test('a refused token: the server fails with the status, reported once, no fallback tried', async () => {
	authorizations.length = 0;
	const {servers, reports} = await serversOf({far: {type: 'http', url: frontUrl, headers: {Authorization: 'Bearer wrong'}}});
	assert.equal(servers.status()[0]?.state, 'failed');
	assert.equal(reports.length, 1);
	assert.match(reports[0]!, /MCP server far could not start: HTTP 401: .*\(the server refused the credential of the entry's "Authorization" header\)/);
	assert.deepEqual(servers.tools(), []);
	const refused = requests.filter(request => request.authorization === 'Bearer wrong');
	assert.deepEqual(
		refused.map(request => request.method),
		['POST'],
		'the initialize POST, and no legacy GET after it',
	);
});

test('an "http" entry at a legacy HTTP+SSE server falls back to SSE (and says sse); an "sse" entry speaks it at once', async () => {
	const {servers, reports} = await serversOf({
		legacy: {type: 'http', url: `http://127.0.0.1:${ssePort}/sse`},
		direct: {type: 'sse', url: `http://127.0.0.1:${ssePort}/sse`},
	});
	assert.deepEqual(reports, []);
	assert.deepEqual(
		servers.status().map(status => [status.name, status.state]),
		[
			['legacy', 'ready'],
			['direct', 'ready'],
		],
	);
	// The transport in use: the "http" entry's server turned out to speak legacy SSE (/mcp and i mcp list show it).
	assert.deepEqual(
		servers.status().map(status => status.transport),
		['sse', 'sse'],
	);
	assert.match((await run(servers.tools(), 'mcp__legacy__echo', {message: 'through the fallback'})).output, /through the fallback/);
	assert.match((await run(servers.tools(), 'mcp__direct__echo', {message: 'sse at once'})).output, /sse at once/);
});

test('i mcp list names the transport in use: sse for an "http" entry whose server fell back', async () => {
	const box = makeSandbox();
	writeFileSync(
		join(box.configDir, 'settings.json'),
		JSON.stringify({mcpServers: {legacy: {type: 'http', url: `http://127.0.0.1:${ssePort}/sse`}, modern: {type: 'http', url: `http://127.0.0.1:${streamablePort}/mcp`}}}),
	);
	const listed = await runCli(['mcp', 'list'], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	assert.equal(listed.code, 0, listed.stderr);
	assert.match(listed.stdout, /^legacy {2}ready {2}sse {2}.*\nmodern {2}ready {2}http {2}/);
});
