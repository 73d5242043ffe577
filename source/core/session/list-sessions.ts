import {open, readdir, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {lockHolder, type LockBusy} from '../fs/file-lock.js';
import {errorMessage} from '../errors.js';
import {firstIssue, sessionFormatVersion, sessionHeaderSchema} from './session-schema.js';
import {readSessionIndex} from './session-index.js';

/** What the session picker shows of one saved session. */
export type SessionSummary = {
	name: string;
	path: string;
	/** The file's last change (the last step saved): what "latest" means. */
	updated: Date;
	/** Another running i has it open: it is shown, never opened a second time. */
	lockedBy: LockBusy | null;
} & (
	| {
			status: 'ok';
			id: string;
			/** The first words of its first message; null when the index has no entry for it. */
			title: string | null;
			/** Messages in its history; null when the index has no entry. */
			messages: number | null;
			/** The index entry was written at another size: the session changed since (the count may be behind). */
			stale: boolean;
	  }
	| {status: 'damaged'; problem: string}
);

/** A header is a few hundred bytes; only this much of a file is read when the index cannot tell. */
const HEADER_READ_BYTES = 4096;
/** Stats and header reads at once: enough to keep the disk busy, few enough not to run out of file handles. */
const PARALLEL_READS = 64;

/**
 * The sessions of a workspace folder, newest first. Reads the folder, the
 * index (session-index.ts) and a stat per file; a file the index does not
 * know (at that size) has its first line read and checked, nothing more.
 * Hidden files (the index, a new session's provisional file, atomic-write
 * temporaries) and side files (`.lock`, `.dropped-…`) are not sessions. A
 * damaged file is listed as damaged, with why.
 */
export async function listSessions(folder: string): Promise<SessionSummary[]> {
	let names: string[];
	try {
		names = await readdir(folder);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
	const present = new Set(names);
	const index = readSessionIndex(folder);
	const files = names.filter(name => name.endsWith('.json') && !name.startsWith('.'));
	const summaries: SessionSummary[] = [];
	for (let start = 0; start < files.length; start += PARALLEL_READS) {
		const batch = files.slice(start, start + PARALLEL_READS).map(async (file): Promise<SessionSummary | null> => {
			const name = file.slice(0, -'.json'.length);
			const path = join(folder, file);
			let size: number;
			let updated: Date;
			try {
				const stats = await stat(path);
				if (!stats.isFile()) return null;
				size = stats.size;
				updated = stats.mtime;
			} catch {
				// Gone since the folder was read (renamed, deleted): not a session any more.
				return null;
			}
			const lockedBy = present.has(`${file}.lock`) ? await lockHolder(`${path}.lock`).catch(() => null) : null;
			const entry = index[name];
			if (entry && entry.size === size) return {name, path, updated, lockedBy, status: 'ok', id: entry.id, title: entry.title, messages: entry.messages, stale: false};
			const header = await readHeader(path);
			if ('problem' in header) return {name, path, updated, lockedBy, status: 'damaged', problem: header.problem};
			if (entry && entry.id === header.id) return {name, path, updated, lockedBy, status: 'ok', id: header.id, title: entry.title, messages: entry.messages, stale: true};
			return {name, path, updated, lockedBy, status: 'ok', id: header.id, title: null, messages: null, stale: false};
		});
		for (const summary of await Promise.all(batch)) if (summary) summaries.push(summary);
	}
	return summaries.sort((a, b) => b.updated.getTime() - a.updated.getTime() || a.name.localeCompare(b.name));
}

/** The session of the folder changed last that is not damaged, or null when there is none. A locked one counts: opening it says who holds it. */
export async function latestSession(folder: string): Promise<SessionSummary | null> {
	return (await listSessions(folder)).find(summary => summary.status === 'ok') ?? null;
}

async function readHeader(path: string): Promise<{id: string} | {problem: string}> {
	let bytes: Buffer;
	try {
		const handle = await open(path, 'r');
		try {
			const buffer = Buffer.alloc(HEADER_READ_BYTES);
			const {bytesRead} = await handle.read(buffer, 0, buffer.length, 0);
			bytes = buffer.subarray(0, bytesRead);
		} finally {
			await handle.close();
		}
	} catch (error) {
		return {problem: `cannot be read: ${errorMessage(error)}`};
	}
	if (bytes.length === 0) return {problem: 'it is empty'};
	const end = bytes.indexOf(0x0a);
	if (end === -1) return {problem: 'its first line is not a complete i-session header'};
	let value: unknown;
	try {
		value = JSON.parse(bytes.subarray(0, end).toString('utf8'));
	} catch {
		return {problem: 'its first line is not JSON'};
	}
	const header = sessionHeaderSchema.safeParse(value);
	if (!header.success) return {problem: `not an i-session header: ${firstIssue(header.error)}`};
	if (header.data.version !== sessionFormatVersion) return {problem: `format version ${header.data.version}; this i reads version ${sessionFormatVersion}`};
	return {id: header.data.id};
}
