import {rm} from 'node:fs/promises';
import {closeSync, openSync, rmSync, unlinkSync, writeFileSync} from 'node:fs';
import {hostname} from 'node:os';
import {setTimeout as sleep} from 'node:timers/promises';
import * as z from 'zod/mini';
import {ownerState, ownProcess} from './process-owner.js';
import {readConfigFileSync, readRegularFile, type ConfigFileRule} from './read-config-file.js';

/** An unparsable lock younger than this may be mid-write; older, its writer died. */
const unreadableStaleMs = 10_000;
/** An owner line takes about 100 bytes; a file far bigger at a lock's path is no lock of ours. */
const MAX_LOCK_FILE_BYTES = 64 * 1024;
/** How often to look again while a lock is mid-write, being taken over, or (withLock) held. */
const retryMs = 20;
/** `acquireLock` looks again this many times (about 1 s in all) before giving up on a lock that is mid-write or changing hands. */
const maxAttempts = 50;
/** `withLock` waits at most this long for a holder to finish its short critical section. */
const defaultWaitMs = 10_000;

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
	// The owner's start time (process-owner.ts); a lock written without it is judged by its PID alone.
	started: z.optional(z.string().check(z.regex(/^\d+$/))),
	created: z.string(),
});

/** Why a lock could not be taken: another live process holds it, it is mid-write, or it kept changing hands. */
export type LockBusy = {kind: 'held'; pid: number; hostname: string} | {kind: 'unreadable'} | {kind: 'changing'};

type LockState = LockBusy | {kind: 'free'} | {kind: 'stale'};

/** The lock at `path` is busy; `busy` says why, for a message in the caller's own words. */
export class LockBusyError extends Error {
	override name = 'LockBusyError';
	constructor(
		readonly path: string,
		readonly busy: LockBusy,
		message = `${path} is locked: ${describeBusy(busy)}`,
	) {
		super(message);
	}
}

export interface FileLock {
	readonly path: string;
	/** Removes the lock if it is still ours; synchronous so it also runs on process exit. */
	release(): void;
}

/**
 * Takes the lock file `path` (exclusive create), or throws a LockBusyError:
 * at once when a live process holds it, after about 1 s when it stays
 * unreadable or keeps changing hands. For locks held for a long time
 * (sessions), where waiting makes no sense.
 *
 * A lock whose process is gone from this host (its PID free, or taken by a
 * process that started at another time: process-owner.ts), or that names
 * this process but is not one it holds, or that is unparsable and older
 * than 10 s, is removed and the create retried. Removal happens only under
 * `<lock>.takeover` (itself exclusive-created) and after looking again, so
 * two processes never both take over: each may only remove a lock that is
 * still stale, and then only one wins the create.
 */
export async function acquireLock(path: string): Promise<FileLock> {
	const text = ownerText();
	for (let attempt = 1; ; attempt++) {
		const outcome = await tryLock(path, text);
		if ('lock' in outcome) return outcome.lock;
		if (outcome.busy.kind === 'held' || attempt >= maxAttempts) throw new LockBusyError(path, outcome.busy);
		if (outcome.wait) await sleep(retryMs);
	}
}

/**
 * Runs `fn` holding the lock file `path`, waiting (polling) while another
 * process holds it, for short critical sections several processes share.
 * Gives up with a LockBusyError after `waitMs`.
 */
export async function withLock<T>(path: string, fn: () => Promise<T>, options: {waitMs?: number} = {}): Promise<T> {
	const waitMs = options.waitMs ?? defaultWaitMs;
	const text = ownerText();
	const deadline = Date.now() + waitMs;
	for (;;) {
		const outcome = await tryLock(path, text);
		if ('lock' in outcome) {
			try {
				return await fn();
			} finally {
				outcome.lock.release();
			}
		}

		if (Date.now() >= deadline) {
			throw new LockBusyError(path, outcome.busy, `${path} is still locked after waiting ${waitMs / 1000} s: ${describeBusy(outcome.busy)}; try again, or delete it if no i is running`);
		}

		if (outcome.wait || outcome.busy.kind === 'held') await sleep(retryMs);
	}
}

function describeBusy(busy: LockBusy): string {
	switch (busy.kind) {
		case 'held': {
			return `held by process ${busy.pid}${busy.hostname === hostname() ? '' : ` on ${busy.hostname}`}`;
		}

		case 'unreadable': {
			return 'the lock file is unreadable (its process may have died while writing it) and counts as stale 10 s after it was written';
		}

		case 'changing': {
			return 'the lock kept changing hands';
		}
	}
}

function ownerText(): string {
	return `${JSON.stringify({...ownProcess(), created: new Date().toISOString()})}\n`;
}

/** One try: the lock, or why not and whether to pause before the next try (not after removing a stale lock). */
async function tryLock(path: string, text: string): Promise<{lock: FileLock} | {busy: LockBusy; wait: boolean}> {
	if (await createExclusive(path, text)) return {lock: holdLock(path, text)};
	const state = await inspectLock(path);
	switch (state.kind) {
		case 'held':
		case 'unreadable': {
			return {busy: state, wait: true};
		}

		case 'stale': {
			return {busy: {kind: 'changing'}, wait: !(await removeStaleLock(path, text))};
		}

		default: {
			// Freed between the create and the look: try again at once.
			return {busy: {kind: 'changing'}, wait: false};
		}
	}
}

async function createExclusive(path: string, text: string): Promise<boolean> {
	// Synchronous: an exclusive create of a file this small never blocks (a FIFO or anything else at the path
	// is EEXIST), and four trips through the thread pool cost more than the work; every state-file write takes one.
	let fd: number;
	try {
		fd = openSync(path, 'wx');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}

	// Registered before the text is written, so a concurrent look from this process never takes the file for a leftover.
	heldHere.set(path, text);
	let open = true;
	try {
		writeFileSync(fd, text);
		// Marked first: a close that fails has still released the descriptor, which must not be closed twice.
		open = false;
		closeSync(fd);
	} catch (error) {
		if (open) closeSync(fd);
		rmSync(path, {force: true});
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

function holdLock(path: string, text: string): FileLock {
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

/**
 * Lock files are read through the config reader: a FIFO put at a lock's path
 * must not block the open (in the thread pool, where it would also keep
 * process.exit from returning).
 */
function lockFileRule(path: string): ConfigFileRule {
	return {label: `lock file ${path}`, maxBytes: MAX_LOCK_FILE_BYTES, tooBig: 'too big for a lock file; delete it if no i is running'};
}

function removeIfOurs(path: string, text: string): void {
	try {
		if (readConfigFileSync(path, lockFileRule(path))?.toString('utf8') === text) unlinkSync(path);
	} catch {
		// A lock we fail to remove names a process that is gone by then, so the next opener takes it over.
	}

	if (heldHere.get(path) === text) heldHere.delete(path);
}

/**
 * Who holds the lock file `path`, without taking it: null when it is free or
 * stale (its process is gone), else why it counts as busy. For lists that
 * mark what another process has open (the session picker).
 */
export async function lockHolder(path: string): Promise<LockBusy | null> {
	const state = await inspectLock(path);
	return state.kind === 'free' || state.kind === 'stale' ? null : state;
}

async function inspectLock(path: string): Promise<LockState> {
	const read = await readRegularFile(path, lockFileRule(path));
	if (!read) return {kind: 'free'};
	const text = read.bytes.toString('utf8');
	const {mtimeMs} = read.stats;
	const owner = parseOwner(text);
	if (!owner) return Date.now() - mtimeMs > unreadableStaleMs ? {kind: 'stale'} : {kind: 'unreadable'};
	// A pid can only be checked on its own host (a lock from elsewhere counts as held); a pid taken by a process that started at another time is a reused one.
	const stale = owner.pid === process.pid && owner.hostname === hostname() ? heldHere.get(path) !== text : ownerState(owner) === 'gone';
	return stale ? {kind: 'stale'} : {kind: 'held', pid: owner.pid, hostname: owner.hostname};
}

function parseOwner(text: string): z.infer<typeof ownerSchema> | null {
	try {
		const result = ownerSchema.safeParse(JSON.parse(text));
		return result.success ? result.data : null;
	} catch {
		return null;
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
