// The MCP servers of a run, against real servers: @modelcontextprotocol/server-everything
// over stdio (a pinned devDependency run with node from node_modules), a
// server that dies in the middle of a call and one that never answers
// initialize (test/fixtures/mcp).
import {test, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {readMcpConfig} from '../../source/core/mcp/mcp-config.js';
import {McpServers} from '../../source/core/mcp/mcp-servers.js';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import type {Tool, ToolContext} from '../../source/core/tools/types.js';

export const everythingServer = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const testServer = fileURLToPath(new URL('../fixtures/mcp/test-server.js', import.meta.url));
const silentServer = fileURLToPath(new URL('../fixtures/mcp/silent-server.js', import.meta.url));

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-mcp-')));
const opened: McpServers[] = [];
after(async () => Promise.all(opened.map(async servers => servers.close())));

let count = 0;
async function serversOf(mcpServers: Record<string, unknown>, environment: NodeJS.ProcessEnv = {PATH: process.env.PATH}) {
	const base = join(root, `run-${++count}`);
	const dirs: PlatformDirs = {config_dir: join(base, 'config'), data_dir: join(base, 'data'), cache_dir: join(base, 'cache'), runtime_dir: join(base, 'runtime')};
	const workspace = join(base, 'workspace');
	mkdirSync(dirs.config_dir, {recursive: true});
	mkdirSync(workspace);
	writeFileSync(join(dirs.config_dir, 'settings.json'), JSON.stringify({mcpServers}));
	const config = await readMcpConfig({workspace, configDir: dirs.config_dir, trusted: false, environment});
	const reports: string[] = [];
	const servers = new McpServers({config, workspace, dirs, clientVersion: '0.0.0-test', takenToolNames: new Map([['read', 'a native tool']]), report: message => reports.push(message), environment});
	opened.push(servers);
	return {servers, reports, workspace};
}

function context(signal = new AbortController().signal): ToolContext {
	return {workspace: root, signal, outputLimit: 100_000};
}

async function call(tools: readonly Tool[], name: string, args: Record<string, unknown>, signal?: AbortSignal) {
	const tool = tools.find(candidate => candidate.name === name);
	assert.ok(tool, `${name} among ${tools.map(candidate => candidate.name).join(', ')}`);
	const plan = await tool.plan(args, context(signal));
	return {plan, result: plan.run()};
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
	const start = Date.now();
	while (!check()) {
		if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise(resolve => setTimeout(resolve, 20));
	}
}

test('server-everything over stdio: text and image results, an approval ask, prompts, resources and list_changed', async () => {
	const {servers, reports} = await serversOf({everything: {command: process.execPath, args: [everythingServer, 'stdio'], alwaysAllow: ['get-sum']}});
	assert.deepEqual(servers.tools(), [], 'nothing is offered before the server is ready');
	await servers.start();
	assert.deepEqual(reports, []);
	const [status] = servers.status();
	assert.equal(status?.state, 'ready');
	const tools = servers.tools();
	const names = tools.map(tool => tool.name);
	assert.ok(names.includes('mcp__everything__echo'), names.join(', '));
	// get-tiny-image: a text, an image and a text.
	const image = await call(tools, 'mcp__everything__get-tiny-image', {});
	assert.equal(image.plan.ask?.title, 'Run get-tiny-image');
	// The owner names the server and its settings file; neither it nor the detail shows the command line that started the server.
	const owner = tools.find(tool => tool.name === 'mcp__everything__get-tiny-image')?.owner ?? '';
	assert.match(owner, /^MCP server everything \(\/.+\/settings\.json\)$/);
	assert.ok(!`${owner} ${image.plan.ask?.detail}`.includes(everythingServer), owner);
	const imageResult = await image.result;
	assert.equal(Array.isArray(imageResult.images) && imageResult.images.length, 1);
	assert.match((imageResult.images as Array<{image_url: {url: string}}>)[0]!.image_url.url, /^data:image\/png;base64,iVBOR/);
	const echo = await call(tools, 'mcp__everything__echo', {message: 'hello 你好'});
	assert.match((await echo.result).output, /hello 你好/);
	// alwaysAllow: no ask, and not an external tool (the gate asks for those).
	const sum = await call(tools, 'mcp__everything__get-sum', {a: 2, b: 40});
	assert.equal(sum.plan.ask, null);
	assert.equal(tools.find(tool => tool.name === 'mcp__everything__get-sum')?.external, undefined);
	assert.match((await sum.result).output, /42/);
	// Arguments are checked against the server's schema before anything is sent.
	await assert.rejects(call(tools, 'mcp__everything__echo', {message: 7}), /message must be a string/);
	const prompts = servers.prompts();
	const args = prompts.find(prompt => prompt.prompt === 'args-prompt');
	assert.equal(args?.command, 'mcp__everything__args-prompt');
	assert.deepEqual(
		args?.arguments.map(argument => [argument.name, argument.required ?? false]),
		[
			['city', true],
			['state', false],
		],
	);
	const prompt = await servers.connection('everything')!.getPrompt('args-prompt', {city: 'Paris'});
	assert.match(JSON.stringify(prompt.messages), /weather in Paris/);
	const resource = await servers.connection('everything')!.readResource('demo://resource/dynamic/text/1');
	assert.match(JSON.stringify(resource.contents), /demo:\/\/resource\/dynamic\/text\/1/);
});

test('a long-running call is cancelled through the SDK when the turn is cancelled, and the server stays', async () => {
	const {servers} = await serversOf({everything: {command: process.execPath, args: [everythingServer, 'stdio']}});
	await servers.start();
	const controller = new AbortController();
	const started = Date.now();
	const {result} = await call(servers.tools(), 'mcp__everything__trigger-long-running-operation', {duration: 30, steps: 30}, controller.signal);
	setTimeout(() => controller.abort(new Error('cancelled by the test')), 200);
	await assert.rejects(result, /cancelled by the test/);
	assert.ok(Date.now() - started < 5000, 'the call ended at the cancel, not after 30 s');
	const echo = await call(servers.tools(), 'mcp__everything__echo', {message: 'still here'});
	assert.match((await echo.result).output, /still here/);
});

test('a stdio server gets the worker environment and its own env, never a variable of i’s it was not given', async () => {
	const environment = {PATH: process.env.PATH, HOME: root, CANARY_API_KEY: 'sk-canary-must-not-leak', GIVEN: 'given-value'};
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	const {servers} = await serversOf({everything: {command: process.execPath, args: [everythingServer, 'stdio'], env: {SERVER_TOKEN: '${GIVEN}'}}}, environment);
	await servers.start();
	const {result} = await call(servers.tools(), 'mcp__everything__get-env', {});
	const env = JSON.parse((await result).output) as Record<string, string>;
	assert.equal(env.CANARY_API_KEY, undefined);
	assert.equal(env.SERVER_TOKEN, 'given-value');
	assert.equal(env.PYTHONUTF8, '1');
	assert.equal(env.HOME, root);
	assert.equal(env.I_CONFIG_DIR?.endsWith('config'), true);
	assert.deepEqual(Object.keys(env).sort(), ['HOME', 'I_CACHE_DIR', 'I_CONFIG_DIR', 'I_DATA_DIR', 'I_RUNTIME_DIR', 'PATH', 'PYTHONUTF8', 'SERVER_TOKEN']);
});

test('a server that dies in the middle of a call: the call fails with its stderr, it is reported once, its tools go, the others stay', async () => {
	const {servers, reports} = await serversOf({
		crash: {command: process.execPath, args: [testServer]},
		everything: {command: process.execPath, args: [everythingServer, 'stdio']},
	});
	await servers.start();
	const {result} = await call(servers.tools(), 'mcp__crash__crash', {});
	await assert.rejects(result, /MCP server crash stopped during the call of crash: the server exited with code 3 \(stderr: "crash-server: giving up on purpose"\)/);
	await until(() => servers.status()[0]?.state === 'failed', 'the failed state');
	assert.equal(reports.length, 1, reports.join('\n'));
	assert.match(reports[0]!, /^MCP server crash stopped: the server exited with code 3 .*\/mcp reconnect crash/);
	assert.ok(!servers.tools().some(tool => tool.name.startsWith('mcp__crash__')));
	assert.ok(servers.tools().some(tool => tool.name === 'mcp__everything__echo'));
	// Reconnect starts it again.
	const reconnected = await servers.reconnect('crash');
	assert.equal(reconnected.ok, true, reconnected.message);
	assert.ok(servers.tools().some(tool => tool.name === 'mcp__crash__pid'));
	assert.equal(reports.length, 1);
});

test('a server that never answers initialize: it times out, is reported, its whole group is killed, the rest goes on', async () => {
	const pids = join(root, 'silent.pids');
	const {servers, reports} = await serversOf({
		silent: {command: process.execPath, args: [silentServer, pids], startTimeout: 0.5},
		everything: {command: process.execPath, args: [everythingServer, 'stdio']},
	});
	await servers.start();
	const silent = servers.status().find(status => status.name === 'silent');
	assert.equal(silent?.state, 'failed');
	assert.match(silent?.lastError ?? '', /did not answer within 0.5 s \(initialize; the server.s "startTimeout"\)/);
	assert.equal(reports.length, 1);
	assert.match(reports[0]!, /MCP server silent did not answer within 0.5 s/);
	assert.ok(servers.tools().some(tool => tool.name === 'mcp__everything__echo'));
	const [server, child] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
	await until(() => !alive(server!) && !alive(child!), 'the group to be gone', 5000);
});

test('tool names: sanitised, cut at 64 with a hash, and a clash with another tool refused naming both', async () => {
	const {servers, reports} = await serversOf({everything: {command: process.execPath, args: [everythingServer, 'stdio']}});
	await servers.start();
	for (const tool of servers.tools()) assert.match(tool.name, /^mcp__everything__[A-Za-z0-9_-]{1,47}$/);
	assert.deepEqual(reports, []);
	const {mcpToolName} = await import('../../source/core/mcp/mcp-tool-name.js');
	assert.equal(mcpToolName('my.server', 'read file'), 'mcp__my_server__read_file');
	const long = mcpToolName('s', 'x'.repeat(100));
	assert.equal(long.length, 64);
	assert.notEqual(long, mcpToolName('s', `${'x'.repeat(99)}y`));
	assert.equal(mcpToolName('s', 'x'.repeat(56)).length, 64);
	assert.equal(mcpToolName('s', 'x'.repeat(56)), `mcp__s__${'x'.repeat(56)}`, 'at the limit: as it is');
	assert.notEqual(mcpToolName('s', 'x'.repeat(57)), `mcp__s__${'x'.repeat(57)}`, 'one past: cut');
});

test('notifications/tools/list_changed brings a new list; a list taken before stays as it was', async () => {
	const {servers} = await serversOf({fixture: {command: process.execPath, args: [testServer]}});
	await servers.start();
	const before = servers.tools();
	assert.ok(!before.some(tool => tool.name === 'mcp__fixture__grown'));
	const grow = await call(before, 'mcp__fixture__grow', {});
	assert.match((await grow.result).output, /grown is registered/);
	await until(() => servers.tools().some(tool => tool.name === 'mcp__fixture__grown'), 'the list_changed refresh');
	assert.ok(!before.some(tool => tool.name === 'mcp__fixture__grown'), 'the list a request took is not changed under it');
	assert.equal(
		servers.tools().find(tool => tool.name === 'mcp__fixture__grow'),
		before.find(tool => tool.name === 'mcp__fixture__grow'),
		'an unchanged tool keeps its object',
	);
	const grown = await call(servers.tools(), 'mcp__fixture__grown', {});
	assert.match((await grown.result).output, /grown answers/);
});

/** Whether the process runs: a zombie (killed, not yet reaped by whoever adopted it) does not. */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}

	try {
		return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
	} catch {
		// No /proc (macOS): the signal's answer is all there is.
		return true;
	}
}

test('roots: the workspace folder is the one root (a file:// URI); server-everything lists it, server-filesystem started without a folder works in it; "roots": false offers none', async () => {
	const filesystemServer = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url));
	const {servers, reports, workspace} = await serversOf({
		everything: {command: process.execPath, args: [everythingServer, 'stdio'], alwaysAllow: ['get-roots-list']},
		fs: {command: process.execPath, args: [filesystemServer]},
		// "roots": false: the server is offered no roots and keeps the folder of its command line.
		own: {command: process.execPath, args: [filesystemServer, root], roots: false},
	});
	writeFileSync(join(workspace, 'notes.txt'), 'kept in the workspace\n');
	await servers.start();
	assert.deepEqual(reports, []);
	// server-everything registers get-roots-list once it saw the client's roots capability (a list_changed after initialize).
	await until(() => servers.tools().some(tool => tool.name === 'mcp__everything__get-roots-list'), 'get-roots-list');
	const listed = await (await call(servers.tools(), 'mcp__everything__get-roots-list', {})).result;
	assert.ok(listed.output.includes(pathToFileURL(workspace).href), listed.output);
	// server-filesystem without a folder argument asks for the roots after initialize and checks them (asynchronously) before it works in the workspace.
	let allowed = '';
	for (let attempt = 0; attempt < 100 && !allowed.includes(workspace); attempt++) {
		if (attempt > 0) await new Promise(resolve => setTimeout(resolve, 20));
		allowed = (await (await call(servers.tools(), 'mcp__fs__list_allowed_directories', {})).result).output;
	}

	assert.ok(allowed.includes(workspace), allowed);
	const read = await (await call(servers.tools(), 'mcp__fs__read_text_file', {path: join(workspace, 'notes.txt')})).result;
	assert.match(read.output, /kept in the workspace/);
	const own = (await (await call(servers.tools(), 'mcp__own__list_allowed_directories', {})).result).output;
	assert.ok(own.includes(root) && !own.includes(workspace), own);
});
