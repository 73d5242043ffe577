import {createHash, randomBytes} from 'node:crypto';
import {mkdir, open, readFile, rename, rm, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {emptyList, parseList, TodoError, type TodoList} from './todo-list.js';

/** Where the lists live, below the workspace: one file per session (spec/extensions.md §4: `.i/todos/<sessionId>.json`). */
export const TODO_FOLDER = join('.i', 'todos');
/** The project's shared list, for a call without a session ID. A session's file name never starts with `_`, so no session can take it. */
export const PROJECT_LIST = '_project';
/**
 * A list this tool writes stays far below this (200 items of 500
 * characters are about 320 KB of JSON); anything bigger was not written by
 * it, and is refused before it is read into memory.
 */
export const MAX_FILE_BYTES = 512 * 1024;

/** Session IDs `i` makes (UUIDs) and other plain ones are kept as they are: a person can find their file. */
const plainId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The file name for a session ID. A plain ID is the name; anything else
 * (a path, `..`, a drive letter, a NUL, 300 characters) becomes a hash of
 * it, so no ID can leave the folder or take another's file.
 */
export function fileNameFor(sessionId: string): string {
	if (plainId.test(sessionId)) return `${sessionId}.json`;
	return `_id-${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.json`;
}

/** The list file for this call, and whether it is the project's shared one. */
export function listFile(cwd: string, sessionId: string | undefined): {path: string; shared: boolean} {
	const folder = join(cwd, TODO_FOLDER);
	if (sessionId === undefined) return {path: join(folder, `${PROJECT_LIST}.json`), shared: true};
	return {path: join(folder, fileNameFor(sessionId)), shared: false};
}

/** The stored list, or an empty one when there is no file yet. A file too big or not a list is a TodoError naming it; it is never overwritten. */
export async function readList(path: string): Promise<TodoList> {
	let size: number;
	try {
		const stats = await stat(path);
		if (!stats.isFile()) throw new TodoError(`${path} is not a file; move it away so the list can be kept there`);
		size = stats.size;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyList();
		throw error;
	}

	if (size > MAX_FILE_BYTES) throw new TodoError(`${path} is ${size} bytes, over the ${MAX_FILE_BYTES / 1024} KiB a todo list takes; it was not written by this tool: move it away`);
	let data: unknown;
	try {
		data = JSON.parse(await readFile(path, 'utf8'));
	} catch (error) {
		throw new TodoError(`${path} is not valid JSON (${(error as Error).message}); fix or delete the file`);
	}

	return parseList(data, path);
}

/**
 * Replaces the list file atomically: the new text goes to a temp file in
 * the same folder, is flushed to disk, and is renamed over the old one. A
 * crash leaves the old list or the new one, never half of either.
 */
export async function writeList(path: string, list: TodoList): Promise<void> {
	const folder = join(path, '..');
	await mkdir(folder, {recursive: true});
	const temp = join(folder, `.${randomBytes(6).toString('hex')}.tmp`);
	try {
		const file = await open(temp, 'wx', 0o644);
		try {
			await file.writeFile(`${JSON.stringify(list, null, 2)}\n`, 'utf8');
			await file.sync();
		} finally {
			await file.close();
		}

		await rename(temp, path);
	} catch (error) {
		await rm(temp, {force: true});
		throw error;
	}
}
