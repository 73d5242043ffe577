// MCP stdio servers whose entry asks for the sandbox, with the real
// bubblewrap (.ci/run installs it): what such a server may write and read,
// that stopping it ends the process inside, the entry's configuration
// errors, and that a server whose sandbox cannot start is never started.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {readMcpConfig} from '../../source/core/mcp/mcp-config.js';
import {McpServers} from '../../source/core/mcp/mcp-servers.js';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

const writeServer = fileURLToPath(new URL('../fixtures/mcp/write-server.js', import.meta.url));
const SECRET = 'sk-mcp-sandbox-test-0123456789';
let root: string;
let home: string;
let outside: string;
const savedHome = process.env.HOME;
const opened: McpServers[] = [];

before(() => {
	// Outside the temporary folder, which a sandboxed server may write.
	root = realpathSync(mkdtempSync(join('/var/tmp', 'i-mcp-sandbox-')));
	// A home of the test's own, so ~/.ssh is a file the test made.
	home = join(root, 'home');
	mkdirSync(join(home, '.ssh'), {recursive: true});
	writeFileSync(join(home, '.ssh', 'id_rsa'), 'DUMMY-PRIVATE-KEY\n');
	process.env.HOME = home;
	// Outside the workspace and the temporary folder.
	outside = realpathSync(mkdtempSync(join('/var/tmp', 'i-mcp-sandbox-outside-')));
});

after(async () => {
	await Promise.all(opened.map(async servers => servers.close()));
	process.env.HOME = savedHome;
	rmSync(root, {recursive: true, force: true});
	rmSync(outside, {recursive: true, force: true});
});

let count = 0;
/** A run's folders, with `mcpServers` (which may make folders in the workspace first) in its global settings. */
function place(mcpServers: (workspace: string) => Record<string, unknown>) {
	const base = join(root, `run-${++count}`);
	const dirs: PlatformDirs = {config_dir: join(base, 'config'), data_dir: join(base, 'data'), cache_dir: join(base, 'cache'), runtime_dir: join(base, 'runtime')};
	const workspace = join(base, 'workspace');
	mkdirSync(dirs.config_dir, {recursive: true});
	mkdirSync(workspace);
	const settings = join(dirs.config_dir, 'settings.json');
	writeFileSync(settings, JSON.stringify({mcpServers: mcpServers(workspace)}));
	return {dirs, workspace, settings};
}

async function started(mcpServers: (workspace: string) => Record<string, unknown>) {
	const {dirs, workspace, settings} = place(mcpServers);
	const environment = {PATH: process.env.PATH};
	const config = await readMcpConfig({workspace, configDir: dirs.config_dir, trusted: false, environment});
	const reports: string[] = [];
	const servers = new McpServers({config, workspace, dirs, clientVersion: '0.0.0-test', takenToolNames: new Map(), report: message => reports.push(message), environment});
	opened.push(servers);
	await servers.start();
	return {servers, reports, workspace, dirs, settings};
}

async function call(servers: McpServers, name: string, args: Record<string, unknown>) {
	const tool = servers.tools().find(candidate => candidate.name === name);
	assert.ok(
		tool,
		`${name} among ${servers
			.tools()
			.map(candidate => candidate.name)
			.join(', ')}`,
	);
	const plan = await tool.plan(args, {workspace: root, signal: new AbortController().signal, outputLimit: 100_000});
	return plan.run();
}

/** The processes (not zombies) whose command line holds `marker`. */
function processesWith(marker: string): number[] {
	const found: number[] = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			if (stat.split(') ')[1]?.[0] === 'Z') continue;
			if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) found.push(Number(name));
		} catch {
			// Gone while being read.
		}
	}

	return found;
}

test('a sandboxed MCP server writes in its allowWrite folder and the temporary folder, nowhere else, and cannot read ~/.ssh or i’s config', async () => {
	const allowed = join(root, 'allowed');
	mkdirSync(allowed);
	const {servers, reports, workspace, dirs} = await started(() => ({writer: {command: process.execPath, args: [writeServer], sandbox: {allowWrite: [allowed]}}}));
	assert.deepEqual(reports, []);
	const [status] = servers.status();
	assert.equal(status?.state, 'ready', status?.lastError);
	assert.match(status?.describe ?? '', /\(sandboxed; .*settings\.json\)$/);

	const inside = await call(servers, 'mcp__writer__write_file', {path: join(allowed, 'in.txt'), text: 'inside'});
	assert.notEqual(inside.isError, true, inside.output);
	assert.equal(readFileSync(join(allowed, 'in.txt'), 'utf8'), 'inside');
	const temp = await call(servers, 'mcp__writer__write_file', {path: join(tmpdir(), `i-mcp-sandbox-temp-${process.pid}`), text: 't'});
	assert.notEqual(temp.isError, true, temp.output);
	rmSync(join(tmpdir(), `i-mcp-sandbox-temp-${process.pid}`), {force: true});

	for (const path of [join(outside, 'escape.txt'), join(workspace, 'no-cwd-given.txt')]) {
		const refused = await call(servers, 'mcp__writer__write_file', {path, text: 'escape'});
		assert.equal(refused.isError, true, path);
		assert.match(refused.output, /EROFS: read-only file system/);
		assert.equal(existsSync(path), false);
	}

	writeFileSync(join(dirs.config_dir, 'auth.json'), `{"openai": "${SECRET}"}`);
	for (const path of [join(home, '.ssh', 'id_rsa'), join(dirs.config_dir, 'auth.json')]) {
		const read = await call(servers, 'mcp__writer__read_file', {path});
		assert.equal(read.isError, true, path);
		assert.match(read.output, /ENOENT: no such file or directory/);
		assert.doesNotMatch(read.output, /DUMMY-PRIVATE-KEY|sk-mcp-sandbox/);
	}

	// Its own process tree: the server is not the process i started.
	const pid = await call(servers, 'mcp__writer__pid', {});
	assert.ok(Number(pid.output) < 10, `the server's pid inside is ${pid.output}`);
});

test("a sandboxed server's cwd, when its entry names one, is writable; stopping the server ends the process inside bubblewrap", async () => {
	const marker = `i-mcp-sandbox-marker-${process.pid}`;
	const {servers} = await started(workspace => {
		mkdirSync(join(workspace, 'data'));
		return {writer: {command: process.execPath, args: [writeServer, marker], cwd: 'data', sandbox: true}};
	});
	assert.equal(servers.status()[0]?.state, 'ready', servers.status()[0]?.lastError);
	const written = await call(servers, 'mcp__writer__write_file', {path: 'relative.txt', text: 'in its folder'});
	assert.notEqual(written.isError, true, written.output);
	// bubblewrap, the namespace's first process and the server.
	assert.ok(processesWith(marker).length >= 2, 'the server runs');
	await servers.close();
	const start = Date.now();
	while (processesWith(marker).length > 0) {
		if (Date.now() - start > 5000) assert.fail(`still running after close: ${processesWith(marker).join(', ')}`);
		await new Promise(resolve => setTimeout(resolve, 20));
	}
});

test('"sandbox" errors name the file, the server and the field: a remote server, a missing allowWrite folder or cwd, a malformed domain', async () => {
	const cases: Array<[Record<string, unknown>, RegExp]> = [
		[{far: {type: 'http', url: 'https://mcp.example.test/mcp', sandbox: true}}, /MCP server "far": field "sandbox" is for a server i starts \(a "command"\); a remote server \(a "url"\) runs no process/],
		[
			{writer: {command: 'x', sandbox: {allowWrite: ['~/no-such-folder']}}},
			/MCP server "writer": field "sandbox\.allowWrite\[0\]": .*\/home\/no-such-folder does not exist; a sandbox lets a program write only in folders that exist/,
		],
		[{writer: {command: 'x', cwd: 'missing', sandbox: true}}, /MCP server "writer": field "cwd": .*\/workspace\/missing does not exist/],
		[{writer: {command: 'x', sandbox: {allowedDomains: ['exa mple.com']}}}, /MCP server "writer": field "sandbox\.allowedDomains\[0\]": "exa mple\.com" contains a space; write one host per entry/],
		[{writer: {command: 'x', sandbox: {allowWrite: '/tmp'}}}, /MCP server "writer": field "sandbox/],
	];
	for (const [entries, message] of cases) {
		const {dirs, workspace, settings} = place(() => entries);
		await assert.rejects(readMcpConfig({workspace, configDir: dirs.config_dir, trusted: false, environment: {}}), error => {
			assert.ok((error as Error).message.startsWith(`${settings}: MCP server `), (error as Error).message);
			assert.match((error as Error).message, message);
			return true;
		});
	}

	// Relative paths are the workspace's, ~/ the home folder's; domains are kept in lower case.
	const {dirs, workspace} = place(workspace => {
		mkdirSync(join(workspace, 'out'));
		mkdirSync(join(home, 'cache'), {recursive: true});
		return {writer: {command: 'x', sandbox: {allowWrite: ['out', '~/cache'], allowedDomains: ['API.example.com:443', '*.example.org']}}, plain: {command: 'y'}};
	});
	const config = await readMcpConfig({workspace, configDir: dirs.config_dir, trusted: false, environment: {}});
	const [writer, plain] = config.servers;
	assert.ok(writer?.transport === 'stdio' && plain?.transport === 'stdio');
	assert.deepEqual(writer.sandbox, {writable: [join(workspace, 'out'), join(home, 'cache')], allowedDomains: ['api.example.com:443', '*.example.org']});
	assert.equal(plain.sandbox, null);
});

test('where bubblewrap cannot start, a server that asked for the sandbox fails and is never started; i mcp add --sandbox writes it', async () => {
	const box = makeSandbox();
	const startedMarker = join(box.root, 'started');
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({mcpServers: {boxed: {command: '/bin/sh', args: ['-c', `echo started > ${startedMarker}`], sandbox: true}}}));
	// A PATH without bubblewrap (the server's command is a full path).
	const noBwrap = join(box.root, 'empty-bin');
	mkdirSync(noBwrap);
	const listed = await runCli(['mcp', 'list'], {env: {...box.env, PATH: noBwrap}, cwd: box.workspace, timeoutMs: 30_000});
	assert.equal(listed.code, 1, listed.stderr);
	assert.match(
		listed.stdout,
		/^boxed {2}failed {2}stdio {2}.*settings\.json\n {4}could not start: its sandbox cannot start: bubblewrap \(bwrap\) is not on PATH \(install bubblewrap, or take "sandbox" out of its entry in .*settings\.json to run it unsandboxed\)\n$/,
	);
	assert.equal(existsSync(startedMarker), false, 'the server was never started');

	const cli = async (...args: string[]) => runCli(['mcp', ...args], {env: box.env, cwd: box.workspace, timeoutMs: 30_000});
	const added = await cli('add', 'local', '--global', '--sandbox', '--', process.execPath, writeServer);
	assert.equal(added.code, 0, added.stderr);
	assert.deepEqual(JSON.parse(readFileSync(join(box.configDir, 'settings.json'), 'utf8')).mcpServers.local, {command: process.execPath, args: [writeServer], sandbox: true});
	const remote = await cli('add', 'far', '--sandbox', '--url', 'https://mcp.example.test/mcp');
	assert.equal(remote.code, 2);
	assert.match(remote.stderr, /--sandbox is for a server i starts/);
});

test("a sandboxed server's allowedDomains reach through a proxy of its own, which stops with the server; nothing else is reached", async () => {
	const http = await import('node:http');
	const site = http.createServer((_request, response) => response.end('hello from the allowed site\n'));
	await new Promise<void>(resolve => site.listen(0, '127.0.0.1', resolve));
	const port = (site.address() as {port: number}).port;
	try {
		const {servers} = await started(() => ({writer: {command: process.execPath, args: [writeServer], sandbox: {allowedDomains: [`127.0.0.1:${port}`]}}}));
		// curl takes the proxy from the environment; --noproxy '' lets it ask the proxy for a loopback address too.
		const reached = await call(servers, 'mcp__writer__run', {argv: ['curl', '-sS', '--noproxy', '', `http://127.0.0.1:${port}/`]});
		assert.match(reached.output, /hello from the allowed site/);
		const other = await call(servers, 'mcp__writer__run', {argv: ['curl', '-sSf', '--noproxy', '', `http://127.0.0.1:${port + 1 === 65_536 ? port - 1 : port + 1}/`]});
		assert.doesNotMatch(other.output, /hello/);
		const direct = await call(servers, 'mcp__writer__run', {argv: ['curl', '-sS', '--max-time', '5', '--noproxy', '*', `http://127.0.0.1:${port}/`]});
		assert.doesNotMatch(direct.output, /hello/);
		const sockets = () => readdirSync(join(tmpdir(), `i-sandbox-${process.getuid?.() ?? 'user'}`)).filter(name => name.startsWith(`proxy-${process.pid}-`));
		assert.equal(sockets().length, 1, 'the server has its proxy');
		await servers.close();
		assert.equal(sockets().length, 0, 'the proxy went with the server');
	} finally {
		site.close();
	}
});
