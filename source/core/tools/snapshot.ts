import {readFile, stat} from 'node:fs/promises';

/**
 * What a file held when a change to it was planned, so the change can be
 * refused if the file moved on while the person was looking at the diff.
 * Content up to `SNAPSHOT_MAX_BYTES` is compared byte for byte; larger files
 * by size and modification time.
 */
export type FileSnapshot = {exists: false} | {exists: true; bytes: Buffer | null; size: number; mtimeMs: number};

export const SNAPSHOT_MAX_BYTES = 10 * 1024 * 1024;

export async function takeSnapshot(file: string, bytes?: Buffer): Promise<FileSnapshot> {
	try {
		const stats = await stat(file);
		const content = bytes ?? (stats.size <= SNAPSHOT_MAX_BYTES ? await readFile(file) : null);
		return {exists: true, bytes: content, size: stats.size, mtimeMs: stats.mtimeMs};
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return {exists: false};
		}

		throw error;
	}
}

export async function snapshotHolds(file: string, snapshot: FileSnapshot): Promise<boolean> {
	const now = await takeSnapshot(file);
	if (!now.exists || !snapshot.exists) {
		return now.exists === snapshot.exists;
	}

	if (snapshot.bytes && now.bytes) {
		return snapshot.bytes.equals(now.bytes);
	}

	return now.size === snapshot.size && now.mtimeMs === snapshot.mtimeMs;
}
