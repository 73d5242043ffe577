import {join, resolve} from 'node:path';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';
import {describeIssues} from '../config/describe-issues.js';
import {readConfigFile} from '../fs/read-config-file.js';
import {MAX_PLUGIN_FILE_BYTES} from '../plugins/read-json-file.js';
import {expandVariables} from './expand-variables.js';
import {checkMcpSandbox, type McpSandbox} from './mcp-sandbox.js';

/** A call, and a start, that has not answered in this long fails (docs/mcp.md); per server `timeout` and `startTimeout`, in seconds. */
export const DEFAULT_MCP_TIMEOUT_SECONDS = 60;
/** Upper bound of `timeout`: a tool call that may take an hour should say so in its own protocol, not here. */
export const MAX_MCP_TIMEOUT_SECONDS = 3600;
/** Servers one file may list: every list a person writes by hand has a bound (spec/extensions.md §6, rule 3); 64 is i's own number. */
export const MAX_MCP_SERVERS = 64;
/** Arguments, env entries, headers and alwaysAllow names per server (spec/extensions.md §6, rule 3). */
export const MAX_MCP_LIST_ENTRIES = 256;
/** A server's name becomes part of `mcp__<server>__<tool>` (tool names are at most 64 characters). */
export const MAX_MCP_SERVER_NAME_LENGTH = 32;
const serverNamePattern = /^[A-Za-z0-9_-]+$/;

const list = z.array(z.string()).check(z.maxLength(MAX_MCP_LIST_ENTRIES, `at most ${MAX_MCP_LIST_ENTRIES} entries`));
const stringMap = z.record(z.string(), z.string()).check(z.refine(value => Object.keys(value).length <= MAX_MCP_LIST_ENTRIES, `at most ${MAX_MCP_LIST_ENTRIES} entries`));
const seconds = z.optional(z.number().check(z.positive('must be a positive number of seconds'), z.maximum(MAX_MCP_TIMEOUT_SECONDS, `at most ${MAX_MCP_TIMEOUT_SECONDS} seconds`)));
const common = {
	startTimeout: seconds,
	timeout: seconds,
	alwaysAllow: z.optional(list),
	disabled: z.optional(z.boolean()),
	roots: z.optional(z.boolean()),
};

const stdioSchema = z.strictObject({
	type: z.optional(z.literal('stdio')),
	command: z.string().check(z.minLength(1, 'an empty command')),
	args: z.optional(list),
	env: z.optional(stringMap),
	cwd: z.optional(z.string().check(z.minLength(1, 'an empty folder'))),
	sandbox: z.optional(z.union([z.boolean(), z.strictObject({allowWrite: z.optional(list), allowedDomains: z.optional(list)})])),
	...common,
});

const remoteSchema = z.strictObject({
	type: z.enum(['http', 'sse', 'streamable-http']),
	url: z.string().check(z.minLength(1, 'an empty URL')),
	headers: z.optional(stringMap),
	...common,
});

const serversSchema = z.record(z.string(), z.unknown());

/** Where entries come from, in the order a name is looked up (first found wins). */
export type McpSource = 'project-settings' | 'mcp-json' | 'global-settings';

interface Common {
	/** The name as configured: `mcp__<name>__<tool>` after sanitising. */
	name: string;
	/** The file it came from, for every message about it. */
	file: string;
	source: McpSource;
	/** Per call (tools, prompts, resources), in milliseconds. */
	timeoutMs: number;
	/** For the start (initialize and the first lists), in milliseconds: `npx` may fetch the server first. */
	startTimeoutMs: number;
	alwaysAllow: ReadonlySet<string>;
	/**
	 * Whether the server is offered the workspace as its root (`roots/list`);
	 * `"roots": false` keeps a server's own folders: server-filesystem replaces
	 * the folders of its command line with a client's roots.
	 */
	roots: boolean;
}

export type McpServerConfig =
	| (Common & {
			transport: 'stdio';
			command: string;
			args: string[];
			env: Record<string, string>;
			cwd: string;
			/** `"sandbox"`: the server runs in bubblewrap with these folders writable (docs/mcp.md, "Sandbox"); null: as `i` does. */
			sandbox: McpSandbox | null;
	  })
	| (Common & {transport: 'http' | 'sse'; url: URL; headers: Record<string, string>});

export interface McpConfig {
	/** The servers to start, disabled ones left out. */
	servers: McpServerConfig[];
	/** Names listed with `"disabled": true`, so `/mcp` and `i mcp list` can show them. */
	disabled: Array<{name: string; file: string}>;
	/** Said once at start: names shadowed by an earlier file. */
	warnings: string[];
	/** The project's servers skipped because the workspace is not trusted, and how to trust it; null when none was. */
	untrusted: {servers: ProjectMcpServer[]; fix: string} | null;
}

/** The three files of a workspace, in lookup order. */
export function mcpConfigFiles(workspace: string, configDir: string): Array<{path: string; source: McpSource}> {
	return [
		{path: join(workspace, '.i', 'settings.json'), source: 'project-settings'},
		{path: join(workspace, '.mcp.json'), source: 'mcp-json'},
		{path: join(configDir, 'settings.json'), source: 'global-settings'},
	];
}

export interface ReadMcpOptions {
	workspace: string;
	configDir: string;
	/** Whether the workspace's own code may run: its files' servers are skipped otherwise. */
	trusted: boolean;
	/** A person's remembered "no" (trust.json), for the skipped servers' message: deleting it asks again. */
	refusedIn?: string | undefined;
	/** Where `${VAR}` is looked up; process.env by default. */
	environment?: NodeJS.ProcessEnv;
}

/**
 * The servers of a run: `mcpServers` of the project's `.i/settings.json`,
 * the project's `.mcp.json` and the global `<config_dir>/settings.json`;
 * the first file to name a server wins. The project's two files are code
 * from the project (a server is a program it names), so they count only in
 * a trusted workspace; otherwise one warning says what was skipped. Every
 * field is checked; a bad one is a UsageError naming the file and the server.
 */
export async function readMcpConfig(options: ReadMcpOptions): Promise<McpConfig> {
	return mcpConfigOf(await readMcpFiles(options.workspace, options.configDir), options);
}

/** The three files' `mcpServers` (the project's two with `projectOnly`), read once (undefined: a file without them); a broken file throws, naming it. */
export async function readMcpFiles(workspace: string, configDir: string, options: {projectOnly?: boolean} = {}): Promise<McpFileEntries[]> {
	const files = mcpConfigFiles(workspace, configDir).filter(file => !options.projectOnly || file.source !== 'global-settings');
	// Read side by side, but a broken file is reported in lookup order: with
	// two broken files the message must not depend on which read finished first.
	const settled = await Promise.allSettled(files.map(async file => ({...file, entries: await readServerEntries(file.path)})));
	const failed = settled.find(result => result.status === 'rejected');
	if (failed) throw failed.reason;
	return settled.map(result => (result as PromiseFulfilledResult<McpFileEntries>).value);
}

export interface McpFileEntries {
	path: string;
	source: McpSource;
	entries: Record<string, unknown> | undefined;
}

/** A server the project's own files configure: code from the project, started only in a trusted workspace. */
export interface ProjectMcpServer {
	name: string;
	file: string;
}

/** The servers the project's files (`.i/settings.json`, `.mcp.json`) configure, as read; the global settings' need no trust. */
export function projectMcpServers(read: readonly McpFileEntries[]): ProjectMcpServer[] {
	return read.filter(file => file.source !== 'global-settings').flatMap(file => Object.keys(file.entries ?? {}).map(name => ({name, file: file.path})));
}

/** readMcpConfig of files read already (start-mcp.ts reads them once, for the trust question and for this). */
export function mcpConfigOf(read: readonly McpFileEntries[], options: Omit<ReadMcpOptions, 'configDir'>): McpConfig {
	const environment = options.environment ?? process.env;
	const servers: McpServerConfig[] = [];
	const disabled: McpConfig['disabled'] = [];
	const warnings: string[] = [];
	const seen = new Map<string, string>();
	const skipped: ProjectMcpServer[] = [];
	for (const file of read) {
		if (file.entries === undefined) continue;
		const project = file.source !== 'global-settings';
		if (project && !options.trusted) {
			skipped.push(...Object.keys(file.entries).map(name => ({name, file: file.path})));
			continue;
		}

		for (const [name, value] of Object.entries(file.entries)) {
			const earlier = seen.get(name);
			if (earlier !== undefined) {
				warnings.push(`MCP server "${name}" of ${file.path} is not used: ${earlier} names a server "${name}" first`);
				continue;
			}

			seen.set(name, file.path);
			const server = checkServerEntry(name, value, {file: file.path, source: file.source, workspace: options.workspace, environment});
			if (server === 'disabled') disabled.push({name, file: file.path});
			else servers.push(server);
		}
	}

	const fix = options.refusedIn
		? `it was not trusted when asked; pass --trust-project to start them, or delete ${options.refusedIn} to be asked again`
		: 'pass --trust-project to start them, or answer the trust question of the chat screen (i in this folder)';
	return {servers, disabled, warnings, untrusted: skipped.length > 0 ? {servers: skipped, fix} : null};
}

/** What a run says of the project's servers it skipped for trust. */
export function untrustedWarning(workspace: string, untrusted: NonNullable<McpConfig['untrusted']>): string {
	const byFile = new Map<string, string[]>();
	for (const {name, file} of untrusted.servers) byFile.set(file, [...(byFile.get(file) ?? []), name]);
	const listed = [...byFile].map(([file, names]) => `${names.join(', ')} (${file})`);
	return `the workspace ${workspace} is not trusted, so its MCP servers were not started: ${listed.join('; ')}; ${untrusted.fix} (a server is a program the project names)`;
}

/** The `mcpServers` object of one file, unchecked per entry; undefined when the file or the key is absent. */
export async function readServerEntries(path: string): Promise<Record<string, unknown> | undefined> {
	const label = path.endsWith('.mcp.json') ? `MCP config ${path}` : `settings ${path}`;
	const bytes = await readConfigFile(path, {label, maxBytes: MAX_PLUGIN_FILE_BYTES, tooBig: 'too big (at most 1 MiB)'});
	if (bytes === undefined) return undefined;
	let data: unknown;
	try {
		data = JSON.parse(bytes.toString('utf8'));
	} catch (error) {
		throw new UsageError(`${label}: not valid JSON (${(error as Error).message})`);
	}

	if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${label}: must be a JSON object`);
	const servers = (data as Record<string, unknown>).mcpServers;
	if (servers === undefined) return undefined;
	const parsed = serversSchema.safeParse(servers);
	if (!parsed.success) throw new UsageError(`${label}: "mcpServers" must be an object of servers by name`);
	if (Object.keys(parsed.data).length > MAX_MCP_SERVERS) throw new UsageError(`${label}: "mcpServers" lists ${Object.keys(parsed.data).length} servers, at most ${MAX_MCP_SERVERS}`);
	return parsed.data;
}

interface EntryContext {
	file: string;
	source: McpSource;
	workspace: string;
	environment: NodeJS.ProcessEnv;
}

/** One entry checked and expanded; `disabled` for `"disabled": true`. Throws a UsageError naming the file and the server. */
export function checkServerEntry(name: string, value: unknown, context: EntryContext): McpServerConfig | 'disabled' {
	const where = `${context.file}: MCP server "${name}"`;
	if (!serverNamePattern.test(name) || name.length > MAX_MCP_SERVER_NAME_LENGTH) {
		throw new UsageError(`${where}: a name is 1–${MAX_MCP_SERVER_NAME_LENGTH} ASCII letters, digits, "_" or "-" (it becomes part of the tool names mcp__${name}__…)`);
	}

	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${where}: must be an object ({command, args} or {type: "http", url})`);
	const record = value as Record<string, unknown>;
	const {type} = record;
	if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'sse' && type !== 'streamable-http') {
		throw new UsageError(`${where}: field "type" must be "stdio", "http" or "sse" (got ${JSON.stringify(type)})`);
	}

	const remote = type !== undefined && type !== 'stdio';
	if (remote && 'sandbox' in record) throw new UsageError(`${where}: field "sandbox" is for a server i starts (a "command"); a remote server (a "url") runs no process of i's to sandbox`);
	if (!remote && !('command' in record)) throw new UsageError(`${where}: missing field "command" (a server has a "command", or a "type" of "http" or "sse" and a "url")`);
	const parsed = (remote ? remoteSchema : stdioSchema).safeParse(value);
	if (!parsed.success) throw new UsageError(`${where}: ${describeIssues(parsed.error.issues, value)}`);

	const entry = parsed.data;
	if (entry.disabled === true) return 'disabled';
	const expand = (text: string, field: string) => expandVariables(text, context.environment, `${where}, ${field}`);
	const base = {
		name,
		file: context.file,
		source: context.source,
		timeoutMs: (entry.timeout ?? DEFAULT_MCP_TIMEOUT_SECONDS) * 1000,
		startTimeoutMs: (entry.startTimeout ?? DEFAULT_MCP_TIMEOUT_SECONDS) * 1000,
		alwaysAllow: new Set(entry.alwaysAllow ?? []),
		roots: entry.roots ?? true,
	};
	if ('command' in entry) {
		const env = Object.fromEntries(Object.entries(entry.env ?? {}).map(([key, text]) => [key, expand(text, `env.${key}`)]));
		// A relative cwd is the workspace's, whichever file names it: the server works on the project.
		const cwd = resolve(context.workspace, entry.cwd ?? '.');
		const sandbox = checkMcpSandbox(entry.sandbox, entry.cwd, {where, workspace: context.workspace});
		return {...base, transport: 'stdio', command: entry.command, args: entry.args ?? [], env, cwd, sandbox};
	}

	const text = expand(entry.url, 'url');
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new UsageError(`${where}: "url" is not a URL (${JSON.stringify(text)})`);
	}

	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${where}: "url" must be http:// or https:// (got ${url.protocol})`);
	const headers = Object.fromEntries(Object.entries(entry.headers ?? {}).map(([key, header]) => [key, expand(header, `headers.${key}`)]));
	return {...base, transport: entry.type === 'sse' ? 'sse' : 'http', url, headers};
}
