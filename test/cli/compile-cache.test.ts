// bin/i.js turns on Node's module compile cache (Node ≥ 22.1) under
// <cache_dir>/compile (issue 13); Node 20 has no such API. On every node
// bin/code-cache.js keeps the headless bundle's compiled code in the same
// folder (test/cli/code-cache.test.ts). These run on every Node the suite
// runs on: the folder fills, and every way of turning it off leaves none.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import module from 'node:module';
import {existsSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {makeSandbox, runCli} from '../helpers/cli.js';

const bin = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));
// @types/node 20 does not know the API (Node 22.1).
const hasCompileCache = typeof (module as {enableCompileCache?: unknown}).enableCompileCache === 'function';

/** Cached code files under <cache_dir>/compile (Node keeps one folder per version inside). */
function cachedFiles(cacheDir: string): string[] {
	const root = join(cacheDir, 'compile');
	if (!existsSync(root)) return [];
	return readdirSync(root, {recursive: true, withFileTypes: true})
		.filter(entry => entry.isFile())
		.map(entry => entry.name);
}

test('a run keeps its compiled code under <cache_dir>/compile: the headless bundle’s code cache, and node’s cache of the rest where node has one', async () => {
	const sandbox = makeSandbox();
	const cacheDir = sandbox.env.I_CACHE_DIR!;
	const first = await runCli(['--runtime', 'logo', '--plain'], {entry: bin, env: sandbox.env});
	assert.equal(first.code, 0, first.stderr);
	const files = cachedFiles(cacheDir);
	assert.deepEqual(
		files
			.filter(name => name.startsWith('headless-'))
			.map(name => name.replace(/^(headless-).*(\.v8|\.code)$/, '$1…$2'))
			.sort(),
		['headless-….code', 'headless-….v8'],
	);
	if (hasCompileCache)
		assert.ok(
			files.some(name => !name.startsWith('headless-')),
			`node's compile cache wrote nothing under ${cacheDir}/compile`,
		);
	// A second run reads the caches and gives the same answer.
	const second = await runCli(['--runtime', 'logo', '--plain'], {entry: bin, env: sandbox.env});
	assert.equal(second.code, 0, second.stderr);
	assert.equal(second.stdout, first.stdout);
});

test('NODE_DISABLE_COMPILE_CACHE=1 keeps the cache off', async () => {
	const sandbox = makeSandbox();
	const run = await runCli(['--runtime', 'logo', '--plain'], {entry: bin, env: {...sandbox.env, NODE_DISABLE_COMPILE_CACHE: '1'}});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(cachedFiles(sandbox.env.I_CACHE_DIR!), []);
});

test('a relative I_CACHE_DIR names no cache folder: nothing is made below the current folder', async () => {
	const sandbox = makeSandbox();
	// The command need not accept the relative folder; the compile cache must not act on it.
	await runCli(['--version'], {entry: bin, cwd: sandbox.workspace, env: {...sandbox.env, I_CACHE_DIR: 'relative-cache'}});
	assert.equal(existsSync(join(sandbox.workspace, 'relative-cache')), false);
});

test('a cache folder that cannot be made leaves the cache off, silently, and the command works', async () => {
	const sandbox = makeSandbox();
	const blocked = join(sandbox.root, 'a-file');
	writeFileSync(blocked, 'not a folder');
	const run = await runCli(['--runtime', 'logo', '--plain'], {entry: bin, env: {...sandbox.env, I_CACHE_DIR: blocked}});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stderr, '');
	assert.match(run.stdout, /██/);
});
