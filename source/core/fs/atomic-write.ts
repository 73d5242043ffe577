import {randomUUID} from 'node:crypto';
import type {BigIntStats} from 'node:fs';
import {link, open, rename, rm, type FileHandle} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import type {TempJournal} from './write-journal.js';

/** Errors a platform gives when a directory cannot be opened or fsynced (Windows, some file systems). */
const unsupportedDirectorySync = new Set(['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF', 'ENOTSUP']);

/**
 * Replaces `path` with `data` (text, bytes, or chunks of bytes) so that a
 * reader or a crash sees either the old file or the whole new one: temp file
 * in the same folder (same file system, so the rename is atomic), fsync,
 * rename, then fsync of the folder so the rename itself survives a power loss.
 * With `exclusive`, an existing `path` is never replaced: the temp file is
 * hard-linked into place, which fails with EEXIST if anything is there.
 * Resolves with the written file's stats, taken before it was moved into
 * place: another writer's file never passes for this one. With `journal`,
 * the temp file is noted before it exists and forgotten once it is gone, so
 * a start after a kill mid-write can remove it (write-journal.ts).
 */
export async function writeFileAtomic(
	path: string,
	data: string | Uint8Array | AsyncIterable<Uint8Array>,
	options: {mode?: number; exclusive?: boolean; journal?: TempJournal | undefined} = {},
): Promise<BigIntStats> {
	const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID()}.tmp`);
	const forget = await options.journal?.begin(temp);
	try {
		return await writeThroughTemp(path, temp, data, options);
	} finally {
		await forget?.();
	}
}

async function writeThroughTemp(path: string, temp: string, data: string | Uint8Array | AsyncIterable<Uint8Array>, options: {mode?: number; exclusive?: boolean}): Promise<BigIntStats> {
	let handle: FileHandle | undefined;
	let written: BigIntStats;
	try {
		handle = await open(temp, 'wx', options.mode ?? 0o666);
		if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
		// In chunks, so a large copy never has to be held in memory whole.
		else for await (const chunk of data) await writeAll(handle, chunk);
		await handle.sync();
		// What was written, as the file will stat once in place (a rename keeps the inode and its times).
		written = await handle.stat({bigint: true});
		await handle.close();
		handle = undefined;
		if (options.exclusive) {
			await link(temp, path);
			await rm(temp, {force: true});
		} else {
			await rename(temp, path);
		}
	} catch (error) {
		await handle?.close().catch(() => {});
		await rm(temp, {force: true});
		throw error;
	}
	await syncDirectory(dirname(path));
	return written;
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
	for (let done = 0; done < bytes.length; ) {
		const {bytesWritten} = await handle.write(bytes, done, bytes.length - done);
		done += bytesWritten;
	}
}

/** Makes a rename or create in `directory` durable, where the platform allows it. */
export async function syncDirectory(directory: string): Promise<void> {
	let handle: FileHandle | undefined;
	try {
		handle = await open(directory, 'r');
		await handle.sync();
	} catch (error) {
		if (!unsupportedDirectorySync.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
	} finally {
		await handle?.close();
	}
}
