import {statSync} from 'node:fs';
import {mkdir} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {withLock} from '../fs/file-lock.js';
import {readRegularFileSync} from '../fs/read-config-file.js';
import {describeIssues} from '../config/describe-issues.js';
import '../zod-english.js';

/** `<config_dir>/auth.json` (spec/extensions.md §11). */
export const AUTH_FILE_NAME = 'auth.json';
/** Like the model config (load-config.ts, MAX_CONFIG_BYTES): a file of a few keys; anything bigger is a mistake. */
export const MAX_AUTH_FILE_BYTES = 1024 * 1024;
/** The file holds secrets: its owner alone reads and writes it. */
export const AUTH_FILE_MODE = 0o600;
/** The folder login creates when there is none yet. */
export const AUTH_DIR_MODE = 0o700;
/** Group and other bits: any of them on a file of keys is refused (as ssh refuses a private key others can read). */
const SHARED_BITS = 0o077;
/** Group and other write on the file's folder: others could replace or remove the file (ssh's StrictModes). */
const FOLDER_WRITE_BITS = 0o022;
/** The sticky bit: in such a folder only a file's owner may rename or remove it, so others' write access cannot touch the file. */
const STICKY_BIT = 0o1000;

/**
 * A file of secrets (keys, tokens) others can read or change is not used,
 * nor one in a folder others can write to (group- or world-writable
 * without the sticky bit); the error says how to fix the mode. Not on
 * Windows, which has no such bits.
 */
export function refuseShared(label: string, path: string, mode: number, holds: string): void {
	if (process.platform === 'win32') return;
	if ((mode & SHARED_BITS) !== 0) {
		const shown = (mode & 0o777).toString(8).padStart(4, '0');
		throw new UsageError(`${label} can be read or changed by other users (mode ${shown}); it holds ${holds}, so it is not used: run chmod 600 ${path}`);
	}

	refuseSharedFolder(label, dirname(path), holds);
}

/** The folder a file of secrets is in (or is about to be written to): refused when others can write to it (refuseShared). A folder that does not exist yet passes: it is created 0700. */
export function refuseSharedFolder(label: string, folder: string, holds: string): void {
	if (process.platform === 'win32') return;
	let mode: number;
	try {
		mode = statSync(folder).mode;
	} catch {
		return;
	}

	if ((mode & FOLDER_WRITE_BITS) === 0 || (mode & STICKY_BIT) !== 0) return;
	const shown = (mode & 0o7777).toString(8).padStart(4, '0');
	throw new UsageError(`${label}: its folder ${folder} can be written by other users (mode ${shown}), who could replace or remove the file; it holds ${holds}, so it is not used: run chmod go-w ${folder}`);
}

// Loose objects: pi's OAuth entries carry fields of their own (an enterprise URL, a project id); they are kept as written.
const apiKeyEntrySchema = z.looseObject({type: z.literal('api_key'), key: z.string()});
const oauthEntrySchema = z.looseObject({
	type: z.literal('oauth'),
	access: z.string(),
	refresh: z.optional(z.string()),
	/** Milliseconds since the epoch, as pi writes it. */
	expires: z.number().check(z.refine(Number.isFinite, 'must be a time in milliseconds since 1970')),
});

/** One provider's stored credential (pi's auth.json shape). */
export type StoredCredential = {type: 'api_key'; key: string} | {type: 'oauth'; access: string; refresh?: string | undefined; expires: number};

/** What the resolver needs of the store: where it is, and its entries. */
export interface CredentialStore {
	readonly path: string;
	/** The checked entries by provider id; none when the file does not exist. A broken or shared file is a UsageError naming it. */
	read(): ReadonlyMap<string, StoredCredential>;
}

/**
 * `auth.json`: read synchronously (set-up reads it with the model config,
 * before anything else starts), changed only under a lock and written
 * atomically with mode 0600, so a crash or a second `i auth login` never
 * leaves half a file or loses another provider's entry. A file that is not
 * valid is never written over: the person fixes or removes it.
 */
export class AuthFile implements CredentialStore {
	readonly path: string;

	constructor(path: string) {
		this.path = path;
	}

	/** The file in `configDir`. */
	static in(configDir: string): AuthFile {
		return new AuthFile(join(configDir, AUTH_FILE_NAME));
	}

	read(): ReadonlyMap<string, StoredCredential> {
		return checkEntries(this.#readRaw(), this.path);
	}

	/** Stores `credential` for `provider`, replacing its entry; resolves with the entry it replaced. */
	async store(provider: string, credential: StoredCredential): Promise<StoredCredential | undefined> {
		return this.#change(provider, () => credential);
	}

	/** Removes `provider`'s entry; resolves with it, or undefined when there was none (nothing is written then). */
	async remove(provider: string): Promise<StoredCredential | undefined> {
		return this.#change(provider, () => undefined);
	}

	/** Whether a key may be written here: the folder is refused as refuseShared says; a broken or shared file as `read` says. Login asks it before the key is typed. */
	checkWritable(): void {
		refuseSharedFolder(`auth file ${this.path}`, dirname(this.path), 'keys');
		this.read();
	}

	/**
	 * Runs `decide` under the file's lock with `provider`'s entry as it is
	 * now; the entry it resolves with is written, `undefined` writes nothing.
	 * A token refresh runs here, so a second process waits for the first and
	 * then finds its new tokens instead of spending the refresh token again.
	 * `waitMs`: how long to wait for another holder (a refresh holds the
	 * lock while it asks the token endpoint).
	 */
	async update(provider: string, decide: (current: StoredCredential | undefined) => Promise<StoredCredential | undefined>, waitMs?: number): Promise<StoredCredential | undefined> {
		return this.#locked(
			async (raw, previous) => {
				const replacement = await decide(previous);
				if (replacement === undefined) return previous;
				await this.#write(raw, provider, replacement);
				return replacement;
			},
			provider,
			waitMs,
		);
	}

	async #change(provider: string, next: () => StoredCredential | undefined): Promise<StoredCredential | undefined> {
		return this.#locked(async (raw, previous) => {
			const replacement = next();
			if (replacement === undefined && previous === undefined) return undefined;
			await this.#write(raw, provider, replacement);
			return previous;
		}, provider);
	}

	async #locked<T>(body: (raw: Record<string, unknown>, previous: StoredCredential | undefined) => Promise<T>, provider: string, waitMs?: number): Promise<T> {
		await mkdir(dirname(this.path), {recursive: true, mode: AUTH_DIR_MODE});
		refuseSharedFolder(`auth file ${this.path}`, dirname(this.path), 'keys');
		return withLock(
			`${this.path}.lock`,
			async () => {
				// Read again under the lock: another login may have written since this process last looked.
				const raw = this.#readRaw();
				return body(raw, checkEntries(raw, this.path).get(provider));
			},
			waitMs === undefined ? {} : {waitMs},
		);
	}

	/** Every other entry is written back exactly as it was read, fields this version does not know included. */
	async #write(raw: Record<string, unknown>, provider: string, replacement: StoredCredential | undefined): Promise<void> {
		const entries: Record<string, unknown> = {...raw};
		if (replacement === undefined) delete entries[provider];
		else entries[provider] = replacement;
		await writeFileAtomic(this.path, `${JSON.stringify(entries, null, '\t')}\n`, {mode: AUTH_FILE_MODE});
	}

	/** The file's top-level object, or an empty one when there is no file. */
	#readRaw(): Record<string, unknown> {
		const label = `auth file ${this.path}`;
		const file = readRegularFileSync(this.path, {label, maxBytes: MAX_AUTH_FILE_BYTES, tooBig: 'too big for a file of keys'});
		if (file === undefined) return {};
		refuseShared(label, this.path, file.stats.mode, 'keys');

		let json: unknown;
		try {
			json = JSON.parse(file.bytes.toString('utf8'));
		} catch (error) {
			throw new UsageError(`${label}: not valid JSON (${(error as Error).message}); fix or remove it (i never writes over a broken file)`);
		}

		if (json === null || typeof json !== 'object' || Array.isArray(json)) {
			throw new UsageError(`${label}: must be an object of provider ids, each {"type": "api_key", "key": …} or {"type": "oauth", "access": …, "expires": …}`);
		}

		return json as Record<string, unknown>;
	}
}

const entrySchema = z.discriminatedUnion('type', [apiKeyEntrySchema, oauthEntrySchema]);

/** Every entry checked: one that is not a credential makes the whole file a configuration error naming the entry and the field. */
function checkEntries(raw: Record<string, unknown>, path: string): ReadonlyMap<string, StoredCredential> {
	const entries = new Map<string, StoredCredential>();
	for (const [provider, value] of Object.entries(raw)) {
		const type = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).type : undefined;
		if (type !== 'api_key' && type !== 'oauth') {
			throw new UsageError(`auth file ${path}: entry ${JSON.stringify(provider)}: field "type" must be "api_key" or "oauth"; fix or remove the entry (i never writes over a broken file)`);
		}

		const parsed = entrySchema.safeParse(value);
		if (!parsed.success) {
			throw new UsageError(`auth file ${path}: entry ${JSON.stringify(provider)}: ${describeIssues(parsed.error.issues, value)}; fix or remove the entry (i never writes over a broken file)`);
		}

		const entry = parsed.data;
		entries.set(provider, entry.type === 'api_key' ? {type: 'api_key', key: entry.key} : {type: 'oauth', access: entry.access, refresh: entry.refresh, expires: entry.expires});
	}

	return entries;
}
