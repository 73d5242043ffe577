import {mkdir} from 'node:fs/promises';
import {dirname} from 'node:path';
import {UsageError} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {withLock} from '../fs/file-lock.js';
import {MAX_SETTINGS_ENTRIES, readSettingsJson} from './settings-file.js';
import {jsonIndentation} from '../fs/json-indentation.js';

/** The two keys that list single extensions: `packages` and its short form `extensions`. */
export const packageKeys = ['packages', 'extensions'] as const;
export type PackageKey = (typeof packageKeys)[number];

/** One entry of a package list, where it stands. */
export interface PackageEntry {
	key: PackageKey;
	entry: string;
}

/** The entries of both package lists, in file order; none when the file does not exist. A broken file is a UsageError naming it. */
export async function readPackageEntries(path: string): Promise<PackageEntry[]> {
	const read = await readSettingsJson(path);
	if (!read) return [];
	return packageKeys.flatMap(key => (read.known[key] ?? []).map(entry => ({key, entry})));
}

/**
 * Lists the bare package name `name` in `packages`, unless either list has
 * it already (installing again never duplicates). Returns whether it was added.
 */
export async function addPackageName(path: string, name: string): Promise<boolean> {
	let added = false;
	await updateSettings(path, data => {
		if (packageKeys.some(key => listAt(data, key).includes(name))) return false;
		const packages = listAt(data, 'packages');
		// The reader refuses a list past the bound; one more entry would make the file unreadable.
		if (packages.length >= MAX_SETTINGS_ENTRIES) throw new UsageError(`settings ${path}: "packages" holds ${packages.length} entries, the most it may; remove one first`);
		data.packages = [...packages, name];
		added = true;
		return true;
	});
	return added;
}

/** Takes the entries `matches` picks out of both lists; returns what it took. */
export async function removePackageEntries(path: string, matches: (entry: PackageEntry) => boolean): Promise<PackageEntry[]> {
	const removed: PackageEntry[] = [];
	await updateSettings(path, data => {
		for (const key of packageKeys) {
			if (data[key] === undefined) continue;
			const kept = listAt(data, key).filter(entry => {
				const match = matches({key, entry});
				if (match) removed.push({key, entry});
				return !match;
			});
			data[key] = kept;
		}

		return removed.length > 0;
	});
	return removed;
}

/**
 * Read, change, write of one settings file under `<file>.lock`: the file is
 * read again under the lock (another writer's change is kept), checked as
 * the loader checks it (a broken file is refused, never overwritten), and
 * written atomically with every other key as it was, in its own
 * indentation. `change` edits the JSON in place and says whether it did;
 * an unchanged file is not rewritten.
 */
export async function updateSettings(path: string, change: (data: Record<string, unknown>) => boolean): Promise<void> {
	await mkdir(dirname(path), {recursive: true});
	await withLock(`${path}.lock`, async () => {
		const read = await readSettingsJson(path);
		const data = read?.data ?? {};
		if (!change(data)) return;
		// A new or one-line file gets tabs.
		await writeFileAtomic(path, `${JSON.stringify(data, null, jsonIndentation(read?.text, '\t'))}\n`);
	});
}

function listAt(data: Record<string, unknown>, key: PackageKey): string[] {
	// Checked by readSettingsJson: a list of non-empty strings, or absent.
	return (data[key] as string[] | undefined) ?? [];
}
