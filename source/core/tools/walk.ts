import {opendirSync, type Dir, type Dirent} from 'node:fs';
import path from 'node:path';

/** spec/platform.md §9: a walk considers at most 10000 files … */
export const MAX_WALK_FILES = 10_000;
/** … and visits at most 20000 directory entries (every name read from a folder counts). */
export const MAX_WALK_ENTRIES = 20_000;
/** Folders read between two turns of the event loop … */
const YIELD_EVERY_FOLDERS = 32;
/** … or fewer when they take longer than this (large folders, a busy machine): the chat screen's keys wait no longer. */
const YIELD_AFTER_MS = 16;

/** The next entry of a folder, or null at its end or when it cannot be read further. */
function readEntry(folder: Dir): Dirent | null {
	try {
		return folder.readSync();
	} catch {
		return null;
	}
}

/** Dependency, build and tool folders never walked into (hidden names are skipped anyway). */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', 'dist', 'build', 'out', 'target', 'vendor', '__pycache__', '.git', 'coverage', '.next', 'venv']);

export interface WalkedFile {
	absolute: string;
	/** Relative to the walk's root, `/`-separated, for glob matching and display. */
	relative: string;
}

export interface WalkResult {
	/** Sorted by relative path. */
	files: WalkedFile[];
	/** The folders walked into (relative, `/`-separated, the root left out), in the order they were found. */
	directories: string[];
	/** Which limit stopped the walk early, if any. */
	stoppedBy: 'files' | 'entries' | null;
}

/**
 * The regular files under `root`, breadth first so shallow files survive a
 * limit. Hidden names, `SKIPPED_DIRECTORIES` and symlinks are passed over
 * (symlinks are never followed); unreadable folders are passed over too.
 * The skip rules apply below the root only, so asking for a skipped folder
 * by name walks it.
 */
export interface WalkOptions {
	/**
	 * Names to pass over besides the built-in rules (a folder passed over is not walked into): the @ picker's
	 * `.gitignore` rules (gitignore-filter.ts). Asked only for names the built-in rules keep; every name still counts
	 * toward MAX_WALK_ENTRIES, so a filter never makes a walk read more.
	 */
	skip?: (relative: string, isDirectory: boolean) => boolean;
}

export async function walkFiles(root: string, signal: AbortSignal, options: WalkOptions = {}): Promise<WalkResult> {
	const files: WalkedFile[] = [];
	const directories: string[] = [];
	const skip = options.skip ?? (() => false);
	const queue: Array<{absolute: string; relative: string}> = [{absolute: root, relative: ''}];
	let entries = 0;
	let stoppedBy: WalkResult['stoppedBy'] = null;

	let folders = 0;
	let yielded = performance.now();
	for (let next = queue.shift(); next && !stoppedBy; next = queue.shift()) {
		signal.throwIfAborted();
		// Folders are read synchronously (an entry at a time, so a huge one stops at the limit without being
		// listed whole); every few folders the event loop runs, so a screen stays live and an abort lands.
		if (++folders % YIELD_EVERY_FOLDERS === 0 || performance.now() - yielded > YIELD_AFTER_MS) {
			await new Promise(resolve => setImmediate(resolve));
			yielded = performance.now();
		}

		let folder: Dir;
		try {
			folder = opendirSync(next.absolute);
		} catch {
			continue;
		}

		try {
			walkFolder(folder, next);
		} finally {
			folder.closeSync();
		}
	}

	function walkFolder(folder: Dir, next: {absolute: string; relative: string}): void {
		for (let entry = readEntry(folder); entry !== null; entry = readEntry(folder)) {
			if (++entries > MAX_WALK_ENTRIES) {
				stoppedBy = 'entries';
				break;
			}

			if (entry.name.startsWith('.') || entry.isSymbolicLink()) {
				continue;
			}

			const absolute = path.join(next.absolute, entry.name);
			const relative = next.relative === '' ? entry.name : `${next.relative}/${entry.name}`;
			if (entry.isDirectory()) {
				if (!SKIPPED_DIRECTORIES.has(entry.name) && !skip(relative, true)) {
					queue.push({absolute, relative});
					directories.push(relative);
				}
			} else if (entry.isFile() && !skip(relative, false)) {
				if (files.length === MAX_WALK_FILES) {
					stoppedBy = 'files';
					break;
				}

				files.push({absolute, relative});
			}
		}
	}

	files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
	return {files, directories, stoppedBy};
}

/** The sentence a tool adds when a walk stopped early, or null. */
export function describeWalkLimit(stoppedBy: WalkResult['stoppedBy']): string | null {
	switch (stoppedBy) {
		case 'files': {
			return `stopped after ${MAX_WALK_FILES} files (limit); narrow the path or glob`;
		}

		case 'entries': {
			return `stopped after ${MAX_WALK_ENTRIES} folder entries (limit); narrow the path or glob`;
		}

		default: {
			return null;
		}
	}
}
