// Workers that ask for the sandbox (a manifest entry's, a binding's), with
// the real bubblewrap: a hook worker that may not write the workspace fails
// naming the refusal, one given the workspace in allowWrite works, and a
// worker whose sandbox cannot start stops the load instead of running bare.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {readBindings} from '../../source/core/plugins/bindings.js';
import {generateManifest} from '../../source/core/plugins/generate-manifest.js';

const fetchTool = fileURLToPath(new URL('../../../test/fixtures/workers/fetch-tool.py', import.meta.url));
const proxies = join(tmpdir(), `i-sandbox-${process.getuid?.() ?? 'user'}`);
const lifecycle = fileURLToPath(new URL('../../../test/fixtures/workers/lifecycle.py', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** A run whose config loads one hook worker (lifecycle.py, which logs to the workspace) with `sandbox`. */
function box(sandbox: unknown): Sandbox {
	const made = makeSandbox();
	writeFileSync(join(made.configDir, 'hooks.json'), JSON.stringify({hooks: [{events: ['user_input'], exec: ['python3', lifecycle, 'a'], sandbox}]}));
	made.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['hooks.json']});
	return made;
}

test('a sandboxed hook worker cannot write the workspace unless its allowWrite names it', async () => {
	// A workspace outside the temporary folder, which a sandboxed worker may write.
	const workspace = realpathSync(mkdtempSync(join('/var/tmp', 'i-worker-sandbox-')));
	try {
		const refused = box(true);
		const failed = await runCli(['-p', 'go', '-C', workspace], {env: refused.env});
		assert.notEqual(failed.code, 0);
		assert.match(failed.stderr, /Read-only file system/);
		assert.equal(existsSync(join(workspace, '.lifecycle.log')), false);

		const allowed = box({allowWrite: [workspace]});
		mock.enqueue({text: 'done'});
		const ran = await runCli(['-p', 'go', '-C', workspace], {env: allowed.env});
		assert.equal(ran.code, 0, ran.stderr);
		assert.equal(existsSync(join(workspace, '.lifecycle.log')), true);
	} finally {
		rmSync(workspace, {recursive: true, force: true});
	}
});

test('a worker whose sandbox cannot start stops the start naming it; an allowWrite folder that does not exist is an error naming the field', async () => {
	const made = box(true);
	const bin = join(made.root, 'bin');
	mkdirSync(bin);
	writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', {mode: 0o755});
	const run = await runCli(['-p', 'go', '-C', made.workspace], {env: {...made.env, PATH: `${bin}:${process.env.PATH ?? ''}`}});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /worker .*lifecycle\.py.* asks for the sandbox, which cannot start here \(.*No permissions to create new namespace\); install bubblewrap, or take "sandbox" out of its entry/);
	assert.equal(existsSync(join(made.workspace, '.lifecycle.log')), false);

	const missing = box({allowWrite: ['/no/such/folder']});
	const bad = await runCli(['-p', 'go', '-C', missing.workspace], {env: missing.env});
	assert.equal(bad.code, 2);
	assert.match(bad.stderr, /field "sandbox\.allowWrite\[0\]": \/no\/such\/folder does not exist; a sandbox lets a program write only in folders that exist/);
});

test('a binding in bindings.json may ask for the sandbox: its module runs sandboxed', async () => {
	const made = makeSandbox();
	writeFileSync(join(made.configDir, 'bindings.json'), JSON.stringify({compact: {exec: ['python3', lifecycle, 'c'], sandbox: {allowWrite: ['.']}}}));
	const bindings = await readBindings(made.configDir);
	assert.deepEqual(bindings.compact, {exec: ['python3', lifecycle, 'c'], cwd: made.configDir, sandbox: {allowWrite: ['.']}});
	const {manifest} = generateManifest({profile: 'standard', disabled: [], bindings, program: ['node', 'i.js']});
	const compact = manifest.hooks.filter(hook => hook.module === 'compact');
	assert.ok(compact.length > 0);
	for (const hook of compact) assert.deepEqual(hook.sandbox, {allowWrite: ['.']});
});

test("a sandboxed worker's allowedDomains reach through a proxy of its own; other hosts and direct connections are refused", async () => {
	const http = await import('node:http');
	const site = http.createServer((_request, response) => response.end('hello from the allowed site'));
	await new Promise<void>(resolve => site.listen(0, '127.0.0.1', resolve));
	const port = (site.address() as {port: number}).port;
	const other = port === 65_535 ? port - 1 : port + 1;
	try {
		const made = makeSandbox();
		const tool = {name: 'fetch', description: 'fetches a URL', parameters: {type: 'object'}, exec: ['python3', fetchTool], sandbox: {allowedDomains: [`127.0.0.1:${port}`]}};
		writeFileSync(join(made.configDir, 'tools.json'), JSON.stringify({tools: [tool]}));
		made.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['tools.json']});
		const call = (id: string, url: string, direct = false) => ({id, name: 'fetch', arguments: JSON.stringify({url, direct})});
		mock.enqueue({toolCalls: [call('a', `http://127.0.0.1:${port}/`), call('b', `http://127.0.0.1:${other}/`), call('c', `http://127.0.0.1:${port}/`, true)]});
		const sockets = () =>
			readdirSync(proxies)
				.filter(name => name.startsWith('proxy-'))
				.sort();
		mkdirSync(proxies, {recursive: true});
		const socketsBefore = sockets();
		mock.enqueue({text: 'done'});
		const before = mock.requests.length;
		const run = await runCli(['-p', 'go', '--yolo', '-C', made.workspace], {env: made.env});
		assert.equal(run.code, 0, run.stderr);
		const last = mock.requests.at(-1)!.body as {messages: Array<{role: string; tool_call_id?: string; content: string}>};
		assert.equal(mock.requests.length, before + 2);
		const output = (id: string) => last.messages.find(message => message.role === 'tool' && message.tool_call_id === id)?.content ?? '';
		assert.match(output('a'), /body: hello from the allowed site/);
		assert.match(output('b'), /failed: .*403/);
		assert.match(output('c'), /failed: .*(refused|unreachable)/i);
		assert.deepEqual(sockets(), socketsBefore, 'the proxy stopped with the pool');
	} finally {
		site.close();
	}
});

test("a worker's allowedDomains entry that is not a host is an error naming the field", async () => {
	const made = box({allowedDomains: ['https://example.com']});
	const run = await runCli(['-p', 'go', '-C', made.workspace], {env: made.env});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /field "sandbox\.allowedDomains\[0\]": "https:\/\/example\.com" gives a scheme; write the host alone/);
});
