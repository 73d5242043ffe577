// Issue 12: only regular files are read as configuration, and nothing in
// start-up waits where a signal cannot end it. Every run has a hang guard
// (HANG_GUARD_MS), far above what the refusal takes: before the fix these
// runs read /dev/zero until memory ran out or blocked for good in open().
import {test, before, after, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {once} from 'node:events';
import {MAX_CONFIG_BYTES} from '../../source/core/config/load-config.js';
import {MAX_PLUGIN_FILE_BYTES} from '../../source/core/plugins/read-json-file.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, waitFor, type Sandbox} from '../helpers/cli.js';

/** Generous: a refusal takes a few milliseconds; only a hang (or an endless read) comes near this. */
const HANG_GUARD_MS = 5000;
const base = {protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm', max_retries: 0};

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function fifo(path: string): string {
	execFileSync('mkfifo', [path]);
	return path;
}

async function run(box: Sandbox, args: string[]) {
	return runCli(['-p', 'hi', '-C', box.workspace, ...args], {env: box.env, timeoutMs: HANG_GUARD_MS});
}

test('--config /dev/zero is refused at once as a character device, exit 2', async () => {
	const box = makeSandbox();
	const result = await run(box, ['--config', '/dev/zero']);
	assert.equal(result.code, 2, result.stderr);
	assert.equal(result.stderr, 'i: config /dev/zero is a character device, not a regular file; only regular files are read\n');
});

test('--config a folder or a socket is refused, naming what it is, exit 2', async t => {
	const box = makeSandbox();
	const folder = join(box.root, 'folder.json');
	mkdirSync(folder);
	const folderRun = await run(box, ['--config', folder]);
	assert.equal(folderRun.code, 2, folderRun.stderr);
	assert.equal(folderRun.stderr, `i: config ${folder} is a folder, not a regular file; only regular files are read\n`);

	const socket = join(box.root, 'config.sock');
	const server = createServer().listen(socket);
	await once(server, 'listening');
	t.after(() => server.close());
	const socketRun = await run(box, ['--config', socket]);
	assert.equal(socketRun.code, 2, socketRun.stderr);
	assert.equal(socketRun.stderr, `i: config ${socket} is a socket, not a regular file; only regular files are read\n`);
});

test('--config a FIFO with no writer is refused at once, exit 2', async () => {
	const box = makeSandbox();
	const pipe = fifo(join(box.root, 'config.json'));
	const result = await run(box, ['--config', pipe]);
	assert.equal(result.code, 2, result.stderr);
	assert.equal(result.stderr, `i: config ${pipe} is a FIFO (named pipe), not a regular file; only regular files are read\n`);
});

/** A process holding `pipe` open for writing (read-write, so its own open never waits), with some JSON written and no EOF. */
async function holdOpen(t: TestContext, pipe: string): Promise<void> {
	const script = `const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'r+'); fs.writeSync(fd, '{"protocol":'); process.stdout.write('ready\\n'); setTimeout(() => {}, 60000);`;
	const writer = spawn(process.execPath, ['-e', script, pipe], {stdio: ['ignore', 'pipe', 'inherit']});
	t.after(() => writer.kill('SIGKILL'));
	let output = '';
	writer.stdout.setEncoding('utf8').on('data', chunk => (output += chunk));
	await waitFor(() => output.includes('ready'), HANG_GUARD_MS, 'the writer to hold the FIFO open');
}

test('--config a FIFO a writer holds open, with data in it and no EOF, is refused at once, exit 2', async t => {
	const box = makeSandbox();
	const pipe = fifo(join(box.root, 'config.json'));
	await holdOpen(t, pipe);
	const result = await run(box, ['--config', pipe]);
	assert.equal(result.code, 2, result.stderr);
	assert.equal(result.stderr, `i: config ${pipe} is a FIFO (named pipe), not a regular file; only regular files are read\n`);
});

test('a FIFO listed in "plugins" is refused naming the manifest, exit 2; with a writer too', async t => {
	const box = makeSandbox();
	const pipe = fifo(join(box.configDir, 'tools.json'));
	box.writeConfig({...base, plugins: ['tools.json']});
	const result = await run(box, []);
	assert.equal(result.code, 2, result.stderr);
	assert.equal(result.stderr, `i: manifest ${pipe} is a FIFO (named pipe), not a regular file; only regular files are read\n`);

	await holdOpen(t, pipe);
	const held = await run(box, []);
	assert.equal(held.code, 2, held.stderr);
	assert.equal(held.stderr, result.stderr);
});

test("a FIFO at the workspace registry's lock path or a session's is refused at once naming it, exit 2", async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'tools.json'), JSON.stringify({tools: [{name: 't', description: 'd', parameters: {type: 'object'}, exec: ['sh']}]}));
	box.writeConfig({...base, plugins: ['tools.json']});
	mkdirSync(box.env.I_DATA_DIR!, {recursive: true});
	const registryLock = fifo(join(box.env.I_DATA_DIR!, 'workspaces.json.lock'));
	const registry = await run(box, []);
	assert.equal(registry.code, 2, registry.stderr);
	assert.equal(registry.stderr, `i: lock file ${registryLock} is a FIFO (named pipe), not a regular file; only regular files are read\n`);

	const other = makeSandbox();
	other.writeConfig(base);
	const session = join(other.root, 'chat.json');
	const sessionLock = fifo(`${session}.lock`);
	const locked = await run(other, ['--session', session]);
	assert.equal(locked.code, 2, locked.stderr);
	assert.equal(locked.stderr, `i: lock file ${sessionLock} is a FIFO (named pipe), not a regular file; only regular files are read\n`);
});

/** A sandbox as `i --runtime init` leaves it (the standard profile in the official host), the model pointed nowhere. */
async function initialised(): Promise<Sandbox> {
	const box = makeSandbox();
	const init = await runCli(['--runtime', 'init'], {env: box.env});
	assert.equal(init.code, 0, init.stderr);
	const config = JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as Record<string, unknown>;
	box.writeConfig({...config, ...base});
	return box;
}

test('a module config that is a FIFO fails its hook at once: the start is vetoed naming the file, exit 3', async () => {
	const box = await initialised();
	const pipe = fifo(join(box.configDir, 'prompts.json'));
	const result = await run(box, []);
	assert.equal(result.code, 3, result.stderr);
	assert.match(result.stderr, /^i: a plugin vetoed the start: system_prompt hook of the prompts module /);
	assert.ok(result.stderr.includes(`prompts config ${pipe} is a FIFO (named pipe), not a regular file`), result.stderr);
});

test('a prompt file that is a FIFO fails the system_prompt hook at once, naming the file, exit 3', async () => {
	const box = await initialised();
	mkdirSync(join(box.configDir, 'prompts'));
	writeFileSync(join(box.configDir, 'prompts.json'), JSON.stringify({system: 'prompts/system.txt'}));
	const pipe = fifo(join(box.configDir, 'prompts', 'system.txt'));
	const result = await run(box, []);
	assert.equal(result.code, 3, result.stderr);
	assert.ok(result.stderr.includes(`prompt file ${pipe} is a FIFO (named pipe), not a regular file`), result.stderr);
});

/** `json` padded with spaces to exactly `bytes`. */
function padded(json: unknown, bytes: number): string {
	const text = JSON.stringify(json);
	return text + ' '.repeat(bytes - Buffer.byteLength(text));
}

test('a model config of exactly MAX_CONFIG_BYTES is used; one byte more is refused, exit 2', async () => {
	const box = makeSandbox();
	const path = join(box.configDir, 'config.json');
	const config = {...base, base_url: mock.baseUrl('openai'), api_key_env: 'TEST_API_KEY'};
	writeFileSync(path, padded(config, MAX_CONFIG_BYTES));
	mock.enqueue({text: 'at the cap'});
	const atCap = await run(box, []);
	assert.equal(atCap.code, 0, atCap.stderr);
	assert.equal(atCap.stdout, 'at the cap\n');

	writeFileSync(path, padded(config, MAX_CONFIG_BYTES + 1));
	const over = await run(box, []);
	assert.equal(over.code, 2, over.stderr);
	assert.equal(over.stderr, `i: config ${path}: the file is over ${MAX_CONFIG_BYTES} bytes, too big for a config file\n`);
});

test('a manifest of exactly MAX_PLUGIN_FILE_BYTES is used; one byte more is refused naming it, exit 2', async () => {
	const box = makeSandbox();
	const manifest = join(box.configDir, 'tools.json');
	box.writeConfig({...base, base_url: mock.baseUrl('openai'), plugins: ['tools.json']});
	writeFileSync(manifest, padded({tools: []}, MAX_PLUGIN_FILE_BYTES));
	mock.enqueue({text: 'manifest at the cap'});
	const atCap = await run(box, []);
	assert.equal(atCap.code, 0, atCap.stderr);
	assert.equal(atCap.stdout, 'manifest at the cap\n');

	writeFileSync(manifest, padded({tools: []}, MAX_PLUGIN_FILE_BYTES + 1));
	const over = await run(box, []);
	assert.equal(over.code, 2, over.stderr);
	assert.match(over.stderr, new RegExp(`^i: manifest ${manifest}: the file is over ${MAX_PLUGIN_FILE_BYTES} bytes`));
});

test('SIGTERM right after spawn ends the process at once, whatever it was doing', async () => {
	const box = makeSandbox();
	box.writeConfig(base);
	const result = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env, timeoutMs: HANG_GUARD_MS, onSpawn: child => child.kill('SIGTERM')});
	// Before node has run a line of `i`, the signal's default action ends it; after, `i` exits with 143.
	assert.ok(result.code === 143 || (result.code === null && result.signal === 'SIGTERM'), `code ${result.code}, signal ${result.signal}: ${result.stderr}`);
});

for (const [signal, code] of [
	['SIGTERM', 143],
	['SIGINT', 130],
] as const) {
	test(`${signal} while start-up waits for the workspace registry's lock exits ${code} at once, not after the 10 s wait`, async () => {
		const box = makeSandbox();
		// A manifest with a tool: the worker pool is wanted, and with it the workspace's ID, whose first registration waits for the lock.
		writeFileSync(join(box.configDir, 'tools.json'), JSON.stringify({tools: [{name: 't', description: 'd', parameters: {type: 'object'}, exec: ['sh']}]}));
		box.writeConfig({...base, plugins: ['tools.json']});
		const data = box.env.I_DATA_DIR!;
		mkdirSync(data, {recursive: true});
		// Held by a live process (this test's), so `i` waits for it.
		writeFileSync(join(data, 'workspaces.json.lock'), `${JSON.stringify({pid: process.pid, hostname: hostname(), created: new Date().toISOString()})}\n`);
		let sent = 0;
		const result = await runCli(['-p', 'hi', '-C', box.workspace], {
			env: box.env,
			timeoutMs: 9000,
			onSpawn(child) {
				// Well after node has started `i` (tens of milliseconds), well before the lock wait gives up (10 s).
				setTimeout(() => {
					sent = Date.now();
					child.kill(signal);
				}, 1500);
			},
		});
		assert.equal(result.code, code, `signal ${result.signal}: ${result.stderr}`);
		assert.equal(result.stderr, '');
		assert.ok(Date.now() - sent < HANG_GUARD_MS, `exited ${Date.now() - sent} ms after the signal`);
	});
}
