// Workers that ask for the sandbox (a manifest entry's, a binding's), with
// the real bubblewrap: a hook worker that may not write the workspace fails
// naming the refusal, one given the workspace in allowWrite works, and a
// worker whose sandbox cannot start stops the load instead of running bare.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {readBindings} from '../../source/core/plugins/bindings.js';
import {generateManifest} from '../../source/core/plugins/generate-manifest.js';

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
		mock.enqueue({text: 'never'});
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
	assert.match(bad.stderr, /"sandbox\.allowWrite"\[0\]: \/no\/such\/folder does not exist; a sandboxed worker may write only in folders that exist/);
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
