/**
 * The local registry of the files the Files channel uploaded for one
 * workspace: `<data_dir>/workspaces/<id>/provider-files.json`. It is what
 * lets an image be uploaded once and referred to by ID afterwards, and what
 * `i --provider-action list` shows without asking the provider. Each entry
 * holds the file's ID, the SHA-256 of its bytes, its name, size, purpose,
 * account scope, and when it was made and expires: never a key, a header or
 * the image itself. Changed under a lock, written atomically, bounded.
 */
import {join} from 'node:path';
import * as z from 'zod/mini';
import '../../zod-english.js';
import type {PlatformDirs} from '../../config/dirs.js';
import {workspaceStateDir} from '../../config/workspace-registry.js';
import {UsageError} from '../../errors.js';
import {writeFileAtomic} from '../../fs/atomic-write.js';
import {readStateFile, withStateFile} from '../../fs/state-file.js';
import {FILE_ID_PATTERN} from './wire.js';

export const REGISTRY_FILE = 'provider-files.json';

/** At most this many files are remembered; past it a new image goes inline (or an expired entry makes room, with auto_prune). */
export const MAX_REGISTRY_FILES = 4096;

/** Bytes read of the registry at most: 4096 entries of a few hundred bytes each, with room. */
export const MAX_REGISTRY_BYTES = 2 * 1024 * 1024;

/** A file that expires within this long counts as expired: a turn must not refer to one that vanishes while it runs. */
export const EXPIRY_MARGIN_MS = 10 * 60 * 1000;

const isoDate = z.iso.datetime();

export const registryEntrySchema = z.strictObject({
	id: z.string().check(z.regex(FILE_ID_PATTERN)),
	hash: z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/)),
	name: z.string().check(z.minLength(1), z.maxLength(256)),
	size: z.int().check(z.nonnegative()),
	purpose: z.string().check(z.minLength(1), z.maxLength(64)),
	account_scope: z.string().check(z.minLength(1), z.maxLength(512)),
	created: isoDate,
	expires: z.nullable(isoDate),
});

export type RegistryEntry = z.infer<typeof registryEntrySchema>;

const registrySchema = z.strictObject({
	version: z.literal(1),
	files: z.array(registryEntrySchema).check(z.maxLength(MAX_REGISTRY_FILES)),
});

type Registry = z.infer<typeof registrySchema>;

export function registryPath(dirs: PlatformDirs, workspaceId: string): string {
	return join(workspaceStateDir(dirs, workspaceId), REGISTRY_FILE);
}

const words = {
	label: 'provider file registry',
	maxBytes: MAX_REGISTRY_BYTES,
	tooBig: `it lists more than the ${MAX_REGISTRY_FILES} files it may hold; delete files with i --provider-action delete, or move it away`,
	corrupt: 'it lists the files uploaded for this workspace, so it is not reset: fix or move it away (the files stay on the provider: i --provider-action list --remote)',
	error: UsageError,
};

/** An entry is usable until shortly before it expires. */
export function isExpired(entry: RegistryEntry, now: number): boolean {
	return entry.expires !== null && Date.parse(entry.expires) - EXPIRY_MARGIN_MS <= now;
}

export class FileRegistry {
	readonly path: string;

	constructor(path: string) {
		this.path = path;
	}

	/** Every entry, oldest first; none when the file does not exist yet. */
	async entries(): Promise<RegistryEntry[]> {
		return (await this.#read()).files;
	}

	/**
	 * Records an upload, in place of any entry of the same bytes and account.
	 * With `prune`, expired entries go first. Throws when the registry is full
	 * (the caller sends the image inline and says why).
	 */
	async add(entry: RegistryEntry, options: {prune: boolean; now: number}): Promise<void> {
		await this.#change(registry => {
			let files = registry.files.filter(file => !(file.hash === entry.hash && file.account_scope === entry.account_scope));
			if (options.prune) files = files.filter(file => !isExpired(file, options.now));
			if (files.length >= MAX_REGISTRY_FILES) {
				throw new RegistryFullError(
					`the provider file registry ${this.path} holds ${MAX_REGISTRY_FILES} files, its limit; delete files (i --provider-action delete ID, or prune) or allow "auto_prune" in provider.json`,
				);
			}

			files.push(entry);
			return {...registry, files};
		});
	}

	/** Drops the entry of `id`; true when there was one. */
	async remove(id: string): Promise<boolean> {
		let removed = false;
		await this.#change(registry => {
			const files = registry.files.filter(file => file.id !== id);
			removed = files.length !== registry.files.length;
			return {...registry, files};
		});
		return removed;
	}

	/** Drops the entries of expired files (local only: the provider removed the files themselves); returns them. */
	async pruneExpired(now: number): Promise<RegistryEntry[]> {
		let pruned: RegistryEntry[] = [];
		await this.#change(registry => {
			pruned = registry.files.filter(file => isExpired(file, now));
			return {...registry, files: registry.files.filter(file => !isExpired(file, now))};
		});
		return pruned;
	}

	async #read(): Promise<Registry> {
		return (await readStateFile(this.path, registrySchema, words))?.data ?? {version: 1, files: []};
	}

	async #change(update: (registry: Registry) => Registry): Promise<void> {
		await withStateFile(this.path, async () => {
			const next = update(await this.#read());
			await writeFileAtomic(this.path, `${JSON.stringify(next, null, '\t')}\n`, {mode: 0o600});
		});
	}
}

export class RegistryFullError extends Error {
	override name = 'RegistryFullError';
}
