// The official host's snapshot kept in the cache folder for a copy of `i`
// without one of its own (an installed package): made once, detached, by
// bin/host-snapshot.js with this node, from the real snapshot source; used
// only while the note beside it names this node, that source as it is and
// the blob's size; one builder at a time; a build that failed is not tried
// again for the same node and source.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, truncateSync, utimesSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {keptSnapshot, keptSnapshotPath} from '../../source/core/plugins/kept-snapshot.js';
import {snapshotBuild, snapshotFlags} from '../../source/core/plugins/program.js';

const source = fileURLToPath(new URL('../../host/official-snapshot.cjs', import.meta.url));
const builder = fileURLToPath(new URL('../../../bin/host-snapshot.js', import.meta.url));
const cli = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));
const BUILD_TIMEOUT_MS = 120_000;
const {withoutBuiltinCodeCache} = createRequire(import.meta.url)('../../../bin/snapshot-code-cache.js') as {withoutBuiltinCodeCache: (blob: Buffer) => unknown};

function folder(): string {
	return realpathSync(mkdtempSync(join(tmpdir(), 'i-kept-snapshot-')));
}

/** keptSnapshot with a copy of the source of its own, recording the builder it starts. */
function look(cacheDir: string, from: string): {blob: string | undefined; child: ChildProcess | undefined} {
	let child: ChildProcess | undefined;
	const blob = keptSnapshot(cacheDir, {
		source: from,
		builder,
		onBuild: started => {
			// Detached and unref'd for a run of i; the test waits for it.
			started.ref();
			child = started;
		},
	});
	return {blob, child};
}

const exited = (child: ChildProcess) => new Promise<number | null>(resolve => (child.exitCode === null ? child.once('exit', resolve) : resolve(child.exitCode)));

/** A host started from `blob` answers a request frame. */
async function answers(blob: string): Promise<string> {
	const root = folder();
	const host = spawn(process.execPath, [...snapshotFlags, '--snapshot-blob', blob, cli, '--runtime', 'worker', 'official'], {stdio: ['pipe', 'pipe', 'inherit']});
	let out = '';
	host.stdout.setEncoding('utf8').on('data', chunk => (out += chunk));
	const paths = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	host.stdin.end(`${JSON.stringify({id: 1, event: 'system_prompt', module: 'prompts', workspace: root, paths, data: {prompt: 'You are i.', workspace: root}})}\n`);
	assert.equal(await exited(host), 0);
	return out;
}

test('the first look starts a builder; once it is done the kept blob is used, and a host from it answers', {timeout: BUILD_TIMEOUT_MS}, async () => {
	const cacheDir = folder();
	const copy = join(folder(), 'official-snapshot.cjs');
	copyFileSync(source, copy);
	// Blobs no run can use any more go with the next build: a source that is gone, this node's path at another version,
	// this source and node under an earlier version's name (sha256 of the path); another node's stay.
	const plant = (name: string, build: Record<string, unknown>, sourcePath: string) => {
		mkdirSync(join(cacheDir, 'host'), {recursive: true});
		writeFileSync(join(cacheDir, 'host', name), 'blob');
		writeFileSync(join(cacheDir, 'host', `${name}.json`), JSON.stringify({build, source: {path: sourcePath, size: 1, mtimeMs: 1}, blobSize: 4}));
	};
	plant('official-gone.blob', snapshotBuild(), join(cacheDir, 'uninstalled', 'official-snapshot.cjs'));
	plant('official-old-node.blob', {...snapshotBuild(), node: 'v0.0.1'}, source);
	plant('official-other-node.blob', {...snapshotBuild(), node: 'v0.0.1', execPath: '/opt/other/node'}, source);
	plant('official-5d41402abc4b2a76-earlier.blob', snapshotBuild(), copy);
	const first = look(cacheDir, copy);
	assert.equal(first.blob, undefined);
	assert.ok(first.child, 'a builder started');
	// While it builds, no other one starts.
	assert.equal(look(cacheDir, copy).child, undefined);
	assert.equal(await exited(first.child!), 0);
	const ours = basename(keptSnapshotPath(cacheDir, copy));
	const others = readdirSync(join(cacheDir, 'host')).filter(name => !name.startsWith(ours));
	assert.deepEqual(others.sort(), ['official-other-node.blob', 'official-other-node.blob.json']);
	const kept = look(cacheDir, copy);
	assert.equal(kept.blob, keptSnapshotPath(cacheDir, copy));
	assert.equal(kept.child, undefined);
	const note = JSON.parse(readFileSync(`${kept.blob}.json`, 'utf8')) as {build: {node: string}; source: {path: string}; blobSize: number};
	assert.deepEqual([note.build.node, note.source.path], [process.version, copy]);
	assert.match(JSON.parse((await answers(kept.blob!)).trim()).data.prompt, /^You are i\./);
	// Kept without node's code cache of its builtins (bin/snapshot-code-cache.js): nothing of it is left to find.
	assert.equal(withoutBuiltinCodeCache(readFileSync(kept.blob!)), undefined);

	// A blob cut short (its size is in the note) is not used, nor one whose source changed since: each is made again.
	truncateSync(kept.blob!, 1024);
	const cut = look(cacheDir, copy);
	assert.equal(cut.blob, undefined);
	assert.equal(await exited(cut.child!), 0);
	assert.equal(look(cacheDir, copy).blob, kept.blob);
	// A blob kept before its V8 flags were named in the note would make node refuse the flags: it is made again.
	const flagged = JSON.parse(readFileSync(`${kept.blob}.json`, 'utf8')) as {build: Record<string, unknown>};
	assert.deepEqual(flagged.build.flags, snapshotFlags);
	delete flagged.build.flags;
	writeFileSync(`${kept.blob}.json`, JSON.stringify(flagged));
	const unflagged = look(cacheDir, copy);
	assert.equal(unflagged.blob, undefined);
	assert.equal(await exited(unflagged.child!), 0);
	assert.equal(look(cacheDir, copy).blob, kept.blob);
	utimesSync(copy, new Date(), new Date(Date.now() + 5000));
	const changed = look(cacheDir, copy);
	assert.equal(changed.blob, undefined);
	assert.ok(changed.child, 'the changed source is built again');
	await exited(changed.child!);
});

test('a source that cannot be built is tried once for this node, and a fresh lock means a builder at work', {timeout: BUILD_TIMEOUT_MS}, async () => {
	const cacheDir = folder();
	const broken = join(folder(), 'official-snapshot.cjs');
	writeFileSync(broken, "throw new Error('not a snapshot');\n");
	const first = look(cacheDir, broken);
	assert.ok(first.child);
	assert.equal(await exited(first.child!), 0);
	const blob = keptSnapshotPath(cacheDir, broken);
	assert.equal(existsSync(blob), false);
	assert.ok(existsSync(`${blob}.failed`), 'the failure is noted');
	assert.deepEqual(look(cacheDir, broken), {blob: undefined, child: undefined});

	// A note naming no V8 flags builds nothing: the failure is noted and the lock given back.
	const noFlags = join(folder(), 'host', 'official-x.blob');
	mkdirSync(join(noFlags, '..'), {recursive: true});
	writeFileSync(`${noFlags}.lock`, '1');
	const note = JSON.stringify({build: {...snapshotBuild(), flags: undefined}, source: {path: source, size: 1, mtimeMs: 1}});
	assert.equal(await exited(spawn(process.execPath, [builder, source, noFlags, note], {stdio: 'ignore'})), 0);
	assert.deepEqual([existsSync(noFlags), readFileSync(`${noFlags}.failed`, 'utf8'), existsSync(`${noFlags}.lock`)], [false, note, false]);

	const other = folder();
	const copy = join(folder(), 'official-snapshot.cjs');
	copyFileSync(source, copy);
	mkdirSync(join(other, 'host'), {recursive: true});
	writeFileSync(`${keptSnapshotPath(other, copy)}.lock`, '1');
	assert.deepEqual(look(other, copy), {blob: undefined, child: undefined});
	// Without a source (a checkout never built) there is nothing to keep.
	assert.deepEqual(look(other, join(other, 'missing.cjs')), {blob: undefined, child: undefined});
});
