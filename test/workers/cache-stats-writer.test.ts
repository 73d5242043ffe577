import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {closeSync, openSync, statSync, writeSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {readStats, StatsWriter, updateStats, type CacheStats} from '../../workers/cache/stats-file.js';

async function statsPath(t: TestContext): Promise<string> {
	const root = await mkdtemp(join(tmpdir(), 'i-stats-'));
	t.after(() => rm(root, {recursive: true, force: true}));
	return join(root, 'metrics', 'cache-stats.json');
}

async function onDisk(path: string): Promise<CacheStats> {
	return JSON.parse(await readFile(path, 'utf8')) as CacheStats;
}

const count = (stats: CacheStats) => {
	stats.totals.requests++;
};

test('changes show in the view at once and reach the file at the flush, several in one write', async t => {
	const path = await statsPath(t);
	const writer = new StatsWriter();
	await writer.change(path, count);
	await writer.change(path, count);
	assert.equal((await writer.view(path)).totals.requests, 2);
	await assert.rejects(readFile(path), {code: 'ENOENT'}, 'nothing is written before the flush');
	await writer.flush();
	assert.equal((await onDisk(path)).totals.requests, 2);
	// Changes queued while a write is on its way go in the next one; a flush resolves once all are written.
	await writer.change(path, count);
	const flushing = writer.flush();
	await writer.change(path, count);
	await Promise.all([flushing, writer.flush()]);
	assert.equal((await onDisk(path)).totals.requests, 4);
	assert.equal((await writer.view(path)).totals.requests, 4);
});

test('another process’s update is kept, and the view reads the file again once nothing of ours is queued', async t => {
	const path = await statsPath(t);
	const writer = new StatsWriter();
	await writer.change(path, count);
	await writer.flush();
	await updateStats(path, stats => {
		stats.totals.observed = 7;
	});
	assert.equal((await writer.view(path)).totals.observed, 7);
	await writer.change(path, count);
	await writer.flush();
	const stats = await onDisk(path);
	assert.equal(stats.totals.requests, 2);
	assert.equal(stats.totals.observed, 7);
});

test('a write starts from what this writer last read or wrote, unless another process replaced the file while our change was queued', async t => {
	const path = await statsPath(t);
	const writer = new StatsWriter();
	await writer.change(path, count);
	await writer.flush();
	// Unchanged since our write: the next write starts from it.
	await writer.change(path, count);
	await writer.flush();
	assert.equal((await onDisk(path)).totals.requests, 2);
	// Replaced after our change was queued: the write reads the file again and keeps the other update.
	assert.equal((await writer.view(path)).totals.requests, 2);
	await writer.change(path, count);
	await updateStats(path, stats => {
		stats.totals.observed = 7;
	});
	await writer.flush();
	let stats = await onDisk(path);
	assert.deepEqual([stats.totals.requests, stats.totals.observed], [3, 7]);
	// The same for a file first read by a view, then replaced before the first write.
	const other = new StatsWriter();
	assert.equal((await other.view(path)).totals.requests, 3);
	await other.change(path, count);
	await updateStats(path, stats => {
		stats.totals.unknown_usage = 5;
	});
	await other.flush();
	stats = await onDisk(path);
	assert.deepEqual([stats.totals.requests, stats.totals.observed, stats.totals.unknown_usage], [4, 7, 5]);
});

test('a file broken between requests is an error of the next view; a failed write keeps its changes for the next flush', async t => {
	const path = await statsPath(t);
	const writer = new StatsWriter();
	await writer.change(path, count);
	await writer.flush();
	await writeFile(path, '{"version":1');
	await assert.rejects(writer.view(path), /cache stats .* is corrupt \(not valid JSON/);

	const other = new StatsWriter();
	const blocked = await statsPath(t);
	await mkdir(join(blocked, '..', '..'), {recursive: true});
	// The stats folder's place is taken by a file: the write cannot happen.
	await writeFile(join(blocked, '..'), 'not a folder');
	await assert.rejects(other.view(blocked), /cannot read it \(ENOTDIR\)/);
	await rm(join(blocked, '..'));
	await other.change(blocked, count);
	await writeFile(join(blocked, '..'), 'not a folder');
	await assert.rejects(other.flush(), /^Error: cache stats .*cache-stats\.json: cannot write them \(E(EXIST|NOTDIR).*\); the changes are kept for the next write$/);
	await rm(join(blocked, '..'));
	await other.change(blocked, count);
	await other.flush();
	assert.equal((await onDisk(blocked)).totals.requests, 2, 'the failed change was written with the next');
});

test('a file as this module wrote it (its digest beside it) is read without the schema check; any other text is checked in full', async t => {
	const path = await statsPath(t);
	const writer = new StatsWriter();
	await writer.change(path, count);
	await writer.flush();
	const text = await readFile(path, 'utf8');
	assert.equal(await readFile(`${path}.sha256`, 'utf8'), createHash('sha256').update(text).digest('hex'), 'the digest of the text written');

	// A person's edit, even one that keeps valid JSON, no longer has the digest: the schema catches it.
	const edited = text.replace('"requests":1', '"requests":-1');
	await writeFile(path, edited);
	await assert.rejects(readStats(path), /cache stats .*cache-stats\.json is corrupt \(.*requests/);
	// Only the digest is trusted: the same edited text with its own digest beside it is read as it is, unchecked.
	await writeFile(`${path}.sha256`, createHash('sha256').update(edited).digest('hex'));
	assert.equal((await readStats(path))?.totals.requests, -1);

	// A torn digest (or none) is no digest: checked in full again.
	await writeFile(`${path}.sha256`, 'abc');
	await assert.rejects(readStats(path), /is corrupt/);
	await rm(`${path}.sha256`);
	await assert.rejects(readStats(path), /is corrupt/);
});

test('a digest that cannot be written leaves the stats written and their changes not queued again', async t => {
	const path = await statsPath(t);
	const writer = new StatsWriter();
	await writer.change(path, count);
	await writer.flush();
	// The digest's place is taken by a folder: its write fails, the stats' does not.
	await rm(`${path}.sha256`);
	await mkdir(`${path}.sha256`);
	await writer.change(path, count);
	await writer.flush();
	await writer.change(path, count);
	await writer.flush();
	assert.equal((await onDisk(path)).totals.requests, 3, 'each change written once');
	assert.equal((await readStats(path))?.totals.requests, 3, 'read, checked in full');
});

/** Changes the file's first byte in place and gives it back its modification time to the nanosecond: its identity (device, inode, size, time) is as before, and only a read can tell. */
function changeInPlace(path: string): void {
	const before = statSync(path, {bigint: true});
	const fd = openSync(path, 'r+');
	try {
		writeSync(fd, 'x', 0);
	} finally {
		closeSync(fd);
	}

	const ns = before.mtimeNs;
	execFileSync('touch', ['-m', '-d', `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`, path]);
	assert.equal(statSync(path, {bigint: true}).mtimeNs, ns, 'the time could not be given back');
}

test('a write after this writer’s own read or write does not read the file again, unless another writer’s digest is beside it since', {
	skip: process.platform !== 'linux' && 'touch -d with nanoseconds',
}, async t => {
	const path = await statsPath(t);
	const writer = new StatsWriter();
	await writer.change(path, count);
	await writer.flush();
	// The file is as this writer wrote it (its witness: identity and digest): the next write starts from the view, unread.
	await writer.change(path, count);
	changeInPlace(path);
	await writer.flush();
	assert.equal((await onDisk(path)).totals.requests, 2);
	// The same from a view that was read, not written.
	const reader = new StatsWriter();
	assert.equal((await reader.view(path)).totals.requests, 2);
	await reader.change(path, count);
	changeInPlace(path);
	await reader.flush();
	assert.equal((await onDisk(path)).totals.requests, 3);
	// Another writer's digest beside the same file: read again under the lock, and here its broken text is the error.
	await reader.change(path, count);
	changeInPlace(path);
	await writeFile(`${path}.sha256`, 'f'.repeat(64));
	await assert.rejects(reader.flush(), /cache stats .*cache-stats\.json is corrupt \(not valid JSON/);
});

test('changes queued for one file while another is written go in that file’s write', async t => {
	const first = await statsPath(t);
	const second = await statsPath(t);
	const writer = new StatsWriter();
	await writer.change(first, count);
	await writer.change(second, count);
	const flushing = writer.flush();
	// The first file's write is on its way.
	await writer.change(second, count);
	await flushing;
	assert.equal((await onDisk(first)).totals.requests, 1);
	assert.equal((await onDisk(second)).totals.requests, 2);
});
