import {readFile, stat} from 'node:fs/promises';
import {formatBytes} from './format.js';

/** Bytes checked for a NUL to call a file binary (as git and grep do). */
export const BINARY_SNIFF_BYTES = 8 * 1024;

export function looksBinary(bytes: Uint8Array): boolean {
	return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export type FileRead = {kind: 'file'; bytes: Buffer; mode: number} | {kind: 'directory'} | {kind: 'special'} | {kind: 'too-large'; size: number};

/** Read a regular file whole unless it is larger than `maxBytes`; missing files throw (see `describeFileError`). */
export async function readFileUpTo(file: string, maxBytes: number): Promise<FileRead> {
	// Stat before opening: opening a FIFO for reading would block until a writer appears.
	const stats = await stat(file);
	if (stats.isDirectory()) {
		return {kind: 'directory'};
	}

	if (!stats.isFile()) {
		return {kind: 'special'};
	}

	if (stats.size > maxBytes) {
		return {kind: 'too-large', size: stats.size};
	}

	const bytes = await readFile(file);
	return bytes.length > maxBytes ? {kind: 'too-large', size: bytes.length} : {kind: 'file', bytes, mode: stats.mode};
}

/** A file-system error in words: `src/a.ts does not exist`. */
export function describeFileError(error: unknown, name: string): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	switch (code) {
		case 'ENOENT': {
			return `${name} does not exist`;
		}

		case 'ENOTDIR': {
			return `${name}: a parent of this path is a file, not a folder`;
		}

		case 'EACCES':
		case 'EPERM': {
			return `${name}: permission denied`;
		}

		case 'EISDIR': {
			return `${name} is a folder`;
		}

		default: {
			return `${name}: ${error instanceof Error ? error.message : String(error)}`;
		}
	}
}

export function describeTooLarge(name: string, size: number, maxBytes: number): string {
	return `${name} is ${formatBytes(size)} (${size} bytes), over the ${formatBytes(maxBytes)} limit`;
}
