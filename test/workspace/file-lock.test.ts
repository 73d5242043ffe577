import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {setTimeout as sleep} from 'node:timers/promises';
import {acquireLock, LockBusyError, withLock} from '../../source/core/fs/file-lock.js';
import {hasProc, otherStart, startTimeOf, unrelatedProcess} from '../helpers/live-process.js';
import {compiledUrl, runScript, tempDir} from './helpers.js';

test('withLock runs concurrent sections of one process one at a time and removes the lock', async t => {
	const dir = await tempDir(t);
	const lock = join(dir, 'x.lock');
	let inside = 0;
	let most = 0;
	const order: number[] = [];
	await Promise.all(
		Array.from({length: 5}, async (_, index) =>
			withLock(lock, async () => {
				inside++;
				most = Math.max(most, inside);
				await sleep(30);
				order.push(index);
				inside--;
			}),
		),
	);
	assert.equal(most, 1);
	assert.equal(order.length, 5);
	assert.equal(existsSync(lock), false);
});

test('withLock waits for another process to release, and releases when its section throws', async t => {
	const dir = await tempDir(t);
	const lock = join(dir, 'x.lock');
	const holder = runScript(`
		import {acquireLock} from ${JSON.stringify(compiledUrl('source/core/fs/file-lock.js'))};
		const lock = await acquireLock(${JSON.stringify(lock)});
		await new Promise(resolve => setTimeout(resolve, 600));
		lock.release();
	`);
	while (!existsSync(lock)) await sleep(10);
	const started = Date.now();
	await assert.rejects(
		withLock(lock, async () => {
			assert.ok(Date.now() - started >= 300, 'waited for the holder');
			throw new Error('inside');
		}),
		{message: 'inside'},
	);
	assert.equal(existsSync(lock), false);
	assert.equal((await holder).code, 0);
});

test('withLock gives up after its wait with an error naming the lock and its holder; acquireLock refuses at once', async t => {
	const dir = await tempDir(t);
	const lock = join(dir, 'x.lock');
	const held = await acquireLock(lock);
	const started = Date.now();
	await assert.rejects(
		withLock(lock, async () => 'never', {waitMs: 200}),
		(error: Error) => {
			assert.ok(error instanceof LockBusyError);
			assert.equal(error.message, `${lock} is still locked after waiting 0.2 s: held by process ${process.pid}; try again, or delete it if no i is running`);
			return true;
		},
	);
	assert.ok(Date.now() - started >= 200);
	await assert.rejects(acquireLock(lock), {name: 'LockBusyError', message: `${lock} is locked: held by process ${process.pid}`});
	held.release();
	assert.equal(await withLock(lock, async () => 'now'), 'now');
});

test('withLock takes over a lock left by a dead process', async t => {
	const dir = await tempDir(t);
	const lock = join(dir, 'x.lock');
	const dead = spawnSync(process.execPath, ['-e', '']).pid;
	await writeFile(lock, JSON.stringify({pid: dead, hostname: hostname(), created: new Date().toISOString()}));
	assert.equal(await withLock(lock, async () => 'taken', {waitMs: 500}), 'taken');
	assert.equal(existsSync(lock), false);
	assert.equal(existsSync(`${lock}.takeover`), false);
});

test('a lock naming a live process that started at another time is stale (a reused PID); at its own start time it is held', {skip: !hasProc && 'needs /proc'}, async t => {
	const dir = await tempDir(t);
	const lock = join(dir, 'x.lock');
	const {pid, started} = await unrelatedProcess(t);
	const owner = (start?: string) => JSON.stringify({pid, hostname: hostname(), ...(start === undefined ? {} : {started: start}), created: new Date().toISOString()});

	await writeFile(lock, owner(otherStart(started)));
	const taken = await acquireLock(lock);
	assert.equal(JSON.parse(await readFile(lock, 'utf8')).pid, process.pid);
	taken.release();
	await writeFile(lock, owner(otherStart(started)));
	assert.equal(await withLock(lock, async () => 'taken', {waitMs: 500}), 'taken');

	await writeFile(lock, owner(started));
	await assert.rejects(acquireLock(lock), {name: 'LockBusyError', message: `${lock} is locked: held by process ${pid}`});
	await assert.rejects(
		withLock(lock, async () => 'never', {waitMs: 100}),
		{name: 'LockBusyError'},
	);
	// A lock written without a start time (by an older i, or where there is no /proc) is judged by its PID alone.
	await writeFile(lock, owner());
	await assert.rejects(acquireLock(lock), {name: 'LockBusyError', message: `${lock} is locked: held by process ${pid}`});
});

test('a lock records its owner with its start time, as /proc/PID/stat gives it', {skip: !hasProc && 'needs /proc'}, async t => {
	const dir = await tempDir(t);
	const lock = join(dir, 'x.lock');
	const held = await acquireLock(lock);
	const owner = JSON.parse(await readFile(lock, 'utf8'));
	assert.deepEqual([owner.pid, owner.hostname, owner.started], [process.pid, hostname(), startTimeOf(process.pid)]);
	held.release();
});
