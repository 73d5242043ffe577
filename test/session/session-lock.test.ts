import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {readFile, symlink, utimes, writeFile} from 'node:fs/promises';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {UsageError} from '../../source/core/errors.js';
import {openSession} from '../../source/core/session/session-store.js';
import {runNode, tempWorkspace} from './helpers.js';

function inUse(path: string, pid: number): string {
	return `session ${path} is in use by process ${pid} (lock ${path}.lock); wait for it to finish or pick another session`;
}

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
	const result = spawnSync(process.execPath, ['-e', '']);
	assert.equal(result.status, 0);
	return result.pid;
}

test('a second process is refused while the first holds the session, and gets it after close', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const holder = runNode(`
		const session = await openSession(${JSON.stringify({path, workspace})});
		console.log('ready');
		process.stdin.resume();
		process.stdin.on('end', async () => { await session.close(); console.log('closed'); });
	`);
	await holder.line(line => line === 'ready');
	await assert.rejects(openSession({path, workspace}), (error: Error) => {
		assert.ok(error instanceof UsageError);
		assert.equal(error.message, inUse(path, holder.child.pid!));
		return true;
	});
	holder.child.stdin!.end();
	await holder.line(line => line === 'closed');
	assert.equal(existsSync(`${path}.lock`), false);
	const session = await openSession({path, workspace});
	assert.equal(session.created, false);
	await session.close();
	assert.equal(await holder.exited, 0);
});

test('the lock is released when the process exits without closing', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const child = runNode(`
		await openSession(${JSON.stringify({path, workspace})});
		process.exit(0);
	`);
	assert.equal(await child.exited, 0);
	assert.ok(existsSync(path));
	assert.equal(existsSync(`${path}.lock`), false);
});

test('the same process cannot open a session twice', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const session = await openSession({path, workspace});
	await assert.rejects(openSession({path, workspace}), {name: 'UsageError', message: inUse(path, process.pid)});
	await session.close();
});

test('a lock left by a dead process is taken over', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	await writeFile(`${path}.lock`, JSON.stringify({pid: deadPid(), hostname: hostname(), created: new Date().toISOString()}));
	const session = await openSession({path, workspace});
	assert.equal(JSON.parse(await readFile(`${path}.lock`, 'utf8')).pid, process.pid);
	await session.close();
	assert.equal(existsSync(`${path}.lock`), false);
	assert.equal(existsSync(`${path}.lock.takeover`), false);
});

test('an unreadable lock is respected while young and taken over after 10 s', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const lock = `${path}.lock`;
	await writeFile(lock, '{"pid":');
	await assert.rejects(openSession({path, workspace}), {
		name: 'UsageError',
		message: `session ${path} is locked by ${lock}, which is unreadable (its process may have died while writing it) and counts as stale 10 s after it was written; try again shortly, or delete it if no i is running`,
	});
	const old = new Date(Date.now() - 11_000);
	await utimes(lock, old, old);
	const session = await openSession({path, workspace});
	await session.close();
	assert.equal(existsSync(lock), false);
});

test('a lock from another host is respected', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	await writeFile(`${path}.lock`, JSON.stringify({pid: deadPid(), hostname: `not-${hostname()}`, created: new Date().toISOString()}));
	await assert.rejects(openSession({path, workspace}), {name: 'UsageError', message: /^session .* is in use by process \d+ on not-/});
});

test('processes racing to take over a stale lock: exactly one wins', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	await writeFile(`${path}.lock`, JSON.stringify({pid: deadPid(), hostname: hostname(), created: new Date().toISOString()}));
	const children = Array.from({length: 6}, () =>
		runNode(`
		try {
			const session = await openSession(${JSON.stringify({path, workspace})});
			console.log('won');
			await new Promise(resolve => setTimeout(resolve, 2000));
			await session.close();
		} catch (error) {
			console.log(error.name === 'UsageError' && /is in use by process/.test(error.message) ? 'refused' : 'failed: ' + error.message);
		}
	`),
	);
	const codes = await Promise.all(children.map(child => child.exited));
	assert.deepEqual(
		codes,
		children.map(() => 0),
	);
	const results = children.map(child => child.lines.join(' ')).sort();
	assert.deepEqual(results, ['refused', 'refused', 'refused', 'refused', 'refused', 'won']);
	assert.equal(existsSync(`${path}.lock`), false);
});

test('a symlink to a held session is refused: the lock belongs to the real file, whichever name each process uses', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const alias = join(workspace, 'alias.json');
	const session = await openSession({path, workspace});
	await session.close();
	await symlink(path, alias);
	for (const [held, opened] of [
		[alias, path],
		[path, alias],
	] as const) {
		const holder = runNode(`
			const session = await openSession(${JSON.stringify({path: held, workspace})});
			console.log('ready');
			process.stdin.resume();
			process.stdin.on('end', async () => { await session.close(); console.log('closed'); });
		`);
		t.after(() => holder.child.kill());
		await holder.line(line => line === 'ready');
		await assert.rejects(openSession({path: opened, workspace}), (error: Error) => {
			assert.ok(error instanceof UsageError);
			assert.equal(error.message, inUse(path, holder.child.pid!), `held as ${held}, opened as ${opened}`);
			return true;
		});
		assert.equal(existsSync(`${alias}.lock`), false);
		holder.child.stdin!.end();
		await holder.line(line => line === 'closed');
		assert.equal(await holder.exited, 0);
	}
});

test('a lock naming this process that this process does not hold is stale (the pid of a crashed run, reused)', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const leftover = JSON.stringify({pid: process.pid, hostname: hostname(), created: new Date(Date.now() - 60_000).toISOString()});
	await writeFile(`${path}.lock`, leftover);
	// A takeover guard left by the crash too: judged the same way.
	await writeFile(`${path}.lock.takeover`, leftover);
	const session = await openSession({path, workspace});
	const lock = await readFile(`${path}.lock`, 'utf8');
	assert.notEqual(lock, leftover);
	assert.equal(JSON.parse(lock).pid, process.pid);
	// The lock it now holds is still respected within the process.
	await assert.rejects(openSession({path, workspace}), {name: 'UsageError', message: inUse(path, process.pid)});
	await session.close();
	assert.equal(existsSync(`${path}.lock`), false);
	assert.equal(existsSync(`${path}.lock.takeover`), false);
});

test('opens racing within one process to take over a stale lock: exactly one wins', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	await writeFile(`${path}.lock`, JSON.stringify({pid: deadPid(), hostname: hostname(), created: new Date().toISOString()}));
	const results = await Promise.allSettled(Array.from({length: 6}, async () => openSession({path, workspace})));
	const won = results.filter(result => result.status === 'fulfilled');
	assert.equal(won.length, 1);
	for (const result of results) {
		if (result.status === 'rejected') assert.equal((result.reason as Error).message, inUse(path, process.pid));
	}
	await won[0]!.value.close();
	assert.equal(existsSync(`${path}.lock`), false);
	assert.equal(existsSync(`${path}.lock.takeover`), false);
});
