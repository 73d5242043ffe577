import {randomUUID} from 'node:crypto';
import {lstat, mkdir, readdir, rm, writeFile} from 'node:fs/promises';
import {basename, isAbsolute, join} from 'node:path';
import * as z from 'zod/mini';
import {errorMessage} from '../errors.js';
import {ownerState, ownProcess} from './process-owner.js';
import {readRegularFile} from './read-config-file.js';

/**
 * The temporary file writeFileAtomic makes beside its target,
 * `.NAME.<pid>.<uuid>.tmp`: only files of this shape, named for the
 * entry's own writer, are ever removed as debris.
 */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;
/** An entry holds one path and its writer: far less than this; anything bigger is no entry of ours. */
const MAX_ENTRY_BYTES = 64 * 1024;
/** An unparsable entry younger than this may be mid-write; older, its writer died before its temp file existed. */
const TORN_ENTRY_STALE_MS = 10_000;

const entrySchema = z.object({
	temp: z.string(),
	pid: z.number().check(z.int(), z.positive()),
	hostname: z.string(),
	started: z.optional(z.string().check(z.regex(/^\d+$/))),
});

/** What writeFileAtomic asks of a journal: note the temp path before the file exists, and forget it once it is gone. */
export interface TempJournal {
	/** Resolves with the call that forgets the entry; never rejects (a journal that cannot be written only leaves the write unnoted). */
	begin(temp: string): Promise<() => Promise<void>>;
}

/**
 * A workspace's unfinished writes, noted in its state folder (one small
 * file per write, `<pid>.<uuid>.json` naming the temp file and its writer)
 * so that the next start can remove the temp files of writers killed
 * mid-write without walking the workspace. A problem with the folder is a
 * warning, once a run; the write goes on unnoted.
 */
export class WriteJournal implements TempJournal {
	readonly #folder: () => Promise<string>;
	readonly #warn: (message: string) => void;
	#found: Promise<string> | undefined;
	#warned = false;

	/** `folder` is looked up at the first write (the workspace's state folder may not exist before). */
	constructor(options: {folder: () => Promise<string>; warn: (message: string) => void}) {
		this.#folder = options.folder;
		this.#warn = options.warn;
	}

	async begin(temp: string): Promise<() => Promise<void>> {
		let entry: string;
		try {
			this.#found ??= this.#folder();
			const folder = await this.#found;
			await mkdir(folder, {recursive: true, mode: 0o700});
			entry = join(folder, `${process.pid}.${randomUUID()}.json`);
			await writeFile(entry, JSON.stringify({temp, ...ownProcess()}), {flag: 'wx', mode: 0o600});
		} catch (error) {
			this.#report(`could not note an unfinished write in the workspace's state folder (${errorMessage(error)}); a write killed half-way may leave its temporary file behind`);
			return async () => {};
		}

		return async () => {
			await rm(entry, {force: true}).catch((error: unknown) => this.#report(`could not remove the note of a finished write ${entry} (${errorMessage(error)})`));
		};
	}

	#report(message: string): void {
		if (this.#warned) return;
		this.#warned = true;
		this.#warn(message);
	}
}

/**
 * At a start: removes the temp files the journal in `folder` names whose
 * writer is gone (the same check as a lock's owner: process-owner.ts), and
 * their entries. A writer still running, or on another host, keeps its
 * entry; a path not of writeFileAtomic's temp shape for that writer, or
 * not a regular file, is never touched. Resolves with the temp files
 * removed; never rejects (what cannot be done waits for the next start).
 */
export async function removeWriteDebris(folder: string): Promise<string[]> {
	let names: string[];
	try {
		names = await readdir(folder);
	} catch {
		return [];
	}

	const removed: string[] = [];
	for (const name of names) {
		if (!name.endsWith('.json')) continue;
		try {
			const temp = await judgeEntry(join(folder, name));
			if (temp !== undefined) removed.push(temp);
		} catch {
			// Unreadable now (removed by its writer, a permission): the next start looks again.
		}
	}

	return removed;
}

/** Removes one entry whose writer is gone, and its temp file if it is one; the temp file's path when it was removed. */
async function judgeEntry(path: string): Promise<string | undefined> {
	const read = await readRegularFile(path, {label: `write journal entry ${path}`, maxBytes: MAX_ENTRY_BYTES, tooBig: 'not an entry of i'});
	if (read === undefined) return undefined;
	const entry = parseEntry(read.bytes.toString('utf8'));
	if (entry === undefined) {
		if (Date.now() - read.stats.mtimeMs > TORN_ENTRY_STALE_MS) await rm(path, {force: true});
		return undefined;
	}

	if (ownerState(entry) !== 'gone') return undefined;
	const match = TEMP_NAME.exec(basename(entry.temp));
	let removed: string | undefined;
	if (isAbsolute(entry.temp) && match?.[1] === String(entry.pid) && (await isRegularFile(entry.temp))) {
		await rm(entry.temp, {force: true});
		removed = entry.temp;
	}

	await rm(path, {force: true});
	return removed;
}

function parseEntry(text: string): z.infer<typeof entrySchema> | undefined {
	try {
		const result = entrySchema.safeParse(JSON.parse(text));
		return result.success ? result.data : undefined;
	} catch {
		return undefined;
	}
}

async function isRegularFile(path: string): Promise<boolean> {
	try {
		return (await lstat(path)).isFile();
	} catch {
		return false;
	}
}
