import {chmod, stat} from 'node:fs/promises';
import {writeFileAtomic} from '../fs/atomic-write.js';
import type {TempJournal} from '../fs/write-journal.js';

/**
 * Write a file atomically (the shared temp-fsync-rename writer), keeping an
 * existing file's permission bits. The temp file is created with those bits
 * but the umask may clear some, so they are set again after the rename; the
 * umask only ever removes bits, so the brief gap is never more permissive.
 * `journal` notes the temp file while it exists (write-journal.ts).
 */
export async function replaceFile(file: string, data: string | Uint8Array, journal?: TempJournal): Promise<void> {
	const mode = await existingMode(file);
	await writeFileAtomic(file, data, {...(mode === undefined ? {} : {mode}), journal});
	if (mode !== undefined && ((await stat(file)).mode & 0o7777) !== mode) {
		await chmod(file, mode);
	}
}

async function existingMode(file: string): Promise<number | undefined> {
	try {
		return (await stat(file)).mode & 0o7777;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return undefined;
		}

		throw error;
	}
}
