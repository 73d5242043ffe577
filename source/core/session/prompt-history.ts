import {chmod, mkdir, open, realpath, stat, type FileHandle} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {type PlatformDirs, resolveDirs} from '../config/dirs.js';
import {findWorkspaceId, workspaceId, workspaceStateDir} from '../config/workspace-registry.js';
import {errorMessage} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {withLock} from '../fs/file-lock.js';
import {
	HISTORY_TRIM_SLACK,
	type HistoryLines,
	MAX_HISTORY_ENTRIES,
	MAX_HISTORY_ENTRY_BYTES,
	MAX_HISTORY_READ_BYTES,
	appendFlags,
	describeNonRegular,
	fileEnd,
	historyLine,
	isKept,
	parseHistory,
	readFlags,
	readTail,
} from './prompt-history-file.js';

export {HISTORY_TRIM_SLACK, MAX_HISTORY_ENTRIES, MAX_HISTORY_ENTRY_BYTES} from './prompt-history-file.js';

/** The file in the workspace state folder: one JSON line `{"text": …}` per prompt, oldest first. */
export const PROMPT_HISTORY_FILE = 'prompt-history.jsonl';
/** Only the person may read what they typed. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
/** An append waits this long for another process's append or trim (each takes milliseconds). */
const LOCK_WAIT_MS = 3000;

/**
 * The history file of the workspace `cwd` names (-C, as the agent resolves
 * it); undefined when the workspace has no ID yet and `register` is false
 * (nothing was typed there), or when the folder is not there (the start says so).
 */
export async function promptHistoryFile(cwd: string | undefined, register: boolean, dirs: PlatformDirs = resolveDirs()): Promise<string | undefined> {
	const workspace = await realpath(resolve(cwd ?? '.')).catch(() => undefined);
	if (workspace === undefined) return undefined;
	const id = register ? await workspaceId(workspace, dirs) : await findWorkspaceId(workspace, dirs);
	return id === undefined ? undefined : join(workspaceStateDir(dirs, id), PROMPT_HISTORY_FILE);
}

/**
 * The prompts typed in a workspace, across runs and processes. Each append
 * is one write at the end of the file under `<file>.lock` (the lock every
 * writer takes, so a trim's rewrite never drops another process's line);
 * past the bound and its slack the file is rewritten atomically with the
 * newest MAX_HISTORY_ENTRIES. Nothing here throws: a file that cannot be
 * used is reported once and this run keeps its prompts in memory only.
 */
export class PromptHistory {
	readonly path: string;
	readonly #report: (message: string) => void;
	/** Set once the file cannot be used; later appends are dropped without another notice. */
	#off = false;
	#folderReady = false;
	/** Lines the file holds as far as this store knows: past the bound and its slack, the next append trims it. */
	#lines = 0;
	#queue: Promise<void> = Promise.resolve();

	constructor(path: string, report: (message: string) => void) {
		this.path = path;
		this.#report = report;
	}

	/** The stored prompts, oldest first, at most MAX_HISTORY_ENTRIES; a file far past the bound is trimmed behind it. */
	async load(): Promise<string[]> {
		let read: HistoryLines | undefined;
		try {
			read = await this.#read();
		} catch (error) {
			this.#fail(error);
			return [];
		}

		if (read === undefined) return [];
		this.#lines = read.lines;
		if (read.skipped > 0) {
			const lines = read.skipped === 1 ? 'a line that is' : `${read.skipped} lines that are`;
			this.#report(`prompt history ${this.path}: skipped ${lines} not valid UTF-8 JSON prompts (or over ${MAX_HISTORY_ENTRY_BYTES} bytes); the other prompts are loaded`);
		}

		if (read.lines > MAX_HISTORY_ENTRIES + HISTORY_TRIM_SLACK) this.#enqueue(async () => this.#locked(async () => this.#trim()));
		return read.entries.slice(-MAX_HISTORY_ENTRIES);
	}

	/** Adds a prompt at the end (in order with this store's other appends), unless it is blank, over the cap, or the same as the last one. */
	append(text: string): void {
		if (!isKept(text)) return;
		this.#enqueue(async () => this.#locked(async () => this.#write(text)));
	}

	/** Resolves once every append and trim asked for so far is done (or failed). */
	async settled(): Promise<void> {
		return this.#queue;
	}

	#enqueue(task: () => Promise<void>): void {
		this.#queue = this.#queue.then(async () => {
			if (this.#off) return;
			try {
				await task();
			} catch (error) {
				this.#fail(error);
			}
		});
	}

	async #locked(task: () => Promise<void>): Promise<void> {
		await this.#folder();
		await withLock(`${this.path}.lock`, task, {waitMs: LOCK_WAIT_MS});
	}

	/** The file's prompts, or undefined when there is none yet. */
	async #read(): Promise<HistoryLines | undefined> {
		let handle: FileHandle;
		try {
			handle = await open(this.path, readFlags);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
			throw error;
		}

		try {
			const stats = await handle.stat();
			const kind = describeNonRegular(stats);
			if (kind !== undefined) throw new Error(`it is ${kind}, not a regular file`);
			const {bytes, cut} = await readTail(handle, stats.size, MAX_HISTORY_READ_BYTES);
			return parseHistory(bytes, cut);
		} finally {
			await handle.close();
		}
	}

	async #write(text: string): Promise<void> {
		const handle = await open(this.path, appendFlags, FILE_MODE);
		try {
			const stats = await handle.stat();
			const kind = describeNonRegular(stats);
			if (kind !== undefined) throw new Error(`it is ${kind}, not a regular file`);
			// A file made by hand (or by an older i) is made private the first time it is written.
			if ((stats.mode & 0o077) !== 0) await handle.chmod(FILE_MODE);
			const {last, torn} = await fileEnd(handle, stats.size);
			if (last === text && !torn) return;
			// A line a killed writer left without its newline is ended first, so this one is not glued to it.
			const bytes = Buffer.from((torn ? '\n' : '') + historyLine(text));
			for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done)).bytesWritten;
			this.#lines++;
		} finally {
			await handle.close();
		}

		if (this.#lines > MAX_HISTORY_ENTRIES + HISTORY_TRIM_SLACK) await this.#trim();
	}

	/** Under the lock: the newest MAX_HISTORY_ENTRIES prompts, written atomically in place of the file. */
	async #trim(): Promise<void> {
		const read = await this.#read();
		if (read === undefined || read.lines <= MAX_HISTORY_ENTRIES) return;
		const kept = read.entries.slice(-MAX_HISTORY_ENTRIES);
		await writeFileAtomic(this.path, kept.map(historyLine).join(''), {mode: FILE_MODE});
		this.#lines = kept.length;
	}

	/** The workspace state folder, made private (0700) if it is ours and wider: the history is what the person typed. */
	async #folder(): Promise<void> {
		if (this.#folderReady) return;
		const folder = dirname(this.path);
		await mkdir(folder, {recursive: true, mode: FOLDER_MODE});
		const stats = await stat(folder);
		if ((stats.mode & 0o077) !== 0 && stats.uid === process.getuid?.()) await chmod(folder, FOLDER_MODE);
		this.#folderReady = true;
	}

	#fail(error: unknown): void {
		if (this.#off) return;
		this.#off = true;
		const code = (error as NodeJS.ErrnoException).code;
		const why = code === 'EISDIR' ? 'it is a folder, not a regular file' : errorMessage(error);
		this.#report(`prompt history ${this.path} is not used: ${why}; this run keeps its prompts until it ends (move the file away to start a new one)`);
	}
}
