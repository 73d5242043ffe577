import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {forgetStartEnvironment, HOST_MALLOC_TUNABLES, hostStartEnvironment} from '../../source/core/plugins/host-start-environment.js';

const bin = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));
const node = process.execPath;
const host = ['--runtime', 'worker', 'official'];
const tuning = {GLIBC_TUNABLES: HOST_MALLOC_TUNABLES};

test('the official host this node runs gets the malloc tuning on Linux; no other worker does', () => {
	assert.deepEqual(hostStartEnvironment([node, '/opt/i/bin/i.js', ...host], 'linux', node), tuning);
	for (const exec of [
		[node, '/opt/i/bin/i.js', '--runtime', 'worker', 'prompts'],
		[node, '/opt/i/bin/i.js', ...host, '--config', 'x.json'],
		[node, ...host],
		['/usr/local/bin/node', '/opt/i/bin/i.js', ...host],
		['/usr/bin/python3', 'worker.py', ...host],
		['/usr/bin/env', node, '/opt/i/bin/i.js', ...host],
		[],
	]) {
		assert.equal(hostStartEnvironment(exec, 'linux', node), undefined, JSON.stringify(exec));
	}

	for (const platform of ['darwin', 'win32', 'freebsd'] as const) assert.equal(hostStartEnvironment([node, '/opt/i/bin/i.js', ...host], platform, node), undefined);
});

test("the host drops the tuning from its environment; a value of the user's own stays", () => {
	const env: NodeJS.ProcessEnv = {PATH: '/bin', GLIBC_TUNABLES: HOST_MALLOC_TUNABLES};
	forgetStartEnvironment(env);
	assert.deepEqual(env, {PATH: '/bin'});
	const own: NodeJS.ProcessEnv = {GLIBC_TUNABLES: 'glibc.malloc.arena_max=2'};
	forgetStartEnvironment(own);
	assert.deepEqual(own, {GLIBC_TUNABLES: 'glibc.malloc.arena_max=2'});
	const none: NodeJS.ProcessEnv = {};
	forgetStartEnvironment(none);
	assert.deepEqual(none, {});
});

test('a real host runs without the tuning in its environment: nothing it starts inherits it', async () => {
	// Preloaded before the host's code; at its exit it says what the host's environment held.
	const dir = mkdtempSync(join(tmpdir(), 'i-host-env-'));
	const probe = join(dir, 'probe.cjs');
	const out = join(dir, 'seen.json');
	writeFileSync(probe, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env.GLIBC_TUNABLES ?? null)));\n`);
	const starts: Array<{name: string; argv: string[]}> = [{name: 'bundle', argv: ['--require', probe, bin, ...host]}];
	for (const {name, argv} of starts) {
		for (const [given, seen] of [
			[HOST_MALLOC_TUNABLES, null],
			['glibc.malloc.arena_max=2', 'glibc.malloc.arena_max=2'],
		] as const) {
			writeFileSync(out, '"not written"');
			const child = promisify(execFile)(node, argv, {env: {PATH: process.env.PATH, GLIBC_TUNABLES: given}});
			child.child.stdin?.end();
			await child;
			assert.equal(JSON.parse(readFileSync(out, 'utf8')), seen, `${name}, started with ${given}`);
		}
	}
});
