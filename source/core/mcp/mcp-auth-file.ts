import {mkdir} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import * as z from 'zod/mini';
import {AUTH_DIR_MODE, AUTH_FILE_MODE, MAX_AUTH_FILE_BYTES, refuseShared, refuseSharedFolder} from '../auth/auth-file.js';
import {describeIssues} from '../config/describe-issues.js';
import {UsageError} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {withLock} from '../fs/file-lock.js';
import {readRegularFile} from '../fs/read-config-file.js';
import '../zod-english.js';

/** `<config_dir>/mcp-auth.json`: the MCP servers' OAuth state, kept apart from the model providers' auth.json. */
export const MCP_AUTH_FILE_NAME = 'mcp-auth.json';
/** The file's layout; a later layout gets a new number. */
const FILE_VERSION = 1;

// Loose: what the authorization server sent (scope, expires_in, issuer …) is kept as it came, for the SDK to read back unchanged.
const tokensSchema = z.looseObject({access_token: z.string(), token_type: z.string(), refresh_token: z.optional(z.string())});
const clientSchema = z.looseObject({client_id: z.string(), redirect_uris: z.optional(z.array(z.string()))});
const entrySchema = z.strictObject({
	/** The server's URL when this was stored: a token is only ever sent to the URL it was obtained for. */
	url: z.string(),
	client: z.optional(clientSchema),
	tokens: z.optional(tokensSchema),
	codeVerifier: z.optional(z.string()),
	/** When the tokens were stored (ms since 1970), for `i mcp list`'s "logged in since". */
	savedAt: z.optional(z.number()),
});
const fileSchema = z.strictObject({version: z.literal(FILE_VERSION), servers: z.record(z.string(), z.unknown())});

/** One server's stored OAuth state. */
export type McpAuthEntry = z.infer<typeof entrySchema>;

/**
 * `mcp-auth.json`: entries by server name, each bound to the URL it was
 * obtained for (a server whose URL changed reads as not logged in, so its
 * token never goes to a new host). Changed only under a lock and written
 * atomically with mode 0600, like auth.json; every entry is checked on
 * read, and a broken file is a UsageError naming it, never written over.
 */
export class McpAuthFile {
	readonly path: string;

	constructor(path: string) {
		this.path = path;
	}

	static in(configDir: string): McpAuthFile {
		return new McpAuthFile(join(configDir, MCP_AUTH_FILE_NAME));
	}

	/** The entry of `name`, when it was stored for `url`; undefined otherwise. */
	async read(name: string, url: URL): Promise<McpAuthEntry | undefined> {
		const entry = checkEntry(name, (await this.#readRaw()).servers[name], this.path);
		return entry?.url === url.href ? entry : undefined;
	}

	/**
	 * Changes the entry of `name` for `url` under the lock: `change` gets the
	 * current one (undefined when absent or stored for another URL) and
	 * returns the next (undefined removes it). Resolves with whether anything
	 * was there before.
	 */
	async update(name: string, url: URL, change: (entry: McpAuthEntry | undefined) => McpAuthEntry | undefined): Promise<boolean> {
		await mkdir(dirname(this.path), {recursive: true, mode: AUTH_DIR_MODE});
		refuseSharedFolder(`MCP auth file ${this.path}`, dirname(this.path), 'tokens');
		return withLock(`${this.path}.lock`, async () => {
			// Read again under the lock: another process (a login in another terminal) may have written since.
			const raw = await this.#readRaw();
			const stored = checkEntry(name, raw.servers[name], this.path);
			const current = stored?.url === url.href ? stored : undefined;
			const next = change(current);
			if (next === undefined && stored === undefined) return false;
			// The other servers' entries are written back exactly as they were read.
			const servers = {...raw.servers};
			if (next === undefined) delete servers[name];
			else servers[name] = {...next, url: url.href};
			await writeFileAtomic(this.path, `${JSON.stringify({version: FILE_VERSION, servers}, null, '\t')}\n`, {mode: AUTH_FILE_MODE});
			return stored !== undefined;
		});
	}

	/** Forgets everything stored for `name`, whatever URL it was for; resolves with whether there was anything. */
	async remove(name: string): Promise<boolean> {
		await mkdir(dirname(this.path), {recursive: true, mode: AUTH_DIR_MODE});
		refuseSharedFolder(`MCP auth file ${this.path}`, dirname(this.path), 'tokens');
		return withLock(`${this.path}.lock`, async () => {
			const raw = await this.#readRaw();
			if (!Object.hasOwn(raw.servers, name)) return false;
			const servers = {...raw.servers};
			delete servers[name];
			await writeFileAtomic(this.path, `${JSON.stringify({version: FILE_VERSION, servers}, null, '\t')}\n`, {mode: AUTH_FILE_MODE});
			return true;
		});
	}

	async #readRaw(): Promise<{version: number; servers: Record<string, unknown>}> {
		const label = `MCP auth file ${this.path}`;
		const file = await readRegularFile(this.path, {label, maxBytes: MAX_AUTH_FILE_BYTES, tooBig: 'too big for a file of tokens'});
		if (file === undefined) return {version: FILE_VERSION, servers: {}};
		refuseShared(label, this.path, file.stats.mode, 'tokens');

		let json: unknown;
		try {
			json = JSON.parse(file.bytes.toString('utf8'));
		} catch (error) {
			throw new UsageError(`${label}: not valid JSON (${(error as Error).message}); fix or remove it (i never writes over a broken file; i mcp login NAME then starts again)`);
		}

		const parsed = fileSchema.safeParse(json);
		if (!parsed.success) throw new UsageError(`${label}: ${describeIssues(parsed.error.issues, json)}; fix or remove it (i never writes over a broken file)`);
		return parsed.data;
	}
}

function checkEntry(name: string, value: unknown, path: string): McpAuthEntry | undefined {
	if (value === undefined) return undefined;
	const parsed = entrySchema.safeParse(value);
	// describeIssues names fields and kinds, never the values, so no token reaches the message.
	if (!parsed.success) throw new UsageError(`MCP auth file ${path}: server ${JSON.stringify(name)}: ${describeIssues(parsed.error.issues, value)}; fix or remove the entry (i never writes over a broken file)`);
	return parsed.data;
}
