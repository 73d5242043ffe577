import {randomBytes} from 'node:crypto';
import {mkdir, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {acquireLock, LockBusyError, type FileLock} from '../../fs/file-lock.js';

/** The folder of the staged builds, below a workspace's `.i/extensions/` (hidden: a normal run never loads it). */
export const STAGING_FOLDER = join('.i', 'extensions', '.dev');
/** In each staged copy: the name of the run lock of the `i dev` that made it. */
export const OWNER_FILE = '.i-dev-run';
/** A copy without its owner file is being made, or was left by a crash in that instant: younger than this it is left alone. */
const OWNERLESS_STALE_MS = 60_000;
/** Numbers tried for a new copy before giving up: each try loses only to another run taking the same number. */
const MAX_ALLOCATE_TRIES = 100;
const copyName = /^(.+)-(\d+)$/;

/**
 * Where `i dev` puts its builds: `<workspace>/.i/extensions/.dev/<name>-<n>/`,
 * a new folder for each build, so a reload imports new files (Node caches
 * ES modules by URL, a file rebuilt in place would load as the old one).
 *
 * Each run of `i dev` holds a lock file of its own in that folder (a pid
 * file with the stale detection of core/fs/file-lock.ts) and writes its
 * name into every copy it makes. At start the copies whose run is gone (a
 * crash, a kill) are removed; a copy whose run still holds its lock is
 * left, since that run may still load it. `close` removes this run's
 * copies and its lock.
 */
export class StagingArea {
	readonly folder: string;
	readonly #lock: FileLock;
	readonly #lockName: string;
	readonly #copies = new Set<string>();

	private constructor(folder: string, lock: FileLock, lockName: string) {
		this.folder = folder;
		this.#lock = lock;
		this.#lockName = lockName;
	}

	static async open(workspace: string): Promise<StagingArea> {
		const folder = join(workspace, STAGING_FOLDER);
		await mkdir(folder, {recursive: true});
		// Builds are no project files: a .gitignore keeps them out of commits.
		await writeFile(join(folder, '.gitignore'), '*\n', {flag: 'wx'}).catch(() => {});
		await removeStaleCopies(folder);
		const lockName = `run-${process.pid}-${randomBytes(4).toString('hex')}.lock`;
		return new StagingArea(folder, await acquireLock(join(folder, lockName)), lockName);
	}

	/** A new, empty copy folder for a build of `name`, numbered after every copy of that name already there. */
	async allocate(name: string): Promise<string> {
		const base = folderName(name);
		let next = 1 + Math.max(0, ...(await readdir(this.folder)).map(entry => copyNumber(entry, base)));
		for (let tries = 0; tries < MAX_ALLOCATE_TRIES; tries++, next++) {
			const path = join(this.folder, `${base}-${next}`);
			try {
				await mkdir(path);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
				throw error;
			}

			this.#copies.add(path);
			await writeFile(join(path, OWNER_FILE), `${this.#lockName}\n`);
			return path;
		}

		throw new Error(`could not make a new folder for a build of ${name} in ${this.folder}: ${MAX_ALLOCATE_TRIES} numbers were taken`);
	}

	/** Removes one copy of this run (a build that failed half-way, or one no longer loaded). */
	async discard(path: string): Promise<void> {
		if (!this.#copies.delete(path)) return;
		await rm(path, {recursive: true, force: true});
	}

	/** Removes every copy this run made and releases its lock. */
	async close(): Promise<void> {
		for (const path of [...this.#copies]) await this.discard(path);
		this.#lock.release();
	}
}

/** `@me/ext` → `me+ext`: a folder name, and one no other package's name turns into. */
function folderName(name: string): string {
	return name
		.replace(/^@/, '')
		.replaceAll('/', '+')
		.replaceAll(/[^\w.+-]/g, '_');
}

function copyNumber(entry: string, base: string): number {
	const match = copyName.exec(entry);
	return match && match[1] === base ? Number(match[2]) : 0;
}

/**
 * Removes the copies whose run is gone, and run locks left behind. A run is
 * gone when its lock can be taken: it is missing, or names a process no
 * longer alive (file-lock.ts takes such a lock over). Each lock is judged
 * once; a lock that is held (or mid-write) keeps its copies.
 */
async function removeStaleCopies(folder: string): Promise<void> {
	const entries = await readdir(folder, {withFileTypes: true});
	const verdicts = new Map<string, Promise<boolean>>();
	const gone = async (lockName: string) => {
		let verdict = verdicts.get(lockName);
		if (!verdict) {
			verdict = runGone(join(folder, lockName));
			verdicts.set(lockName, verdict);
		}

		return verdict;
	};

	for (const entry of entries) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) {
			const owner = (await readFile(join(path, OWNER_FILE), 'utf8').catch(() => undefined))?.trim();
			const stale = owner === undefined || owner.includes('/') || owner.includes('\\') ? await olderThan(path, OWNERLESS_STALE_MS) : await gone(owner);
			if (stale) await rm(path, {recursive: true, force: true});
		} else if (entry.name.startsWith('run-') && entry.name.endsWith('.lock')) {
			await gone(entry.name);
		}
	}
}

/** Takes the run's lock to see whether its process is gone; taken, the lock is released at once (which removes it). */
async function runGone(lockPath: string): Promise<boolean> {
	try {
		(await acquireLock(lockPath)).release();
		return true;
	} catch (error) {
		if (error instanceof LockBusyError) return false;
		throw error;
	}
}

async function olderThan(path: string, ms: number): Promise<boolean> {
	const stats = await stat(path).catch(() => undefined);
	return stats !== undefined && Date.now() - stats.mtimeMs > ms;
}
