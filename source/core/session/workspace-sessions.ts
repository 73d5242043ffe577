import {randomBytes} from 'node:crypto';
import {lstat, mkdir, readdir, readFile, realpath, unlink} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import type {PlatformDirs} from '../config/dirs.js';
import {workspaceId, workspaceStateDir} from '../config/workspace-registry.js';
import {errorMessage, UsageError} from '../errors.js';
import {openSession, type Session} from './session-store.js';
import {sessionHeaderSchema} from './session-schema.js';
import {lockHolder} from '../fs/file-lock.js';
import {checkSessionName, firstUserText, slugOf, unusedName, withSuffix} from './session-name.js';
import {titleOf, updateSessionIndex} from './session-index.js';

/**
 * The chat screen's sessions (spec/platform.md §3): `<data_dir>/workspaces/<id>/sessions/<name>.json`,
 * the ID from the workspace registry. A new session opens under a hidden
 * provisional name (`.new-<time>-<hex>.json`, which the picker does not list)
 * and takes its name from its first message once the first step is saved;
 * one that never gets a message is deleted when it closes.
 */
export const PROVISIONAL_PREFIX = '.new-';

/**
 * The sessions folder of the workspace, registering it if it is new; made
 * and given by its real path, as sessions report theirs (a data folder
 * behind a symlink, macOS's /var, must still be known as this folder).
 */
export async function workspaceSessionsFolder(workspace: string, dirs: PlatformDirs): Promise<string> {
	const folder = join(workspaceStateDir(dirs, await workspaceId(workspace, dirs)), 'sessions');
	try {
		await mkdir(folder, {recursive: true, mode: 0o700});
		return await realpath(folder);
	} catch (error) {
		throw new UsageError(`cannot create the sessions folder ${folder}: ${errorMessage(error)}`, {cause: error});
	}
}

export function isProvisional(path: string): boolean {
	return basename(path).startsWith(PROVISIONAL_PREFIX);
}

/** A provisional file bigger than this has more than a header: it is never pruned. */
const MAX_PRUNED_BYTES = 4096;

/**
 * Deletes the provisional files a killed `i` left (its close never ran):
 * those no live process holds whose whole content is one header line. One
 * that holds more (a first step whose naming failed) stays.
 */
export async function pruneProvisional(folder: string): Promise<void> {
	let names: string[];
	try {
		names = await readdir(folder);
	} catch {
		return;
	}
	const present = new Set(names);
	for (const name of names) {
		if (!name.startsWith(PROVISIONAL_PREFIX) || !name.endsWith('.json')) continue;
		const path = join(folder, name);
		try {
			if (present.has(`${name}.lock`) && (await lockHolder(`${path}.lock`)) !== null) continue;
			if ((await lstat(path)).size > MAX_PRUNED_BYTES) continue;
			const text = await readFile(path, 'utf8');
			const lines = text.split('\n');
			if (lines.length !== 2 || lines[1] !== '' || !sessionHeaderSchema.safeParse(JSON.parse(lines[0]!)).success) continue;
			await unlink(path);
			// The dead process's lock: no one else ever opens a provisional name.
			if (present.has(`${name}.lock`)) await unlink(`${path}.lock`).catch(() => {});
		} catch {
			// Changed or gone meanwhile, or not ours to judge: left as it is.
		}
	}
}

/** A fresh provisional path in `folder`. */
export function provisionalSessionPath(folder: string): string {
	const stamp = new Date().toISOString().replaceAll(/[:.]/g, '-');
	return join(folder, `${PROVISIONAL_PREFIX}${stamp}-${randomBytes(4).toString('hex')}.json`);
}

/** Whether `<folder>/<name>.json` exists (as anything: a folder of that name takes the name too). */
async function nameTaken(folder: string, name: string): Promise<boolean> {
	try {
		await lstat(join(folder, `${name}.json`));
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
		throw error;
	}
}

/**
 * Which names the folder's session files hold now, read once: a workspace
 * where `-p "Say hello"` ran a thousand times has `say-hello` … `say-hello-999`,
 * and asking for each in turn cost a thousand file system calls per start.
 * A file that appears after the read is caught by the exclusive create.
 */
async function takenNames(folder: string): Promise<(name: string) => Promise<boolean>> {
	let entries: string[];
	try {
		entries = await readdir(folder);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return async () => false;
		throw error;
	}

	const names = new Set(entries.filter(entry => entry.endsWith('.json')).map(entry => entry.slice(0, -'.json'.length)));
	return async name => names.has(name);
}

/**
 * Opens a session of a workspace folder, new (provisional) or saved: after
 * each step the index is brought up to date, and a provisional one is named
 * after its first message. `warn` hears what could not be done (the step is
 * saved all the same).
 */
export async function openWorkspaceSession(options: {path: string; workspace: string; warn?: ((message: string) => void) | undefined; discardIfEmpty?: boolean}): Promise<Session> {
	const folder = dirname(options.path);
	return openSession({
		path: options.path,
		workspace: options.workspace,
		discardIfEmpty: options.discardIfEmpty ?? isProvisional(options.path),
		warn: options.warn,
		// The name first, in the write queue: a second step must not be saved under the provisional name.
		async onSaved(session) {
			const first = firstUserText(session.messages);
			if (isProvisional(session.path) && first !== null) await moveToFreeName(session, folder, slugOf(first));
		},
		// The index behind the turn: the answer is not held up by its lock and writes.
		async afterSaved(session) {
			await indexSession(session, folder);
		},
	});
}

/** Moves `session` to the first free name from `base` on (`base`, `base-2` …), retrying if another process takes one meanwhile. */
async function moveToFreeName(session: Session, folder: string, base: string): Promise<string> {
	for (let attempt = 0; ; attempt++) {
		const name = await unusedName(base, await takenNames(folder));
		try {
			await session.moveTo(join(folder, `${name}.json`));
			return name;
		} catch (error) {
			if (attempt >= 3 || !(error instanceof UsageError)) throw error;
		}
	}
}

/** The session's entry in its folder's index, as it is now. */
async function indexSession(session: Session, folder: string): Promise<void> {
	const name = basename(session.path, '.json');
	if (isProvisional(session.path)) return;
	const {size} = await lstat(session.path);
	const first = firstUserText(session.messages);
	await updateSessionIndex(folder, sessions => {
		const before = sessions[name];
		// The first message's words stay what they were: a compaction replaces the history, not what the session began with.
		const title = before?.id === session.id && before.title !== '' ? before.title : first === null ? '' : titleOf(first);
		sessions[name] = {id: session.id, title, messages: session.messages.length, updated: new Date().toISOString(), size};
	});
}

/**
 * `/rename NAME`: moves the session's file to NAME in its folder. A name
 * in use is refused (UsageError) and nothing moves. A provisional session
 * renamed keeps the name (its first message no longer names it).
 */
export async function renameWorkspaceSession(session: Session, name: string): Promise<string> {
	const checked = checkSessionName(name);
	const folder = dirname(session.path);
	const from = basename(session.path, '.json');
	if (checked === from) return session.path;
	if (await nameTaken(folder, checked)) throw new UsageError(`a session named ${checked} exists in this workspace; choose another name`);
	await session.moveTo(join(folder, `${checked}.json`));
	await updateSessionIndex(folder, sessions => {
		const entry = sessions[from];
		delete sessions[from];
		if (entry) sessions[checked] = entry;
	}).catch(() => {});
	if (session.messages.length > 0) await indexSession(session, folder).catch(() => {});
	return session.path;
}

/**
 * `/fork`: a new session in `folder` whose history is a copy of `session`'s
 * (its messages as one step, its extensions' entries after them), named
 * after the original with `-fork` (`-fork-2` … on a clash). The original is
 * not touched.
 */
export async function forkWorkspaceSession(session: Session, folder: string, warn?: (message: string) => void): Promise<Session> {
	if (session.messages.length === 0) throw new UsageError('this session has no messages yet: there is nothing to fork');
	const original = isProvisional(session.path) ? slugOf(firstUserText(session.messages) ?? '') : basename(session.path, '.json');
	const fork = await openNewNamedSession(folder, withSuffix(original, '-fork'), session.workspace, warn);
	try {
		// Entries first: the step's save then indexes the fork at its final size.
		await fork.commitEntries(session.entries);
		await fork.appendStep([...session.messages]);
	} catch (error) {
		await fork.close();
		throw error;
	}
	return fork;
}

/**
 * A new session of `folder` named `base` (or `base-2` … when taken): for a
 * start whose first message is known (`-p TEXT`) and for /fork. A name that
 * another process creates between the look and the open is left to it.
 */
export async function openNewNamedSession(folder: string, base: string, workspace: string, warn?: (message: string) => void, options: {discardIfEmpty?: boolean} = {}): Promise<Session> {
	for (let attempt = 0; ; attempt++) {
		const name = await unusedName(base, await takenNames(folder));
		const path = join(folder, `${name}.json`);
		const session = await openWorkspaceSession({path, workspace, warn, ...options});
		if (session.created) return session;
		await session.close();
		if (attempt >= 3) throw new UsageError(`cannot create session ${path}: it appeared while it was being created`);
	}
}
