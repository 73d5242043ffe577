import {join} from 'node:path';
import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {workspaceStateDir} from '../../source/core/config/workspace-registry.js';
import {writeFileAtomic} from '../../source/core/fs/atomic-write.js';
import {readStateFile, withStateFile} from '../../source/core/fs/state-file.js';
import {MAX_FILE_BYTES} from './limits.js';

export interface MemoryEntry {
	text: string;
	/** ISO 8601, when it was last written. */
	updated_at: string;
}

/** Keyed by a Map, so a key such as `constructor` is only ever a key. */
export type Memory = Map<string, MemoryEntry>;

const entrySchema = z.strictObject({text: z.string(), updated_at: z.string()});
const fileSchema = z.strictObject({version: z.literal(1), entries: z.record(z.string(), entrySchema)});

/** `data/workspaces/<id>/memory.json` (spec/platform.md §3). */
export function memoryPath(dirs: PlatformDirs, workspaceId: string): string {
	return join(workspaceStateDir(dirs, workspaceId), 'memory.json');
}

/**
 * The memory at `path`, empty when there is no file yet. A file that is too
 * big, not JSON or not in this shape is an error naming it: it is never
 * reset or overwritten, since the entries live only there.
 */
export async function readMemory(path: string): Promise<Memory> {
	const read = await readStateFile(path, fileSchema, {
		label: 'memory file',
		maxBytes: MAX_FILE_BYTES,
		tooBig: 'it was not written by i: repair it or move it away',
		corrupt: 'it is never reset or overwritten automatically: repair it, or move it away to start an empty memory',
	});
	if (read === undefined) return new Map();
	// From the parsed JSON itself, where every key is an own property (zod's record would drop `__proto__`).
	const entries = (read.json as {entries: Record<string, MemoryEntry>}).entries;
	return new Map(Object.entries(entries).map(([key, entry]) => [key, {text: entry.text, updated_at: entry.updated_at}]));
}

/**
 * Reads, changes and writes the memory under `<path>.lock` with an atomic
 * write, so concurrent processes never lose an entry and a reader always
 * sees a whole file. `change` may throw to leave the file as it was.
 */
export async function updateMemory<T>(path: string, change: (memory: Memory) => T): Promise<T> {
	return withStateFile(path, async () => {
		const memory = await readMemory(path);
		const result = change(memory);
		await writeFileAtomic(path, serialize(memory));
		return result;
	});
}

function serialize(memory: Memory): string {
	const entries = Object.fromEntries([...memory].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
	return `${JSON.stringify({version: 1, entries}, null, '\t')}\n`;
}
