// MCP servers through the built `i`: a one-shot starts its servers with the
// set-up and its first request holds their tools (waiting up to a bound), `@server:uri` resources,
// project servers without trust, configuration errors, and the `i mcp` commands.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, unbundledCliPath, type Sandbox} from '../helpers/cli.js';
import {importRecorder} from '../helpers/import-log.js';
import {MCP_FIRST_REQUEST_WAIT_MS} from '../../source/core/mcp/mcp-handle.js';

const everythingServer = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const silentServer = fileURLToPath(new URL('../fixtures/mcp/silent-server.js', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandbox(): Sandbox {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'mock-model', max_retries: 0});
	return box;
}

const globalSettings = (box: Sandbox, data: unknown) => writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify(data, null, 2));
const lastUser = (body: any): string => {
	const user = [...body.messages].reverse().find((message: any) => message.role === 'user');
	return typeof user.content === 'string' ? user.content : user.content.map((part: any) => part.text ?? '').join('');
};

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
	const start = Date.now();
	while (!check()) {
		if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise(resolve => setTimeout(resolve, 20));
	}
}

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

test("a one-shot starts its servers with the set-up: the first request holds a ready server's tools", async () => {
	const box = sandbox();
	globalSettings(box, {mcpServers: {every: {command: process.execPath, args: [everythingServer]}}});
	mock.enqueue({text: 'answered at once'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'hello'], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /answered at once/);
	const tools = (mock.requests[sent]!.body.tools ?? []).map((tool: any) => tool.function?.name ?? tool.name);
	assert.ok(tools.includes('mcp__every__echo'), tools.join(', '));
	assert.doesNotMatch(run.stderr, /not ready/);
});

test(`a one-shot's first request waits for its servers only up to ${MCP_FIRST_REQUEST_WAIT_MS / 1000} s: one not ready is named and left out, and none is left running`, async () => {
	const box = sandbox();
	const pids = [1, 2].map(index => join(box.root, `silent-${index}.pids`));
	globalSettings(box, {mcpServers: Object.fromEntries(pids.map((file, index) => [`silent${index}`, {command: process.execPath, args: [silentServer, file]}]))});
	mock.enqueue({text: 'answered without them'});
	const sent = mock.requests.length;
	// They never answer initialize (their own timeout is 60 s): the request goes at the bound without them.
	const run = await runCli(['-p', 'hello'], {env: box.env, cwd: box.workspace, timeoutMs: 40_000});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /answered without them/);
	for (const index of [0, 1]) assert.match(run.stderr, new RegExp(`MCP server silent${index} was not ready within ${MCP_FIRST_REQUEST_WAIT_MS / 1000} s: the first request goes without its tools`));
	const tools = (mock.requests[sent]!.body.tools ?? []).map((tool: any) => tool.function?.name ?? tool.name);
	assert.ok(!tools.some((name: string) => name.startsWith('mcp__')), tools.join(', '));
	for (const file of pids) {
		assert.ok(existsSync(file), `${file}: the server was started with the set-up`);
		for (const pid of readFileSync(file, 'utf8').trim().split(' ').map(Number)) await until(() => !alive(pid), `process ${pid} of ${file} to end with i`);
	}
});

test('an interrupt while the first request waits for the servers ends the run at once, before the bound', async () => {
	const box = sandbox();
	const pids = join(box.root, 'silent.pids');
	globalSettings(box, {mcpServers: {silent: {command: process.execPath, args: [silentServer, pids]}}});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'hello'], {
		env: box.env,
		cwd: box.workspace,
		timeoutMs: 30_000,
		onSpawn(child) {
			// Once the server was started, the run waits for it: Ctrl-C then.
			const timer = setInterval(() => {
				if (existsSync(pids)) {
					clearInterval(timer);
					child.kill('SIGINT');
				}
			}, 20);
		},
	});
	assert.equal(run.code, 130, run.stderr);
	assert.doesNotMatch(run.stderr, /was not ready within/);
	assert.equal(mock.requests.length, sent, 'no request was sent');
});

test('a one-shot with no server configured loads nothing of the MCP SDK', async () => {
	const box = sandbox();
	const log = join(box.root, 'imports.log');
	mock.enqueue({text: 'plain'});
	const run = await runCli(['-p', 'hello'], {env: {...box.env, NODE_OPTIONS: `--import=${importRecorder}`, I_TEST_IMPORT_LOG: log}, cwd: box.workspace, entry: unbundledCliPath, timeoutMs: 30_000});
	assert.equal(run.code, 0, run.stderr);
	const urls = readFileSync(log, 'utf8').split('\n');
	assert.ok(
		urls.some(url => url.includes('/core/agent/run-turn.js')),
		'the recorder saw the core',
	);
	assert.deepEqual(
		urls.filter(url => /\/node_modules\/@modelcontextprotocol\/|\/core\/mcp\/mcp-servers\.js$/.test(url)),
		[],
	);
});

test('@server:uri in a -p prompt attaches the resource (the server is waited for, since the prompt needs it)', async () => {
	const box = sandbox();
	globalSettings(box, {mcpServers: {every: {command: process.execPath, args: [everythingServer, 'stdio']}}});
	mock.enqueue({text: 'read it'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'summarise @every:demo://resource/dynamic/text/1, please; and @nobody:x stays'], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	assert.equal(run.code, 0, run.stderr);
	const text = lastUser(mock.requests[sent]!.body);
	assert.match(text, /^summarise @every:demo:\/\/resource\/dynamic\/text\/1, please; and @nobody:x stays\n\n<resource server="every" uri="demo:\/\/resource\/dynamic\/text\/1">\n.*Resource 1/s);
	assert.match(text, /<\/resource>$/);
	// Line mode attaches them too.
	mock.enqueue({text: 'line one'});
	const lines = await runCli(['-C', box.workspace], {env: box.env, cwd: box.workspace, input: 'look at @every:demo://resource/dynamic/text/3\n', timeoutMs: 30_000});
	assert.equal(lines.code, 0, lines.stderr);
	assert.match(lastUser(mock.requests[sent + 1]!.body), /<resource server="every" uri="demo:\/\/resource\/dynamic\/text\/3">/);
	// A missing resource is said, and the turn goes on.
	mock.enqueue({text: 'ok'});
	const missing = await runCli(['-p', 'see @every:demo://no/such/thing'], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	assert.equal(missing.code, 0, missing.stderr);
	assert.match(missing.stderr, /@every:demo:\/\/no\/such\/thing was not attached: /);
});

test('a project .mcp.json is ignored without trust (one warning) and used with --trust-project', async () => {
	const box = sandbox();
	writeFileSync(join(box.workspace, '.mcp.json'), JSON.stringify({mcpServers: {proj: {command: process.execPath, args: [everythingServer, 'stdio']}}}));
	mock.enqueue({text: 'one'});
	const sent = mock.requests.length;
	const untrusted = await runCli(['-p', 'look at @proj:demo://resource/dynamic/text/2'], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	assert.equal(untrusted.code, 0, untrusted.stderr);
	assert.match(untrusted.stderr, /is not trusted, so its MCP servers were not started: proj \(.*\.mcp\.json\); pass --trust-project/);
	assert.doesNotMatch(lastUser(mock.requests[sent]!.body), /<resource/);
	mock.enqueue({text: 'two'});
	const trusted = await runCli(['-p', '--trust-project', 'look at @proj:demo://resource/dynamic/text/2'], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	assert.equal(trusted.code, 0, trusted.stderr);
	assert.doesNotMatch(trusted.stderr, /not trusted/);
	assert.match(lastUser(mock.requests[sent + 1]!.body), /<resource server="proj"/);
});

test('a configuration error is a warning naming the file and the server; the turn goes on', async () => {
	const box = sandbox();
	globalSettings(box, {mcpServers: {broken: {command: 'x', args: 'not a list'}}});
	mock.enqueue({text: 'still answering'});
	const run = await runCli(['-p', 'hi'], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /still answering/);
	assert.match(run.stderr, new RegExp(`MCP servers were not started: ${join(box.configDir, 'settings.json')}: MCP server "broken": field "args"`));
	const listed = await runCli(['mcp', 'list'], {env: box.env, cwd: box.workspace});
	assert.equal(listed.code, 2);
	assert.match(listed.stderr, /^i: mcp list: .*settings\.json: MCP server "broken": field "args"/);
});

test('i mcp add, list, get and remove: the project settings by default, --global, other keys and indentation kept', async () => {
	const box = sandbox();
	const project = join(box.workspace, '.i', 'settings.json');
	mkdirSync(join(box.workspace, '.i'));
	writeFileSync(project, '{\n    "skills": ["s"]\n}\n');
	const cli = async (...args: string[]) => runCli(['mcp', ...args], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	const added = await cli('add', 'every', '--env', 'MODE=${MODE:-x}', '--', process.execPath, everythingServer, 'stdio');
	assert.equal(added.code, 0, added.stderr);
	assert.match(added.stdout, /^added MCP server every in .*\.i\/settings\.json, for this project/);
	const text = readFileSync(project, 'utf8');
	assert.ok(text.startsWith('{\n    "skills": [\n        "s"\n    ],\n    "mcpServers": {\n        "every": {\n'), text);
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	assert.deepEqual(JSON.parse(text).mcpServers.every, {command: process.execPath, args: [everythingServer, 'stdio'], env: {MODE: '${MODE:-x}'}});
	const again = await cli('add', 'every', '--', 'node');
	assert.equal(again.code, 2);
	assert.match(again.stderr, /has an MCP server "every" already: .*--force/);
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	const remote = await cli('add', 'far', '--global', '--url', 'http://127.0.0.1:9/mcp', '--header', 'Authorization: Bearer ${TOKEN}');
	assert.equal(remote.code, 0, remote.stderr);
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the MCP configuration's own ${VAR} syntax
	assert.deepEqual(JSON.parse(readFileSync(join(box.configDir, 'settings.json'), 'utf8')).mcpServers.far, {type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {Authorization: 'Bearer ${TOKEN}'}});
	// The project's server needs trust; the global one is listed with the variable it lacks.
	const listed = await cli('list', '--json');
	assert.equal(listed.code, 2, 'TOKEN is unset');
	assert.match(listed.stderr, /MCP server "far", headers\.Authorization: the environment variable TOKEN is not set/);
	const removedFar = await cli('remove', 'far');
	assert.equal(removedFar.code, 2);
	assert.match(removedFar.stderr, /no MCP server "far" in .*\.i\/settings\.json; it is in .*config\/settings\.json \(with --global\)/);
	assert.equal((await cli('remove', 'far', '--global')).code, 0);
	// Right after the add, without trust: listed as not started, with the reason and how to trust; exit 1.
	const untrusted = await cli('list');
	assert.equal(untrusted.code, 1);
	assert.match(
		untrusted.stdout,
		/^every {2}not started {2}.*\.i\/settings\.json\n {4}not started: the workspace .* is not trusted; pass --trust-project to start them, or answer the trust question of the chat screen \(i in this folder\)\n$/,
	);
	const untrustedJson = JSON.parse((await cli('list', '--json')).stdout);
	assert.deepEqual([untrustedJson.servers[0].name, untrustedJson.servers[0].state], ['every', 'untrusted']);
	const list = await cli('list', '--trust-project');
	assert.equal(list.code, 0, list.stderr);
	assert.match(list.stdout, /^every {2}ready {2}stdio {2}\d+ tools, 4 prompts, \d+ resources {2}.*\.i\/settings\.json\n$/);
	const get = await cli('get', 'every', '--trust-project');
	assert.match(get.stdout, /tools: echo, /);
	assert.match(get.stdout, /prompts: simple-prompt, args-prompt/);
	const none = await cli('get', 'nobody', '--trust-project');
	assert.equal(none.code, 2);
	assert.match(none.stderr, /no MCP server named "nobody" here \(configured: every\)/);
	assert.equal((await cli('remove', 'every')).code, 0);
	assert.deepEqual(JSON.parse(readFileSync(project, 'utf8')), {skills: ['s'], mcpServers: {}});
	for (const words of [['--help'], ['add', '--help'], ['list', '--help'], ['get', '--help'], ['remove', '--help']]) {
		const help = await cli(...words);
		assert.equal(help.code, 0);
		assert.match(help.stdout, /^i mcp — Model Context Protocol servers/);
	}

	const unknown = await cli('lst');
	assert.equal(unknown.code, 2);
	assert.match(unknown.stderr, /unknown mcp command "lst" \(did you mean i mcp list\?\)/);
});
