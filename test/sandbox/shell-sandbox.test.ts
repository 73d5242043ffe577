// The model's shell commands in the sandbox, with the real bubblewrap
// (.ci/run installs it): what a command may write, read and reach, and
// what its result says when the sandbox refused something.
import {test, before, after, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync} from 'node:fs';
import {createServer, type Server} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createShellTool} from '../../source/core/tools/shell.js';
import {ShellSandbox} from '../../source/core/sandbox/shell-sandbox.js';
import {createApprovalGate} from '../../source/core/agent/approval-gate.js';
import {PermissionMode} from '../../source/core/agent/permission-mode.js';
import {run, tempDir, toolContext} from '../tools/helpers.js';

const SECRET = 'sk-sandbox-test-0123456789';
let home: string;
let outside: string;
let server: Server;
let port: number;
const savedHome = process.env.HOME;

before(async () => {
	// A home of the test's own, so ~/.ssh is a file the test made.
	home = realpathSync(mkdtempSync(join(tmpdir(), 'i-sandbox-home-')));
	mkdirSync(join(home, '.ssh'));
	writeFileSync(join(home, '.ssh', 'id_rsa'), 'DUMMY-PRIVATE-KEY\n');
	process.env.HOME = home;
	process.env.I_SANDBOX_TEST_KEY = SECRET;
	// Outside the workspace and the temporary folder.
	outside = realpathSync(mkdtempSync(join('/var/tmp', 'i-sandbox-outside-')));
	server = createServer(socket => socket.end('hello\n'));
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	port = (server.address() as {port: number}).port;
});

after(async () => {
	process.env.HOME = savedHome;
	delete process.env.I_SANDBOX_TEST_KEY;
	rmSync(home, {recursive: true, force: true});
	rmSync(outside, {recursive: true, force: true});
	await new Promise(resolve => server.close(resolve));
});

function sandboxed(workspace: string, warnings: string[] = []): ReturnType<typeof createShellTool> {
	const sandbox = new ShellSandbox({workspace, configDir: join(home, '.i', 'config')}, message => warnings.push(message));
	return createShellTool({names: ['I_SANDBOX_TEST_KEY'], values: [SECRET]}, sandbox);
}

test('in the sandbox a command writes in the workspace and the temporary folder, never outside, and the result says what was refused', async t => {
	const workspace = await tempDir(t);
	const shell = sandboxed(workspace);
	const inside = await run(shell, {command: 'echo in > inside.txt && cat inside.txt'}, toolContext(workspace));
	assert.equal(inside.isError, false, inside.output);
	assert.equal(readFileSync(join(workspace, 'inside.txt'), 'utf8'), 'in\n');
	const temp = await run(shell, {command: `echo t > ${join(tmpdir(), 'i-sandbox-temp-probe')} && echo ok`}, toolContext(workspace));
	assert.match(temp.output, /^ok\n/);

	const refused = await run(shell, {command: `echo x > ${join(outside, 'escape.txt')}`}, toolContext(workspace));
	assert.equal(refused.isError, true);
	assert.equal(existsSync(join(outside, 'escape.txt')), false);
	assert.match(refused.output, /Read-only file system/);
	assert.match(refused.output, /\[sandbox\] This command ran in i’s sandbox, which may have refused:\n {2}.*escape\.txt: Read-only file system/);
	assert.match(refused.output, /call shell again with "sandbox": false; the person is asked before it runs/);
	assert.equal(refused.ask?.outsideSandbox, undefined, 'a sandboxed command is asked about as usual');
});

test("in the sandbox ~/.ssh and i's config are hidden, i's process and its environment are not there to read, and the network is off", async t => {
	const workspace = await tempDir(t);
	mkdirSync(join(home, '.i', 'config'), {recursive: true});
	writeFileSync(join(home, '.i', 'config', 'auth.json'), `{"openai": "${SECRET}"}`);
	const shell = sandboxed(workspace);
	const key = await run(shell, {command: 'cat ~/.ssh/id_rsa; cat ~/.i/config/auth.json'}, toolContext(workspace));
	assert.doesNotMatch(key.output, /DUMMY-PRIVATE-KEY/);
	assert.doesNotMatch(key.output, new RegExp(SECRET));

	const processes = await run(
		shell,
		{command: `tr '\\0' '\\n' < /proc/$PPID/environ; cat /proc/${process.pid}/environ; ls /proc; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n'`},
		toolContext(workspace),
	);
	assert.doesNotMatch(processes.output, new RegExp(SECRET));
	assert.match(processes.output, new RegExp(`/proc/${process.pid}/environ: No such file or directory`));

	const network = await run(shell, {command: `curl -sS --max-time 5 http://127.0.0.1:${port}/`}, toolContext(workspace));
	assert.equal(network.isError, true);
	assert.doesNotMatch(network.output, /hello/);
	assert.match(network.output, /Couldn't connect to server/);
	assert.match(network.output, /the network is off/);
});

test('sandbox: false asks the person whatever the mode, --yolo included, and runs the command outside', async t => {
	const workspace = await tempDir(t);
	const shell = sandboxed(workspace);
	const planned = await shell.plan({command: `echo out > ${join(outside, 'allowed.txt')}`, sandbox: false}, toolContext(workspace));
	assert.equal(planned.ask?.outsideSandbox, true);
	assert.match(planned.ask?.title ?? '', /^Run outside the sandbox: echo out/);
	const asked: string[] = [];
	const gate = createApprovalGate({
		mode: new PermissionMode('bypassPermissions'),
		askPerson: async request => {
			asked.push(request.ask.title);
			return {decision: 'allow', by: 'user', reason: null};
		},
		// An allow rule does not waive it either.
		rules: async () => ({decision: 'allow', reason: 'allowed by shell(echo *) in a test'}),
	});
	const outcome = await gate({id: 'c1', name: 'shell', arguments: {}, owner: 'native', ask: planned.ask, external: false});
	assert.deepEqual(outcome, {decision: 'allow', by: 'user', reason: null});
	assert.equal(asked.length, 1);
	await planned.run();
	assert.equal(readFileSync(join(outside, 'allowed.txt'), 'utf8'), 'out\n');

	const nobody = createApprovalGate({mode: new PermissionMode('bypassPermissions'), askPerson: async () => ({decision: 'deny', by: 'no_terminal', reason: 'no terminal'})});
	const denied = await nobody({id: 'c2', name: 'shell', arguments: {}, owner: 'native', ask: planned.ask, external: false});
	assert.equal(denied.decision, 'deny');
	assert.match(denied.reason ?? '', /outside the sandbox, which only a person can allow.*--yolo does not allow it.*--no-sandbox/);
});

test('where no sandbox can start, it says so once and every shell command asks; turned off, commands run as before', async t => {
	const workspace = await tempDir(t);
	const warnings: string[] = [];
	const missing = new ShellSandbox({workspace, configDir: join(home, '.i', 'config')}, message => warnings.push(message), {findBwrap: async () => null});
	const shell = createShellTool(undefined, missing);
	for (const command of ['echo one', 'echo two']) {
		const planned = await shell.plan({command}, toolContext(workspace));
		assert.equal(planned.ask?.outsideSandbox, true);
		assert.match(planned.ask?.title ?? '', /^Run \(no sandbox could start\): echo/);
	}

	assert.deepEqual(warnings, [
		"the sandbox for the model's shell commands cannot start (bubblewrap (bwrap) is not on PATH): every shell command asks before it runs; install bubblewrap, or pass --no-sandbox to run them unsandboxed as before (docs/sandbox.md)",
	]);

	const off = new ShellSandbox({workspace, configDir: join(home, '.i', 'config')}, message => warnings.push(message), {findBwrap: async () => null});
	off.configure({enabled: false, off: '--no-sandbox', allowWrite: [], allowedDomains: []});
	const plain = createShellTool(undefined, off);
	const planned = await plain.plan({command: `echo plain > ${join(outside, 'plain.txt')}`}, toolContext(workspace));
	assert.equal(planned.ask?.outsideSandbox, undefined);
	await planned.run();
	assert.equal(readFileSync(join(outside, 'plain.txt'), 'utf8'), 'plain\n');
	assert.equal(warnings.length, 2, 'a sandbox turned off never looks for bubblewrap');
	assert.equal(warnings[1], "the sandbox is off (--no-sandbox): the model's shell commands run with your full rights (docs/sandbox.md)");
	assert.doesNotMatch(plain.description, /sandbox/);
	assert.match(shell.description, /Commands run in a sandbox/);
});

test('sandbox.allowWrite folders are writable too', async t => {
	const workspace = await tempDir(t);
	const sandbox = new ShellSandbox({workspace, configDir: join(home, '.i', 'config')}, () => {});
	sandbox.configure({enabled: true, off: null, allowWrite: [outside], allowedDomains: []});
	const shell = createShellTool(undefined, sandbox);
	const written = await run(shell, {command: `echo extra > ${join(outside, 'extra.txt')}`}, toolContext(workspace));
	assert.equal(written.isError, false, written.output);
	assert.equal(readFileSync(join(outside, 'extra.txt'), 'utf8'), 'extra\n');
});

test('with sandbox.allowedDomains a command reaches a listed name through the proxy, and the result names what the proxy refused', async t => {
	const workspace = await tempDir(t);
	const {sandbox, sitePort} = await allowedSite(t, workspace, 'hello from the allowed site\n');
	const shell = createShellTool(undefined, sandbox);
	const reached = await run(shell, {command: `curl -sS --max-time 10 http://site.test:${sitePort}/`}, toolContext(workspace));
	assert.equal(reached.isError, false, reached.output);
	assert.match(reached.output, /hello from the allowed site/);

	const refused = await run(shell, {command: `curl -sSf --max-time 10 http://other.test:${sitePort}/`}, toolContext(workspace));
	assert.equal(refused.isError, true);
	assert.match(refused.output, /the network proxy refused other\.test:\d+ \(not in sandbox\.allowedDomains\)/);
	assert.match(refused.output, /the network reaches only site\.test/);
	// Still no way around the proxy to the machine's loopback.
	const direct = await run(shell, {command: `curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${sitePort}/`}, toolContext(workspace));
	assert.equal(direct.isError, true);
	assert.doesNotMatch(direct.output, /hello from the allowed site/);
});

/**
 * A UNIX socket server at `socketPath` answering `reply`, with `variable`
 * naming `value` for the test's length; returns the command that connects
 * to it and prints what it got, or the error's code.
 */
async function socketNamedBy(t: TestContext, socketPath: string, reply: string, variable: string, value: string): Promise<string> {
	const server = createServer(socket => socket.end(`${reply}\n`));
	await new Promise<void>(resolve => server.listen(socketPath, resolve));
	t.after(() => server.close());
	const saved = process.env[variable];
	process.env[variable] = value;
	t.after(() => {
		if (saved === undefined) delete process.env[variable];
		else process.env[variable] = saved;
	});
	return `${process.execPath} -e "require('net').connect('${socketPath}').on('data', d => process.stdout.write(d)).on('error', e => { console.log(e.code); process.exit(3); })"`;
}

test("the SSH agent's socket refuses a sandboxed command", async t => {
	const workspace = await tempDir(t);
	const socketPath = join(home, 'agent.sock');
	const command = await socketNamedBy(t, socketPath, 'signed', 'SSH_AUTH_SOCK', socketPath);
	const tried = await run(sandboxed(workspace), {command}, toolContext(workspace));
	assert.doesNotMatch(tried.output, /signed/);
	// Hidden behind an empty file, and no UNIX socket can be opened anyway (unix-sockets.test.ts).
	assert.match(tried.output, /EPERM|ECONNREFUSED/);
});

test("the session's runtime folder (XDG_RUNTIME_DIR) and the sockets in it are hidden from a sandboxed command", async t => {
	const workspace = await tempDir(t);
	const runtime = join(home, 'runtime-dir');
	mkdirSync(runtime, {recursive: true});
	const command = await socketNamedBy(t, join(runtime, 'bus.sock'), 'on the bus', 'XDG_RUNTIME_DIR', runtime);
	const tried = await run(sandboxed(workspace), {command}, toolContext(workspace));
	assert.doesNotMatch(tried.output, /on the bus/);
	assert.match(tried.output, /EPERM|ENOENT/);
	// Outside the sandbox the same command reaches it: the socket is there.
	const outside = await run(createShellTool(), {command}, toolContext(workspace));
	assert.match(outside.output, /on the bus/);
});

test("Node's own fetch reaches an allowed domain through the proxy where Node takes the proxy variables (NODE_USE_ENV_PROXY, Node 22.21 and 24.5 on)", async t => {
	const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
	if (!((major === 22 && minor >= 21) || (major === 24 && minor >= 5) || major > 24)) {
		t.skip(`Node ${process.versions.node} does not take NODE_USE_ENV_PROXY`);
		return;
	}

	const workspace = await tempDir(t);
	const {sandbox, sitePort} = await allowedSite(t, workspace, 'hello via node fetch\n');
	const script = `fetch('http://site.test:${sitePort}/').then(r => r.text()).then(t => process.stdout.write(t), e => { console.log(e.cause?.code ?? e.message); process.exit(3); })`;
	const fetched = await run(createShellTool(undefined, sandbox), {command: `${process.execPath} -e "${script}"`}, toolContext(workspace));
	assert.match(fetched.output, /hello via node fetch/);
});

/**
 * A local HTTP server answering `body`, named site.test for the sandbox's
 * proxy, and a sandbox that lists the name and its address (a name
 * resolving to a loopback address is refused otherwise); both end with `t`.
 */
async function allowedSite(t: TestContext, workspace: string, body: string): Promise<{sandbox: ShellSandbox; sitePort: number}> {
	const http = await import('node:http');
	const site = http.createServer((_request, response) => response.end(body));
	await new Promise<void>(resolve => site.listen(0, '127.0.0.1', resolve));
	t.after(() => site.close());
	const sitePort = (site.address() as {port: number}).port;
	const sandbox = new ShellSandbox({workspace, configDir: join(home, '.i', 'config')}, () => {}, {
		lookup: async host => (host === 'site.test' ? '127.0.0.1' : Promise.reject(new Error(`no such host ${host}`))),
	});
	sandbox.configure({enabled: true, off: null, allowWrite: [], allowedDomains: ['site.test', `127.0.0.1:${sitePort}`]});
	t.after(async () => sandbox.close());
	return {sandbox, sitePort};
}
