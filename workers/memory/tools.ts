import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {ContextSnapshotError, renderContextMessage} from '../context-snapshot/context-snapshot-message.js';
import {MAX_ENTRIES, MAX_LISTING_CHARS, MAX_TOTAL_BYTES, checkKey, checkText} from './limits.js';
import {findSecret} from './secrets.js';
import {readMemory, updateMemory, type Memory} from './store.js';
import {parseToolArguments} from '../serve/hook-data.js';

/** The snapshot source name the entries are shown under. */
export const MEMORY_SOURCE = 'memory';

const readArgs = z.strictObject({key: z.optional(z.string())});
const writeArgs = z.strictObject({key: z.string(), text: z.string()});
const deleteArgs = z.strictObject({key: z.string()});

/** The entries as key → text, the form the context snapshot shows. */
export function entriesOf(memory: Memory): Record<string, string> {
	return Object.fromEntries([...memory].map(([key, entry]) => [key, entry.text]));
}

/** memory_read: one entry with `key`, else every entry, the listing cut at MAX_LISTING_CHARS with the rest named by key. */
export async function memoryRead(data: Record<string, unknown>, path: string): Promise<{output: string}> {
	const {key} = parseToolArguments('memory_read', readArgs, data);
	const memory = await readMemory(path);
	if (key !== undefined) {
		checkKey(key);
		const entry = memory.get(key);
		if (!entry) throw new Error(`no memory entry "${key}"${memory.size === 0 ? '; the memory is empty' : `; memory_read without a key lists all ${memory.size}`}`);
		return {output: JSON.stringify({key, text: entry.text, updated_at: entry.updated_at})};
	}

	const shown: Array<{key: string; text: string; updated_at: string}> = [];
	const omitted: string[] = [];
	let size = 0;
	for (const [entryKey, entry] of [...memory].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
		const item = {key: entryKey, text: entry.text, updated_at: entry.updated_at};
		const itemSize = JSON.stringify(item).length;
		if (omitted.length > 0 || size + itemSize > MAX_LISTING_CHARS) {
			omitted.push(entryKey);
			continue;
		}

		size += itemSize;
		shown.push(item);
	}

	const note = omitted.length > 0 ? {note: `${omitted.length} entries left out to keep this short; read each with memory_read and its key`, omitted} : {};
	return {output: JSON.stringify({count: memory.size, entries: shown, ...note})};
}

/** memory_write: creates or replaces one entry, refusing secrets and anything over a limit; the file is unchanged on refusal. */
export async function memoryWrite(data: Record<string, unknown>, path: string): Promise<{output: string}> {
	const {key, text} = parseToolArguments('memory_write', writeArgs, data);
	checkKey(key);
	checkText(key, text);
	const secret = findSecret(`${key}\n${text}`);
	if (secret) {
		throw new Error(
			`memory_write refused: the entry "${key}" looks like it contains ${secret}, and memory never stores secrets; nothing was stored. Keep secrets in environment variables or files and note only where they are.`,
		);
	}

	return updateMemory(path, memory => {
		const replaced = memory.has(key);
		if (!replaced && memory.size >= MAX_ENTRIES) throw new Error(`memory is full: it has ${memory.size} entries, the most it may hold (${MAX_ENTRIES}); delete or merge some first`);
		memory.set(key, {text, updated_at: new Date().toISOString()});
		checkTotal(memory);
		return {output: `${replaced ? 'replaced' : 'created'} memory entry "${key}" (${Buffer.byteLength(text)} bytes; ${count(memory.size)} in all)`};
	});
}

/** memory_delete: removes one entry; a missing key is an error and changes nothing. */
export async function memoryDelete(data: Record<string, unknown>, path: string): Promise<{output: string}> {
	const {key} = parseToolArguments('memory_delete', deleteArgs, data);
	checkKey(key);
	return updateMemory(path, memory => {
		if (!memory.delete(key)) throw new Error(`no memory entry "${key}" to delete; nothing was changed`);
		return {output: `deleted memory entry "${key}" (${count(memory.size)} left)`};
	});
}

function count(entries: number): string {
	return `${entries} ${entries === 1 ? 'entry' : 'entries'}`;
}

/** All entries must fit one full context snapshot, so the memory can always be shown and restored. */
function checkTotal(memory: Memory): void {
	try {
		renderContextMessage(MEMORY_SOURCE, {kind: 'full', entries: new Map(Object.entries(entriesOf(memory)))});
	} catch (error) {
		if (!(error instanceof ContextSnapshotError)) throw error;
		throw new Error(`memory is full: all entries together must fit ${MAX_TOTAL_BYTES} bytes as the model sees them, and this write would go over; nothing was stored. Delete or shorten entries first`);
	}
}
