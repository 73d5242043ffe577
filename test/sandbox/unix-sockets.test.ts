// UNIX socket files a sandboxed command can see (in the workspace, in /tmp)
// stay out of its reach: the real bubblewrap loads the filter of
// unix-socket-filter.ts, so socket(AF_UNIX) fails with EPERM, also where the
// domain proxy's bridge runs first; outside the sandbox the same command
// reaches the socket.
import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, realpathSync, rmSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createShellTool} from '../../source/core/tools/shell.js';
import {ShellSandbox} from '../../source/core/sandbox/shell-sandbox.js';
import {probeBwrap} from '../../source/core/sandbox/sandbox-policy.js';
import {run, tempDir, toolContext} from '../tools/helpers.js';

/** A UNIX socket server at `path` answering `reply`, counting the connections it got; it ends with `t`. */
async function socketServer(t: TestContext, path: string, reply: string): Promise<{connections: () => number; command: string}> {
	let connections = 0;
	const server = createServer(socket => {
		connections++;
		socket.end(`${reply}\n`);
	});
	await new Promise<void>(resolve => server.listen(path, resolve));
	t.after(() => server.close());
	const command = `${process.execPath} -e "require('net').connect('${path}').on('data', d => process.stdout.write(d)).on('error', e => { console.log(e.code + ': ' + e.message); process.exit(3); })"`;
	return {connections: () => connections, command};
}

function sandbox(t: TestContext, workspace: string, allowedDomains: string[] = []): ShellSandbox {
	const configDir = realpathSync(mkdtempSync(join(tmpdir(), 'i-unix-config-')));
	t.after(() => rmSync(configDir, {recursive: true, force: true}));
	// The proxy resolves site.test to the test's own server.
	const lookup = async (host: string) => (host === 'site.test' ? '127.0.0.1' : Promise.reject(new Error(`no such host ${host}`)));
	const made = new ShellSandbox({workspace, configDir}, message => assert.fail(`no warning expected: ${message}`), {lookup});
	made.configure({enabled: true, off: null, allowWrite: [], allowedDomains});
	t.after(async () => made.close());
	return made;
}

test('the sandbox loads its UNIX-socket filter on this machine', async () => {
	const probe = await probeBwrap();
	assert.equal(probe.ok, true);
	assert.match(probe.ok ? (probe.filter ?? probe.noFilter ?? '') : '', /^\/proc\/\d+\/fd\/\d+$/);
});

test('a UNIX socket in the workspace and one in /tmp are refused to a sandboxed command, which says so; outside the sandbox it reaches both', async t => {
	const workspace = await tempDir(t);
	const inWorkspace = await socketServer(t, join(workspace, 'db.sock'), 'from the workspace');
	const inTemp = await socketServer(t, join(realpathSync(tmpdir()), `i-unix-test-${process.pid}.sock`), 'from tmp');
	const shell = createShellTool(undefined, sandbox(t, workspace));
	for (const server of [inWorkspace, inTemp]) {
		const tried = await run(shell, {command: server.command}, toolContext(workspace));
		assert.equal(tried.isError, true, tried.output);
		assert.match(tried.output, /^EPERM: connect EPERM .*\.sock$/m);
		assert.match(tried.output, /\[sandbox\] This command ran in i’s sandbox, which may have refused:\n {2}EPERM/);
		assert.match(tried.output, /the network is off; UNIX sockets cannot be opened;/);
		assert.doesNotMatch(tried.output, /from the/);
		assert.equal(server.connections(), 0);
	}

	// socketpair(AF_UNIX) reaches nothing outside and stays allowed: Node makes a child's stdio pipes with it.
	const pair = await run(
		shell,
		{
			command: `${process.execPath} -e "const {spawnSync} = require('child_process'); const r = spawnSync('/bin/sh', ['-c', 'echo paired'], {stdio: ['pipe', 'pipe', 'inherit']}); process.stdout.write(r.stdout)"`,
		},
		toolContext(workspace),
	);
	assert.match(pair.output, /^paired$/m, 'Node gives a child pipes made by socketpair');

	const off = new ShellSandbox({workspace, configDir: workspace}, () => {});
	off.configure({enabled: false, off: '--no-sandbox', allowWrite: [], allowedDomains: []});
	const plain = createShellTool(undefined, off);
	assert.match((await run(plain, {command: inWorkspace.command}, toolContext(workspace))).output, /from the workspace/);
	assert.match((await run(plain, {command: inTemp.command}, toolContext(workspace))).output, /from tmp/);
	assert.equal(inWorkspace.connections() + inTemp.connections(), 2);
});

test('with sandbox.allowedDomains the command still reaches an allowed site through the proxy, and still no UNIX socket', async t => {
	const http = await import('node:http');
	const site = http.createServer((_request, response) => response.end('hello through the bridge\n'));
	await new Promise<void>(resolve => site.listen(0, '127.0.0.1', resolve));
	t.after(() => site.close());
	const sitePort = (site.address() as {port: number}).port;
	const workspace = await tempDir(t);
	const socket = await socketServer(t, join(workspace, 'db.sock'), 'from the workspace');
	const shell = createShellTool(undefined, sandbox(t, workspace, ['site.test', `127.0.0.1:${sitePort}`]));
	const reached = await run(shell, {command: `curl -sS --max-time 10 http://site.test:${sitePort}/`}, toolContext(workspace));
	assert.equal(reached.isError, false, reached.output);
	assert.match(reached.output, /hello through the bridge/);

	const tried = await run(shell, {command: socket.command}, toolContext(workspace));
	assert.match(tried.output, /^EPERM: connect EPERM/m);
	assert.equal(socket.connections(), 0);
	// The bridge's socat shows in /proc (the outer sandbox's, read-only), but its memory cannot be written through it.
	const bridge = await run(shell, {command: 'for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = socat ] && echo "socat is $(basename $p)" && printf x > $p/mem; done; true'}, toolContext(workspace));
	assert.match(bridge.output, /^socat is \d+$/m);
	assert.match(bridge.output, /mem: Read-only file system/);
});
