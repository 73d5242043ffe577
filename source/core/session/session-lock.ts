import {hostname} from 'node:os';
import {UsageError} from '../errors.js';
import {acquireLock, LockBusyError, type FileLock} from '../fs/file-lock.js';

export type SessionLock = FileLock;

/**
 * Takes `<sessionPath>.lock`, or throws a UsageError naming the process that
 * holds it. A session is held for a whole run, so a held lock is refused at
 * once rather than waited for; stale locks are taken over (fs/file-lock.ts).
 */
export async function acquireSessionLock(sessionPath: string): Promise<SessionLock> {
	const path = `${sessionPath}.lock`;
	try {
		return await acquireLock(path);
	} catch (error) {
		if (!(error instanceof LockBusyError)) throw error;
		const {busy} = error;
		if (busy.kind === 'held') {
			const where = busy.hostname === hostname() ? '' : ` on ${busy.hostname}`;
			throw new UsageError(`session ${sessionPath} is in use by process ${busy.pid}${where} (lock ${path}); wait for it to finish or pick another session`);
		}

		const why =
			busy.kind === 'unreadable' ? 'is unreadable (its process may have died while writing it) and counts as stale 10 s after it was written' : 'kept changing while this process tried to take it over';
		throw new UsageError(`session ${sessionPath} is locked by ${path}, which ${why}; try again shortly, or delete it if no i is running`);
	}
}
