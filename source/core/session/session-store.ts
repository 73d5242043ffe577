import {randomUUID} from 'node:crypto';
import {constants} from 'node:fs';
import {mkdir, open, realpath, type FileHandle} from 'node:fs/promises';
import {basename, dirname, join, resolve} from 'node:path';
import {errorMessage, UsageError} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {FileSession, type Session, type SessionHooks} from './file-session.js';
import {loadSessionFile, sessionHeaderLine} from './session-file.js';
import {acquireSessionLock} from './session-lock.js';
import {sessionFormatVersion, type SessionHeader} from './session-schema.js';

export type {Session} from './file-session.js';

/**
 * Sessions on disk, as JSON Lines: a header line
 * `{"type":"i-session","version":1,"id","workspace","created"}`, then one
 * `{"type":"step","n","messages"}` line per checkpoint. A step is appended with
 * one O_APPEND write and an fsync, so saving costs the step, not the session,
 * and a kill leaves at most a torn last line, which the next open cuts off
 * (keeping the cut bytes in a side file, see loadSessionFile).
 */

export interface OpenSessionOptions extends SessionHooks {
	path: string;
	workspace: string;
	/** A file this open created and nothing was written to is deleted at close (a chat that never got a message leaves no file). */
	discardIfEmpty?: boolean | undefined;
}

const sessionNamePattern = /^(?!\.)[A-Za-z0-9._-]{1,64}$/;
/** Session files hold conversations and tool output: owner-only. */
const sessionFileMode = 0o600;
// Read-write for the repair, append so every write lands at the end. No-follow: the
// path is canonical, so a symlink there appeared after it was resolved and may lead
// to a file that another process locks under its own name.
const openFlags = constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW;

/** The rule of `--session-name`: portable on every file system, so the project's `.i/sessions` can be shared. */
export function isSessionName(name: string): boolean {
	return sessionNamePattern.test(name);
}

export function sessionPathForName(workspace: string, name: string): string {
	if (!sessionNamePattern.test(name)) {
		throw new UsageError(`session name ${JSON.stringify(name)} is invalid: use 1–64 characters from A–Z, a–z, 0–9, '.', '_', '-', not starting with '.'`);
	}
	return join(workspace, '.i', 'sessions', `${name}.json`);
}

/**
 * Opens the session at `path`, creating it (and its folders) when missing,
 * under a lock held until close() or process exit. `workspace` must be the
 * canonical workspace path; a session from another workspace is refused.
 */
export async function openSession(options: OpenSessionOptions): Promise<Session> {
	const given = resolve(options.path);
	try {
		await mkdir(dirname(given), {recursive: true});
	} catch (error) {
		throw new UsageError(`cannot create the folder of session ${given}: ${errorMessage(error)}`, {cause: error});
	}
	// One file, one lock: every name for the file (a symlink, a symlinked folder) must come to the same lock path.
	const path = await canonicalSessionPath(given);
	const lock = await acquireSessionLock(path);
	let handle: FileHandle | undefined;
	try {
		let created = false;
		handle = await openExisting(path);
		if (!handle) {
			const header: SessionHeader = {type: 'i-session', version: sessionFormatVersion, id: randomUUID(), workspace: options.workspace, created: new Date().toISOString()};
			await writeFileAtomic(path, sessionHeaderLine(header), {mode: sessionFileMode});
			handle = await open(path, openFlags);
			created = true;
		}
		const loaded = await loadSessionFile(handle, path, options.workspace);
		return new FileSession({...loaded, path, created, handle, lock, onSaved: options.onSaved, afterSaved: options.afterSaved, discardIfEmpty: options.discardIfEmpty === true, warn: options.warn});
	} catch (error) {
		await handle?.close().catch(() => {});
		lock.release();
		if (error instanceof UsageError) throw error;
		throw new UsageError(`cannot open session ${path}: ${errorMessage(error)}`, {cause: error});
	}
}

/** The real path of the file when it exists (through any symlink), else the real path of its folder plus its name. */
async function canonicalSessionPath(path: string): Promise<string> {
	try {
		return await realpath(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`cannot open session ${path}: ${errorMessage(error)}`, {cause: error});
	}
	try {
		return join(await realpath(dirname(path)), basename(path));
	} catch (error) {
		throw new UsageError(`cannot open session ${path}: ${errorMessage(error)}`, {cause: error});
	}
}

async function openExisting(path: string): Promise<FileHandle | undefined> {
	try {
		return await open(path, openFlags);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') return undefined;
		if (code === 'ELOOP') {
			throw new UsageError(`session ${path} is a symbolic link that led to no file when this open began; give the path of the file it points to`, {cause: error});
		}
		throw error;
	}
}
