import {randomUUID} from 'node:crypto';
import {rename, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import * as z from 'zod/mini';
import '../zod-english.js';
import {readConfigFileSync} from '../fs/read-config-file.js';
import {withStateFile} from '../fs/state-file.js';
import {isAsWritten, noteWritten} from '../fs/written-digest.js';

/**
 * `<sessions folder>/.index.json`: what the session picker shows of each
 * session (the first words of its first message, its message count, its last
 * save) and the file size it had then, kept up to date after every step by
 * the process that writes the session. Reading the list then costs one small
 * file and a stat per session, never a transcript. It is a cache: an entry
 * whose size is not the file's is stale (a process killed between the step
 * and the index, or a file written by another program) and the picker says so;
 * an index that is damaged is rebuilt from nothing by the next save, since
 * everything it holds is also in the sessions themselves.
 */
export const SESSION_INDEX_FILE = '.index.json';
/** 1000 sessions take about 200 KB; past this the index is not read (and is started again at the next save). */
export const MAX_SESSION_INDEX_BYTES = 8 * 1024 * 1024;
/** The first words kept of a session's first message. */
export const MAX_TITLE_CHARS = 100;

const entrySchema = z.object({
	id: z.string(),
	title: z.string(),
	messages: z.number().check(z.int(), z.nonnegative()),
	updated: z.string(),
	size: z.number().check(z.int(), z.nonnegative()),
});

const indexSchema = z.object({
	version: z.literal(1),
	sessions: z.record(z.string(), entrySchema),
});

export type SessionIndexEntry = z.infer<typeof entrySchema>;
export type SessionIndex = Record<string, SessionIndexEntry>;

export function sessionIndexPath(folder: string): string {
	return join(folder, SESSION_INDEX_FILE);
}

/** The index's entries by session name; empty when there is none or it cannot be used (see above). */
export function readSessionIndex(folder: string): SessionIndex {
	try {
		const bytes = readConfigFileSync(sessionIndexPath(folder), {label: 'session index', maxBytes: MAX_SESSION_INDEX_BYTES, tooBig: 'not read'});
		if (bytes === undefined) return {};
		const text = bytes.toString('utf8');
		const json = JSON.parse(text) as {sessions: SessionIndex};
		// An index as its last writer left it needs no check of its every entry (written-digest.ts).
		if (isAsWritten(sessionIndexPath(folder), text)) return json.sessions;
		const parsed = indexSchema.safeParse(json);
		return parsed.success ? parsed.data.sessions : {};
	} catch {
		return {};
	}
}

/** One line, within MAX_TITLE_CHARS: what the picker shows of a first message. */
export function titleOf(text: string): string {
	const line = text.replaceAll(/\s+/g, ' ').trim();
	const chars = [...line];
	return chars.length <= MAX_TITLE_CHARS ? line : `${chars.slice(0, MAX_TITLE_CHARS - 1).join('')}…`;
}

/**
 * Writes a temporary file beside `path` and renames it over `path`: a reader
 * sees the old index or the new one. Without the fsyncs of writeFileAtomic
 * (two after every step, slow on a busy disk): a crash may lose the
 * last update or leave an empty index, which is read as none and written
 * again at the next save; the sessions themselves are synced.
 */
async function replaceWithoutSync(path: string, text: string): Promise<void> {
	const temp = join(path, '..', `${SESSION_INDEX_FILE}.${process.pid}.${randomUUID()}.tmp`);
	try {
		await writeFile(temp, text, {mode: 0o600, flag: 'wx'});
		await rename(temp, path);
	} catch (error) {
		await rm(temp, {force: true});
		throw error;
	}
}

/**
 * Changes the index under its lock (other `i`s write theirs beside): `change`
 * gets the entries and edits them in place. Atomic, so a reader sees the old
 * index or the new one.
 */
export async function updateSessionIndex(folder: string, change: (sessions: SessionIndex) => void): Promise<void> {
	const path = sessionIndexPath(folder);
	await withStateFile(path, async () => {
		const sessions = readSessionIndex(folder);
		change(sessions);
		const text = `${JSON.stringify({version: 1, sessions})}\n`;
		await replaceWithoutSync(path, text);
		await noteWritten(path, text);
	});
}
