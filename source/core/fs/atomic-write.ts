import {randomUUID} from 'node:crypto';
import type {BigIntStats} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {closeFile, linkPath, openFile, removePath, renamePath, statFile, syncFile, writeToFile, writeWholeFile} from './fs-calls.js';

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
 * place: another writer's file never passes for this one.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | AsyncIterable<Uint8Array>, options: {mode?: number; exclusive?: boolean} = {}): Promise<BigIntStats> {
	// No cached entropy: a process from a start-up snapshot (the official host) would share the cache's state with every other.
	const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID({disableEntropyCache: true})}.tmp`);
	// Open until closed here, once: a descriptor closed twice could close another file that took its number.
	let fd: number | undefined;
	let written: BigIntStats;
	try {
		fd = await openFile(temp, 'wx', options.mode ?? 0o666);
		if (typeof data === 'string' || data instanceof Uint8Array) await writeWholeFile(fd, data);
		// In chunks, so a large copy never has to be held in memory whole.
		else for await (const chunk of data) await writeAll(fd, chunk);
		await syncFile(fd);
		// What was written, as the file will stat once in place (a rename keeps the inode and its times).
		written = await statFile(fd, {bigint: true});
		const closing = fd;
		fd = undefined;
		await closeFile(closing);
		if (options.exclusive) {
			await linkPath(temp, path);
			await removePath(temp, {force: true});
		} else {
			await renamePath(temp, path);
		}
	} catch (error) {
		if (fd !== undefined) await closeFile(fd).catch(() => {});
		await removePath(temp, {force: true});
		throw error;
	}
	await syncDirectory(dirname(path));
	return written;
}

async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
	for (let done = 0; done < bytes.length; ) {
		const {bytesWritten} = await writeToFile(fd, bytes, done, bytes.length - done);
		done += bytesWritten;
	}
}

/** Makes a rename or create in `directory` durable, where the platform allows it. */
export async function syncDirectory(directory: string): Promise<void> {
	let fd: number | undefined;
	try {
		fd = await openFile(directory, 'r');
		await syncFile(fd);
	} catch (error) {
		if (!unsupportedDirectorySync.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
	} finally {
		if (fd !== undefined) await closeFile(fd);
	}
}
