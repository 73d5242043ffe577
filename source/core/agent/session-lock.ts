import {open, rm, type FileHandle} from 'node:fs/promises';
import {readFileSync, unlinkSync} from 'node:fs';
import {hostname} from 'node:os';
import {setTimeout as sleep} from 'node:timers/promises';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';

/** An unparsable lock younger than this may be mid-write; older, its writer died. */
const unreadableStaleMs = 10_000;
/** How often to look again while a lock is mid-write or another process is taking over a stale one (about 1 s in all). */
const retryMs = 20;
const maxAttempts = 50;

/**
 * Lock and takeover files this process created and still holds, with their
 * text. A file naming our own pid that is not in here was left by an earlier
 * process that had the same pid (a new container after a crash often reuses
 * it), so it is stale although our pid is alive.
 */
const heldHere = new Map<string, string>();

const ownerSchema = z.object({
	// Positive only: process.kill(0 or negative) would probe a whole process group.
	pid: z.number().check(z.int(), z.positive()),
	hostname: z.string(),
	created: z.string(),
});

type LockState =
	| {kind: 'free'}
	| {kind: 'held'; pid: number; hostname: string}
	| {kind: 'stale'}
	| {kind: 'unreadable'};

export interface SessionLock {
	readonly path: string;
	/** Removes the lock if it is still ours; synchronous so it also runs on process exit. */
	release(): void;
}

/**
 * Takes `<sessionPath>.lock` (exclusive create), or throws a UsageError naming
 * the process that holds it. A lock whose process is gone from this host (or
 * that names this process but is not one it holds), or that is unparsable and
 * older than 10 s, is removed and the create retried.
 * Removal happens only under `<lock>.takeover` (itself exclusive-created) and
 * after looking again, so two processes never both take over: each may only
 * remove a lock that is still stale, and then only one wins the create.
 */
export async function acquireSessionLock(sessionPath: string): Promise<SessionLock> {
	const path = `${sessionPath}.lock`;
	const text = `${JSON.stringify({pid: process.pid, hostname: hostname(), created: new Date().toISOString()})}\n`;
	for (let attempt = 1; ; attempt++) {
		if (await createExclusive(path, text)) return holdLock(path, text);
		const state = await inspectLock(path);
		if (state.kind === 'held') {
			const where = state.hostname === hostname() ? '' : ` on ${state.hostname}`;
			throw new UsageError(`session ${sessionPath} is in use by process ${state.pid}${where} (lock ${path}); wait for it to finish or pick another session`);
		}
		if (attempt >= maxAttempts) {
			const why = state.kind === 'unreadable' ? 'is unreadable (its process may have died while writing it) and counts as stale 10 s after it was written' : 'kept changing while this process tried to take it over';
			throw new UsageError(`session ${sessionPath} is locked by ${path}, which ${why}; try again shortly, or delete it if no i is running`);
		}
		if (state.kind === 'unreadable' || (state.kind === 'stale' && !(await removeStaleLock(path, text)))) await sleep(retryMs);
	}
}

async function createExclusive(path: string, text: string): Promise<boolean> {
	let handle: FileHandle;
	try {
		handle = await open(path, 'wx');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}
	// Registered before the text is written, so a concurrent look from this process never takes the file for a leftover.
	heldHere.set(path, text);
	try {
		await handle.writeFile(text);
		await handle.close();
	} catch (error) {
		await handle.close().catch(() => {});
		await rm(path, {force: true});
		heldHere.delete(path);
		throw error;
	}
	return true;
}

/** Removes a takeover guard this process created. */
async function removeGuard(path: string): Promise<void> {
	await rm(path, {force: true});
	heldHere.delete(path);
}

function holdLock(path: string, text: string): SessionLock {
	const onExit = () => removeIfOurs(path, text);
	process.on('exit', onExit);
	return {
		path,
		release() {
			process.off('exit', onExit);
			removeIfOurs(path, text);
		},
	};
}

function removeIfOurs(path: string, text: string): void {
	try {
		if (readFileSync(path, 'utf8') === text) unlinkSync(path);
	} catch {
		// A lock we fail to remove names a process that is gone by then, so the next opener takes it over.
	}
	if (heldHere.get(path) === text) heldHere.delete(path);
}

async function inspectLock(path: string): Promise<LockState> {
	let handle: FileHandle;
	try {
		handle = await open(path, 'r');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {kind: 'free'};
		throw error;
	}
	let text: string;
	let mtimeMs: number;
	try {
		mtimeMs = (await handle.stat()).mtimeMs;
		text = await handle.readFile('utf8');
	} finally {
		await handle.close();
	}
	const owner = parseOwner(text);
	if (!owner) return Date.now() - mtimeMs > unreadableStaleMs ? {kind: 'stale'} : {kind: 'unreadable'};
	// A pid can only be checked on its own host; a lock from elsewhere counts as held.
	if (owner.hostname === hostname()) {
		const stale = owner.pid === process.pid ? heldHere.get(path) !== text : !isAlive(owner.pid);
		if (stale) return {kind: 'stale'};
	}
	return {kind: 'held', pid: owner.pid, hostname: owner.hostname};
}

function parseOwner(text: string): z.infer<typeof ownerSchema> | null {
	try {
		const result = ownerSchema.safeParse(JSON.parse(text));
		return result.success ? result.data : null;
	} catch {
		return null;
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: alive but another user's.
		return (error as NodeJS.ErrnoException).code !== 'ESRCH';
	}
}

/** Returns false when another process is mid-takeover, so the caller waits and looks again. */
async function removeStaleLock(path: string, ownerText: string): Promise<boolean> {
	const guard = `${path}.takeover`;
	if (!(await createExclusive(guard, ownerText))) {
		// A taker that died inside the section leaves its guard behind; it is judged like a lock.
		if ((await inspectLock(guard)).kind === 'stale') await rm(guard, {force: true});
		return false;
	}
	try {
		// Look again under the guard: the lock may have been taken over and renewed since.
		if ((await inspectLock(path)).kind === 'stale') await rm(path, {force: true});
	} finally {
		await removeGuard(guard);
	}
	return true;
}
