import {link, lstat, rename, unlink, type FileHandle} from 'node:fs/promises';
import {resolve} from 'node:path';
import {errorMessage, TurnError, UsageError} from '../errors.js';
import type {Message} from '../messages.js';
import {checkStep, maxSessionBytes, type LoadedSession, type SessionDropped} from './session-file.js';
import {acquireSessionLock, type SessionLock} from './session-lock.js';
import {describeShapeProblem, type HistoryShape} from '../history/history-shape.js';
import {freezeDeep} from '../immutable.js';
import {deliveryIdOf, entryLine, queuedLine, type QueuedItem, type SessionEntry} from './session-records.js';

/** A session on disk as its owner holds it; session-store.ts `openSession` opens one. */
export interface Session {
	readonly id: string;
	/** Where the file is now: moveTo changes it. */
	readonly path: string;
	readonly workspace: string;
	/** True when this open created the file. */
	readonly created: boolean;
	/** All messages of the loaded steps, in order: the session's own array, which appendStep extends. */
	readonly messages: Message[];
	/** What the open cut off a damaged file, for the caller to tell the person. */
	readonly dropped: SessionDropped | null;
	/** Committed `{customType, data}` entries of extensions, in order; never part of `messages`, never sent to a model. */
	readonly entries: readonly SessionEntry[];
	/** What extensions handed over (appendEntry, sendMessage) that is saved but not yet committed, in order. */
	readonly pending: readonly QueuedItem[];
	/** Appends a step; a delivered message in it (session-records.ts) stops being pending. */
	appendStep(messages: Message[]): Promise<void>;
	/** Saves an accepted delivery to wait for its moment (one line, fsynced): a kill after this loses nothing. */
	queue(item: QueuedItem): Promise<void>;
	/** Commits entries (one line each, fsynced); one that was pending stops being so. */
	commitEntries(entries: readonly SessionEntry[]): Promise<void>;
	/**
	 * Commits a compaction (or /reload's new AGENTS.md block in the system
	 * prompt): `messages` become the whole history, written as one step like
	 * any other, so the steps before it stay in the file as the backup of
	 * the original history.
	 */
	replaceHistory(messages: Message[]): Promise<void>;
	/**
	 * Moves the file (and its lock) to `path` in the same folder tree, never
	 * replacing a file there: a taken path is a UsageError and nothing moves.
	 * Writes go on to the same file throughout (the handle follows it).
	 */
	moveTo(path: string): Promise<void>;
	close(): Promise<void>;
}

/** What an open session tells its owner after each write (session-store.ts `openSession`). */
export interface SessionHooks {
	/**
	 * Called after each write (a step, a queued or entry line), inside the
	 * write queue (the next write and the turn wait for it): the workspace
	 * sessions name a new session after its first message here. A throw is
	 * passed to `warn`; the write stays saved.
	 */
	onSaved?: ((session: Session) => Promise<void>) | undefined;
	/**
	 * Called after `onSaved`, outside the write queue, one call at a time
	 * (close waits for the last): the summary index, which the turn need
	 * not wait for. A throw is passed to `warn`.
	 */
	afterSaved?: ((session: Session) => Promise<void>) | undefined;
	warn?: ((message: string) => void) | undefined;
}

/**
 * An open session file: the write queue that appends its lines (each one
 * O_APPEND write and an fsync, rolled back when it fails), the messages and
 * deliveries they hold, and the lock that follows the file when it moves.
 */
export class FileSession implements Session {
	readonly id: string;
	#path: string;
	readonly workspace: string;
	readonly created: boolean;
	readonly messages: Message[];
	readonly dropped: SessionDropped | null;
	readonly entries: SessionEntry[] = [];
	readonly pending: QueuedItem[] = [];
	/** Delivery IDs committed so far (in a step or as an entry). */
	readonly #delivered: Set<string>;
	readonly #handle: FileHandle;
	#lock: SessionLock;
	readonly #onSaved: SessionHooks['onSaved'];
	readonly #afterSaved: SessionHooks['afterSaved'];
	/** The afterSaved calls, chained; never rejects. */
	#background: Promise<void> = Promise.resolve();
	/** Set once the handle is closed: a move before that (by afterSaved during close) is still fine. */
	#closed = false;
	readonly #warn: (message: string) => void;
	/** Deleted at close when this is still the size it was created with. */
	readonly #discardAt: number | null;
	readonly #shape: HistoryShape;
	#steps: number;
	#size: number;
	/** Tail of the write queue; never rejects, so one failed step does not block the next. */
	#queue: Promise<void> = Promise.resolve();
	#closing: Promise<void> | null = null;
	/** Set when a failed write could not be rolled back: the file may end in a partial line. */
	#broken: Error | null = null;

	constructor(
		init: LoadedSession &
			SessionHooks & {
				path: string;
				created: boolean;
				handle: FileHandle;
				lock: SessionLock;
				discardIfEmpty: boolean;
			},
	) {
		this.id = init.header.id;
		this.#path = init.path;
		this.#onSaved = init.onSaved;
		this.#afterSaved = init.afterSaved;
		this.#warn = init.warn ?? (() => {});
		this.#discardAt = init.discardIfEmpty && init.created && init.steps === 0 ? init.size : null;
		this.workspace = init.header.workspace;
		this.created = init.created;
		this.messages = init.messages;
		for (const message of this.messages) freezeDeep(message);
		this.dropped = init.dropped;
		this.#handle = init.handle;
		this.#lock = init.lock;
		this.#shape = init.shape;
		this.#steps = init.steps;
		this.#size = init.size;
		this.#delivered = init.delivered;
		for (const record of init.records) {
			if (record.type === 'entry') {
				this.#delivered.add(record.entry.id);
				this.entries.push(freezeDeep(record.entry));
			}
		}
		// A queued line whose ID was committed later is done; the rest wait, in the order they were accepted.
		for (const record of init.records) {
			if (record.type === 'queued' && !this.#delivered.has(record.item.id) && !this.pending.some(item => item.id === record.item.id)) this.pending.push(freezeDeep(record.item));
		}
	}

	get path(): string {
		return this.#path;
	}

	async moveTo(target: string): Promise<void> {
		if (this.#closed) throw new Error(`session ${this.#path} is closed; open it again to move it`);
		const to = resolve(target);
		if (to === this.#path) return;
		// The new name's lock first: another i opening that name meanwhile must find it taken.
		const lock = await acquireSessionLock(to);
		try {
			await renameNoReplace(this.#path, to);
		} catch (error) {
			lock.release();
			if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`cannot move session ${this.#path} to ${to}: a file of that name exists`);
			throw new UsageError(`cannot move session ${this.#path} to ${to}: ${errorMessage(error)}`, {cause: error});
		}
		const old = this.#lock;
		this.#lock = lock;
		this.#path = to;
		old.release();
	}

	queue(item: QueuedItem): Promise<void> {
		return this.#enqueueLine(queuedLine(item), () => {
			if (!this.#delivered.has(item.id)) this.pending.push(freezeDeep(structuredClone(item)));
		});
	}

	commitEntries(entries: readonly SessionEntry[]): Promise<void> {
		if (entries.length === 0) return Promise.resolve();
		const lines = entries.map(entryLine).join('');
		return this.#enqueueLine(lines, () => {
			for (const entry of entries) {
				this.#delivered.add(entry.id);
				this.entries.push(freezeDeep(structuredClone(entry)));
			}
			this.#settle();
		});
	}

	/** Drops from `pending` what was committed. */
	#settle(): void {
		for (let index = this.pending.length - 1; index >= 0; index--) if (this.#delivered.has(this.pending[index]!.id)) this.pending.splice(index, 1);
	}

	#enqueueLine(text: string, after: () => void): Promise<void> {
		if (this.#closing) return Promise.reject(new Error(`session ${this.path} is closed; open it again to append`));
		const write = this.#queue.then(async () => {
			await this.#writeLines(Buffer.from(text));
			after();
			await this.#saved();
		});
		this.#queue = write.catch(() => {});
		return write;
	}

	/** Appends whole lines and syncs them, within the size limit; a failed write is rolled back. `what` names them in the error (`step 3`). */
	async #writeLines(bytes: Buffer, what?: string): Promise<void> {
		if (this.#broken) throw this.#broken;
		if (this.#size + bytes.length > maxSessionBytes) {
			throw new UsageError(`session ${this.path} would grow past the limit of ${maxSessionBytes} bytes (256 MiB); start another session`);
		}
		try {
			await appendAll(this.#handle, bytes);
			await this.#handle.sync();
		} catch (error) {
			await this.#rollBack();
			throw new TurnError(`cannot save ${what === undefined ? '' : `${what} `}to session ${this.path}: ${errorMessage(error)}`, {cause: error});
		}
		this.#size += bytes.length;
	}

	appendStep(messages: Message[]): Promise<void> {
		return this.#enqueue(messages, false);
	}

	replaceHistory(messages: Message[]): Promise<void> {
		return this.#enqueue(messages, true);
	}

	#enqueue(messages: Message[], replacesHistory: boolean): Promise<void> {
		if (this.#closing) return Promise.reject(new Error(`session ${this.path} is closed; open it again to append`));
		let json: string;
		try {
			// Serialised now, so changes the caller makes after this call do not reach the file.
			json = JSON.stringify(messages);
		} catch (error) {
			return Promise.reject(new Error(`cannot save a step to session ${this.path}: ${errorMessage(error)}`, {cause: error}));
		}
		const write = this.#queue.then(() => this.#write(json, replacesHistory));
		this.#queue = write.catch(() => {});
		return write;
	}

	close(): Promise<void> {
		this.#closing ??= this.#queue.then(async () => {
			await this.#background;
			try {
				await this.#handle.close();
				this.#closed = true;
				if (this.#discardAt !== null && this.#steps === 0 && this.#size === this.#discardAt) await unlink(this.#path).catch(() => {});
			} finally {
				this.#lock.release();
			}
		});
		return this.#closing;
	}

	async #write(messagesJson: string, replacesHistory: boolean): Promise<void> {
		if (this.#broken) throw this.#broken;
		const n = this.#steps + 1;
		const line = `{"type":"step","n":${n},"messages":${messagesJson}${replacesHistory ? ',"replaces_history":true' : ''}}\n`;
		// Checked as the next open will check it, so a step we write is never cut off as damaged.
		const step = checkStep(JSON.parse(line), n);
		if (!step.ok) throw new Error(`cannot save step ${n} to session ${this.path}: ${step.problem}`);
		const shape = this.#shape.problemOf(step.messages, {replaces: step.replacesHistory});
		if (shape) throw new Error(`cannot save step ${n} to session ${this.path}: ${describeShapeProblem(shape)}; a provider would refuse that history`);
		await this.#writeLines(Buffer.from(line), `step ${n}`);
		this.#steps = n;
		this.#shape.add(step.messages, {replaces: step.replacesHistory});
		// In place: callers hold this array.
		if (step.replacesHistory) this.messages.length = 0;
		// Frozen: parsed from the line, they are the session's alone, and stay as saved.
		for (const message of step.messages) this.messages.push(freezeDeep(message));
		for (const message of step.messages) {
			const id = deliveryIdOf(message);
			if (id !== undefined) this.#delivered.add(id);
		}
		this.#settle();
		await this.#saved();
	}

	/** Tells `onSaved` of a write, then queues `afterSaved`; their failures are warnings, the write stays. */
	async #saved(): Promise<void> {
		if (this.#onSaved) {
			try {
				await this.#onSaved(this);
			} catch (error) {
				this.#warn(`session ${this.#path}: ${errorMessage(error)}`);
			}
		}
		const after = this.#afterSaved;
		if (after) {
			this.#background = this.#background.then(async () => {
				try {
					await after(this);
				} catch (error) {
					this.#warn(`session ${this.#path}: ${errorMessage(error)}`);
				}
			});
		}
	}

	async #rollBack(): Promise<void> {
		try {
			await this.#handle.truncate(this.#size);
			await this.#handle.sync();
		} catch (error) {
			this.#broken = new TurnError(`session ${this.path} may end in a partial step after a failed write; open it again to repair it`, {cause: error});
		}
	}
}

/**
 * Renames `from` to `to` unless `to` exists (EEXIST then): a hard link and an
 * unlink, which no other process can race into. Where the file system has
 * no hard links, a check and a rename (the caller holds `to`'s lock, so only
 * a process that is not i could slip in between).
 */
async function renameNoReplace(from: string, to: string): Promise<void> {
	try {
		await link(from, to);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
		const taken = await lstat(to).then(
			() => true,
			() => false,
		);
		if (taken) throw Object.assign(new Error(`${to} exists`), {code: 'EEXIST'});
		await rename(from, to);
		return;
	}
	await unlink(from);
}

/** One write of the whole line; the loop only continues after a short write. */
async function appendAll(handle: FileHandle, bytes: Buffer): Promise<void> {
	for (let done = 0; done < bytes.length; ) {
		const {bytesWritten} = await handle.write(bytes, done, bytes.length - done);
		done += bytesWritten;
	}
}
