import assert from 'node:assert/strict';
import {join} from 'node:path';
import {test} from 'node:test';
import type {LifecycleEvent} from '../../source/core/lifecycle/event-names.js';
import type {GeneratedManifest} from '../../source/core/plugins/generate-manifest.js';
import {checkGeneratedManifest, type ParseManifestOptions} from '../../source/core/plugins/manifest-file.js';
import {sharedResolution} from '../../source/core/plugins/shared-resolution.js';
import {resolveWorker, type WorkerBinding} from '../../source/core/plugins/resolve-worker.js';
import {executable, rejectsWith, tempRoot} from './helpers.js';

/** A generated manifest skips the schema, never the rules: every case below is one a file would fail too. */
function options(baseDir: string, label = 'builtin profile "standard" of /x/builtin.json'): ParseManifestOptions {
	return {label, file: '/x/builtin.json', baseDir, declaredTools: new Map(), checkSchemas: false, resolve: sharedResolution()};
}

function generated(worker: string, tools: Array<{name: string}>, events: string[][] = [['before_turn']]): GeneratedManifest {
	return {
		tools: tools.map(tool => ({description: 'd', parameters: {type: 'object'}, exec: [worker], module: 'memory', ...tool})),
		hooks: events.map(list => ({events: list as LifecycleEvent[], exec: [worker], module: 'memory'})),
	};
}

test('a generated manifest loads like a file: workers resolved, modules kept, each entry its own spec', async t => {
	const {root} = tempRoot(t);
	const worker = executable(join(root, 'host'));
	const loaded = await checkGeneratedManifest(generated('./host', [{name: 'memory_note'}], [['before_turn'], ['finish']]), options(root));
	assert.deepEqual(loaded.tools, [{name: 'memory_note', description: 'd', parameters: {type: 'object'}, worker: {exec: [worker], cwd: root}, module: 'memory', manifest: '/x/builtin.json'}]);
	assert.deepEqual(
		loaded.hooks.map(hook => [hook.events, hook.worker]),
		[
			[['before_turn'], {exec: [worker], cwd: root}],
			[['finish'], {exec: [worker], cwd: root}],
		],
	);
	// One resolution, but no shared arrays: a caller changing one entry's exec changes no other.
	loaded.hooks[0]!.worker.exec.push('--changed');
	assert.deepEqual(loaded.hooks[1]!.worker.exec, [worker]);
	assert.deepEqual(loaded.tools[0]!.worker.exec, [worker]);
});

test('a generated manifest still fails on a bad tool name, a built-in name, a repeated name or an unknown event, naming the entry', async t => {
	const {root} = tempRoot(t);
	executable(join(root, 'host'));
	const label = 'builtin profile "standard" of /x/builtin.json';
	await rejectsWith(checkGeneratedManifest(generated('./host', [{name: 'fine'}, {name: 'two words'}]), options(root)), `${label}: tools[1] "two words" (module "memory"): a tool name must be 1–64`);
	await rejectsWith(checkGeneratedManifest(generated('./host', [{name: 'a'.repeat(65)}]), options(root)), 'this one has 65 characters');
	await rejectsWith(checkGeneratedManifest(generated('./host', [{name: 'read'}]), options(root)), '"read" is a built-in tool');
	await rejectsWith(checkGeneratedManifest(generated('./host', [{name: 'x'}, {name: 'x'}]), options(root)), 'tool "x" is already declared by tools[0] "x" (module "memory")');
	await rejectsWith(checkGeneratedManifest(generated('./host', [], [['before_turn'], ['befor_turn']]), options(root)), `${label}: hooks[1] (module "memory"): unknown event "befor_turn"`);
	await rejectsWith(checkGeneratedManifest(generated('./gone', [{name: 'x'}]), options(root)), `${label}: tools[0] "x" (module "memory"): exec[0] "./gone"`);
});

test('shared resolution: one call per (exec, cwd, folder); a failure is not kept and names each entry that asks', async t => {
	const {root} = tempRoot(t);
	const worker = executable(join(root, 'host'));
	const calls: string[] = [];
	const counting = (binding: WorkerBinding, baseDir: string, where: string) => {
		calls.push(where);
		return resolveWorker(binding, baseDir, where);
	};
	const resolve = sharedResolution(counting);
	assert.deepEqual(resolve({exec: ['./host']}, root, 'a'), {exec: [worker], cwd: root});
	assert.deepEqual(resolve({exec: ['./host']}, root, 'b'), {exec: [worker], cwd: root});
	assert.deepEqual(resolve({exec: ['./host'], cwd: '.'}, root, 'c'), {exec: [worker], cwd: root});
	assert.deepEqual(resolve({exec: ['./host', 'x']}, root, 'd'), {exec: [worker, 'x'], cwd: root});
	assert.deepEqual(calls, ['a', 'c', 'd']);
	assert.throws(() => resolve({exec: ['./gone']}, root, 'first entry'), /^UsageError: first entry: exec\[0\] "\.\/gone"/);
	assert.throws(() => resolve({exec: ['./gone']}, root, 'second entry'), /^UsageError: second entry: exec\[0\] "\.\/gone"/);
	assert.deepEqual(calls, ['a', 'c', 'd', 'first entry', 'second entry']);
});
