import {createHash, randomUUID} from 'node:crypto';
import {appendFile, mkdir, readdir, readFile, stat, unlink} from 'node:fs/promises';
import {join} from 'node:path';
import {errorMessage} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {withLock} from '../fs/file-lock.js';
import type {TempJournal} from '../fs/write-journal.js';
import {journalLine, journalText, MAX_DROPPED_PATHS, parseJournal, type ChangeRecord, type DroppedRecord, type Journal} from './rewind-journal.js';

/** The before-images a workspace keeps, at most ("say 200 MB a workspace"): past it the oldest changes are dropped, with a note. */
export const MAX_REWIND_BYTES = 200 * 1024 * 1024;
/** Changes a workspace keeps at most, whatever their size: the journal is read whole at each change. */
export const MAX_REWIND_CHANGES = 10_000;
/** A journal bigger than this is not read (10,000 changes take about 3 MB). */
const MAX_JOURNAL_BYTES = 16 * 1024 * 1024;

/** One change an `edit` or `write` is about to make (or a rewind makes): `before` is the file's bytes now, null when there is none, undefined when too large to keep. */
export interface PlannedChange {
	session: string;
	/** The canonical path. */
	path: string;
	before: Buffer | null | undefined;
	/** What will be written; null: the file will be removed. */
	after: Buffer | null;
	by: ChangeRecord['by'];
}

/** A kept change: `failed()` cancels it when the write did not happen. */
export interface KeptChange {
	failed(): Promise<void>;
}

export function sha256(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The before-images of the files `edit` and `write` change, kept per
 * workspace in its state folder (never in the project) so /rewind can put
 * them back: a blob per distinct content, named by its sha256, and a
 * journal of changes. Writers of several `i` in one workspace take turns
 * under one lock. Keeping never fails a change: a problem is a warning
 * (once a run) and the change goes on without its before-image. `writes`
 * notes the temp file of each such write while it exists (write-journal.ts).
 */
export class FileHistory {
	readonly writes: TempJournal | undefined;
	readonly #folder: () => Promise<string>;
	readonly #warn: (message: string) => void;
	readonly #maxBytes: number;
	readonly #maxChanges: number;
	#warned = false;

	constructor(options: {folder: () => Promise<string>; warn: (message: string) => void; writes?: TempJournal; maxBytes?: number; maxChanges?: number}) {
		this.writes = options.writes;
		this.#folder = options.folder;
		this.#warn = options.warn;
		this.#maxBytes = options.maxBytes ?? MAX_REWIND_BYTES;
		this.#maxChanges = options.maxChanges ?? MAX_REWIND_CHANGES;
	}

	/** Keeps `change`'s before-image and records it, before the file is written. */
	async keep(change: PlannedChange): Promise<KeptChange> {
		try {
			const folder = await this.#folder();
			const id = randomUUID();
			await mkdir(join(folder, 'blobs'), {recursive: true, mode: 0o700});
			await withLock(join(folder, 'journal.lock'), async () => this.#record(folder, id, change));
			return {failed: async () => this.#void(folder, id)};
		} catch (error) {
			this.#problem(`cannot keep the before-image of ${change.path} for /rewind: ${errorMessage(error)}`);
			return {failed: async () => {}};
		}
	}

	/** The journal as it is now; empty when there is none. A journal that cannot be read is an error naming it. */
	async read(): Promise<Journal> {
		const folder = await this.#folder();
		return readJournal(join(folder, 'journal.jsonl'));
	}

	/** Whether a before-image is still kept (a plan asks; only a restore reads it). */
	async has(digest: string): Promise<boolean> {
		try {
			await stat(join(await this.#folder(), 'blobs', digest));
			return true;
		} catch {
			return false;
		}
	}

	/** A kept before-image; null when it is gone (dropped, or removed by hand). */
	async blob(digest: string): Promise<Buffer | null> {
		try {
			return await readFile(join(await this.#folder(), 'blobs', digest));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
			throw error;
		}
	}

	async #record(folder: string, id: string, change: PlannedChange): Promise<void> {
		const path = join(folder, 'journal.jsonl');
		const journal = await readJournal(path);
		const before = change.before === undefined ? 'not-kept' : change.before === null ? null : sha256(change.before);
		const bytes = change.before ? change.before.length : 0;
		const kept = keptBytes(journal.changes);
		const adds = typeof before === 'string' && before !== 'not-kept' && !kept.digests.has(before) ? bytes : 0;
		if (kept.total + adds > this.#maxBytes || journal.changes.length + 1 > this.#maxChanges) await this.#dropOldest(folder, journal, adds);
		if (change.before && typeof before === 'string' && before !== 'not-kept') await keepBlob(join(folder, 'blobs', before), change.before);
		const record: ChangeRecord = {
			type: 'change',
			id,
			session: change.session,
			path: change.path,
			before,
			before_bytes: bytes,
			after: change.after === null ? null : sha256(change.after),
			time: Date.now(),
			by: change.by,
		};
		await appendFile(path, journalLine(record), {mode: 0o600});
	}

	/** Drops the oldest changes until `adds` more bytes and one more change fit, notes what went per session, and removes the blobs nothing refers to. */
	async #dropOldest(folder: string, journal: Journal, adds: number): Promise<void> {
		const changes = [...journal.changes];
		const gone: ChangeRecord[] = [];
		while (changes.length > 0 && (keptBytes(changes).total + adds > this.#maxBytes || changes.length + 1 > this.#maxChanges)) gone.push(changes.shift()!);
		const dropped = noteDropped(journal.dropped, gone);
		await writeFileAtomic(join(folder, 'journal.jsonl'), journalText({changes, dropped}), {mode: 0o600});
		const referenced = keptBytes(changes).digests;
		for (const name of await readdir(join(folder, 'blobs'))) {
			if (!referenced.has(name)) await unlink(join(folder, 'blobs', name)).catch(() => {});
		}
	}

	async #void(folder: string, id: string): Promise<void> {
		try {
			await withLock(join(folder, 'journal.lock'), async () => appendFile(join(folder, 'journal.jsonl'), journalLine({type: 'void', id}), {mode: 0o600}));
		} catch (error) {
			this.#problem(`cannot note a failed write in the rewind journal: ${errorMessage(error)}`);
		}
	}

	#problem(message: string): void {
		if (this.#warned) return;
		this.#warned = true;
		this.#warn(`${message}; /rewind may not restore files changed from now on`);
	}
}

async function readJournal(path: string): Promise<Journal> {
	try {
		const {size} = await stat(path);
		if (size > MAX_JOURNAL_BYTES) throw new Error(`the rewind journal ${path} is over ${MAX_JOURNAL_BYTES} bytes; delete it (file history is lost, files are not)`);
		return parseJournal(await readFile(path, 'utf8'));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {changes: [], dropped: [], unreadable: 0};
		throw error;
	}
}

/** The bytes the distinct before-images of `changes` take, and their digests. */
function keptBytes(changes: readonly ChangeRecord[]): {total: number; digests: Set<string>} {
	const digests = new Set<string>();
	let total = 0;
	for (const change of changes) {
		if (change.before === null || change.before === 'not-kept' || digests.has(change.before)) continue;
		digests.add(change.before);
		total += change.before_bytes;
	}

	return {total, digests};
}

/** The dropped notes with `gone` added: one per session, the newest time and every file named (up to MAX_DROPPED_PATHS). */
function noteDropped(notes: readonly DroppedRecord[], gone: readonly ChangeRecord[]): DroppedRecord[] {
	const bySession = new Map(notes.map(note => [note.session, {...note, paths: [...note.paths]}]));
	for (const change of gone) {
		const note = bySession.get(change.session) ?? {type: 'dropped' as const, session: change.session, through: change.time, count: 0, paths: [], more: false};
		note.through = Math.max(note.through, change.time);
		note.count++;
		if (!note.paths.includes(change.path)) {
			if (note.paths.length < MAX_DROPPED_PATHS) note.paths.push(change.path);
			else note.more = true;
		}

		bySession.set(change.session, note);
	}

	return [...bySession.values()];
}

/** Writes a blob once: the same content is the same name. Owner-only, as the files it copies may be secret. */
async function keepBlob(path: string, bytes: Buffer): Promise<void> {
	try {
		await writeFileAtomic(path, bytes, {mode: 0o600, exclusive: true});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
}
