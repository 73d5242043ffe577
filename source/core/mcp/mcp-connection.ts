import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {basename} from 'node:path';
import {pathToFileURL} from 'node:url';
import {
	ErrorCode,
	ListRootsRequestSchema,
	McpError,
	type CallToolResult,
	type GetPromptResult,
	type Prompt,
	type ReadResourceResult,
	type Resource,
	type Tool as SdkTool,
} from '@modelcontextprotocol/sdk/types.js';
import {errorMessage} from '../errors.js';
import {ToolRunError, type ToolResult} from '../tools/types.js';
import type {McpServerConfig} from './mcp-config.js';
import {mapToolResult} from './mcp-result.js';
import {sandboxedCommand} from './mcp-sandbox.js';
import {GroupStdioTransport} from './stdio-transport.js';

/** Pages of a list (tools, prompts, resources) read from one server: a server that pages for ever is cut here. */
export const MAX_MCP_LIST_PAGES = 20;

/** `needs login`: a remote server asked for an OAuth login that has not happened (or whose refresh was refused); `i mcp login NAME`. */
export type McpState = 'starting' | 'ready' | 'failed' | 'needs login' | 'stopped';

export interface McpConnectionOptions {
	config: McpServerConfig;
	/** The stdio server's whole environment besides its entry's `env` (workerEnvironment, spec/platform.md §2). */
	baseEnvironment: Record<string, string>;
	clientVersion: string;
	/** The workspace folder: the one root the client offers (`roots/list`), so a filesystem-style server knows where to work. */
	workspace: string;
	/** Where mcp-auth.json is (a remote server's OAuth tokens). */
	configDir: string;
	/** The server's tools, prompts or resources changed (a list_changed refresh, a start, a failure). */
	onChange(): void;
	/** A failure worth saying once: the start failed, or the server died. */
	report(message: string): void;
}

/**
 * One configured server: its SDK client over its transport, its state and
 * its last error, the lists it offers, and calls with a timeout and the
 * turn's cancel. A server that fails to start or dies is reported once and
 * offers nothing until `/mcp reconnect`.
 */
export class McpConnection {
	readonly config: McpServerConfig;
	readonly #options: McpConnectionOptions;
	#state: McpState = 'stopped';
	#lastError: string | undefined;
	#client: Client | undefined;
	#transport: Transport | undefined;
	#tools: SdkTool[] = [];
	#prompts: Prompt[] = [];
	#resources: Resource[] = [];
	/** Each start is a generation: what an old client reports after a reconnect is ignored. */
	#generation = 0;
	#starting: Promise<void> | undefined;
	/** Whether an error is the server asking for a login (mcp-oauth-provider.ts, loaded with a remote transport only). */
	#isLoginError: ((error: unknown) => boolean) | undefined;
	/** The transport that carried the last connection: an "http" entry's server may have turned out to speak legacy SSE only. */
	#transportInUse: 'stdio' | 'http' | 'sse';

	constructor(options: McpConnectionOptions) {
		this.config = options.config;
		this.#options = options;
		this.#transportInUse = options.config.transport;
	}

	get transport(): 'stdio' | 'http' | 'sse' {
		return this.#transportInUse;
	}

	get name(): string {
		return this.config.name;
	}

	get state(): McpState {
		return this.#state;
	}

	get lastError(): string | undefined {
		return this.#lastError;
	}

	get tools(): readonly SdkTool[] {
		return this.#state === 'ready' ? this.#tools : [];
	}

	get prompts(): readonly Prompt[] {
		return this.#state === 'ready' ? this.#prompts : [];
	}

	get resources(): readonly Resource[] {
		return this.#state === 'ready' ? this.#resources : [];
	}

	/** Where it runs, for `/mcp`: the command line or the URL (never a header). */
	get describe(): string {
		const {config} = this;
		if (config.transport === 'stdio') return `${[config.command, ...config.args].join(' ')} (${config.sandbox ? 'sandboxed; ' : ''}${config.file})`;
		return `${config.url.origin}${config.url.pathname} (${config.file})`;
	}

	/** Settles once the server is ready or has failed; never rejects. */
	async start(): Promise<void> {
		this.#starting ??= this.#start();
		return this.#starting;
	}

	/** Stops the server (its whole process group) and starts it again. */
	async reconnect(): Promise<void> {
		await this.close();
		this.#lastError = undefined;
		return this.start();
	}

	async close(): Promise<void> {
		this.#generation++;
		this.#starting = undefined;
		const transport = this.#transport;
		this.#transport = undefined;
		this.#client = undefined;
		if (this.#state !== 'failed' && this.#state !== 'needs login') this.#state = 'stopped';
		await transport?.close().catch(() => {});
	}

	async #start(): Promise<void> {
		const generation = ++this.#generation;
		this.#state = 'starting';
		this.#options.onChange();
		const current = () => generation === this.#generation;
		let transport: Transport;
		try {
			transport = await this.#openTransport();
		} catch (error) {
			// No transport (a sandbox that cannot start, say): the server is not started at all, and never unsandboxed.
			if (current()) this.#fail(`could not start: ${errorMessage(error)}`);
			return;
		}

		// Closed while the transport was being made: nothing was started yet.
		if (!current()) return;
		const client = new Client(
			{name: 'i', version: this.#options.clientVersion},
			{
				// Roots: the workspace, which does not change during a session (so no listChanged); not for a server whose entry says "roots": false.
				capabilities: this.config.roots ? {roots: {}} : {},
				// The SDK refreshes a list on its list_changed notification; the turn reads the lists at each request, so a change lands between requests.
				listChanged: {
					tools: {onChanged: (error, tools) => current() && this.#listed('tools', error, () => (this.#tools = tools ?? []))},
					prompts: {onChanged: (error, prompts) => current() && this.#listed('prompts', error, () => (this.#prompts = prompts ?? []))},
					resources: {onChanged: (error, resources) => current() && this.#listed('resources', error, () => (this.#resources = resources ?? []))},
				},
			},
		);
		const workspace = this.#options.workspace;
		if (this.config.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({roots: [{uri: pathToFileURL(workspace).href, name: basename(workspace)}]}));
		this.#transport = transport;
		this.#client = client;
		client.onclose = () => {
			if (current() && this.#state === 'ready') this.#fail(`stopped: ${this.#ended()}`);
		};

		try {
			await client.connect(transport, {timeout: this.config.startTimeoutMs});
			const capabilities = client.getServerCapabilities() ?? {};
			const [tools, prompts, resources] = await Promise.all([
				capabilities.tools
					? this.#list(
							async cursor => client.listTools(cursor === undefined ? {} : {cursor}, {timeout: this.config.startTimeoutMs}),
							result => result.tools,
						)
					: [],
				capabilities.prompts
					? this.#list(
							async cursor => client.listPrompts(cursor === undefined ? {} : {cursor}, {timeout: this.config.startTimeoutMs}),
							result => result.prompts,
						)
					: [],
				capabilities.resources
					? this.#list(
							async cursor => client.listResources(cursor === undefined ? {} : {cursor}, {timeout: this.config.startTimeoutMs}),
							result => result.resources,
						)
					: [],
			]);
			if (!current()) return;
			this.#transportInUse = (transport as {legacy?: boolean}).legacy === true ? 'sse' : this.config.transport;
			this.#tools = tools;
			this.#prompts = prompts;
			this.#resources = resources;
			this.#state = 'ready';
			this.#lastError = undefined;
			this.#options.onChange();
		} catch (error) {
			if (!current()) return;
			if (this.#isLoginError?.(error)) {
				this.#needsLogin();
				return;
			}

			const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
			this.#fail(timedOut ? `did not answer within ${this.config.startTimeoutMs / 1000} s (initialize; the server's "startTimeout")` : `could not start: ${this.#describeError(error)}`);
		}
	}

	async #openTransport(): Promise<Transport> {
		const {config} = this;
		if (config.transport === 'stdio') {
			const env = {...this.#options.baseEnvironment, ...config.env};
			if (config.sandbox === null) return new GroupStdioTransport({command: config.command, args: config.args, cwd: config.cwd, env});
			const wrapped = await sandboxedCommand({...config, sandbox: config.sandbox}, this.#options.configDir);
			return new GroupStdioTransport({...wrapped, cwd: config.cwd, env});
		}

		const remote = await import('./remote-transport.js');
		// An entry with a credential of its own is not logged in with OAuth: a 401 then means that credential is wrong.
		if (remote.hasAuthorizationHeader(config.headers)) return remote.openRemoteTransport(config);
		const {McpOAuthProvider, isLoginError} = await import('./mcp-oauth-provider.js');
		const {McpAuthFile} = await import('./mcp-auth-file.js');
		this.#isLoginError = isLoginError;
		return remote.openRemoteTransport(config, new McpOAuthProvider({server: this.name, url: config.url, file: McpAuthFile.in(this.#options.configDir), version: this.#options.clientVersion}));
	}

	async #list<R extends {nextCursor?: string | undefined}, T>(page: (cursor: string | undefined) => Promise<R>, items: (result: R) => T[]): Promise<T[]> {
		const all: T[] = [];
		let cursor: string | undefined;
		for (let pages = 0; pages < MAX_MCP_LIST_PAGES; pages++) {
			const result = await page(cursor);
			all.push(...items(result));
			cursor = result.nextCursor;
			if (cursor === undefined) break;
		}

		return all;
	}

	#listed(kind: string, error: Error | null, take: () => void): void {
		if (error) {
			this.#lastError = `refreshing its ${kind} failed: ${error.message}`;
			return;
		}

		take();
		this.#options.onChange();
	}

	/** Reported once per failure; its tools disappear; the session goes on. */
	#fail(reason: string): void {
		this.#state = 'failed';
		this.#lastError = reason;
		const transport = this.#transport;
		this.#transport = undefined;
		this.#client = undefined;
		void transport?.close().catch(() => {});
		this.#options.report(`MCP server ${this.name} ${reason}; its tools are not offered (/mcp reconnect ${this.name} to try again)`);
		this.#options.onChange();
	}

	/** The server wants a login: said once, with the command; its tools disappear; the session goes on. */
	#needsLogin(): void {
		const first = this.#state !== 'needs login';
		this.#state = 'needs login';
		this.#lastError = `needs login: run i mcp login ${this.name} (or /mcp login ${this.name} in the chat screen)`;
		const transport = this.#transport;
		this.#transport = undefined;
		this.#client = undefined;
		void transport?.close().catch(() => {});
		if (first) this.#options.report(`MCP server ${this.name} needs login: run i mcp login ${this.name} (or /mcp login ${this.name} in the chat screen); its tools are not offered until then`);
		this.#options.onChange();
	}

	/** How the process ended and the end of its stderr, for a stdio server. */
	#ended(): string {
		const transport = this.#transport;
		if (transport instanceof GroupStdioTransport) return `the server ${transport.exit ?? 'closed its output'}${transport.stderr.describe()}`;
		return 'the connection closed';
	}

	#describeError(error: unknown): string {
		let message = error instanceof Error ? error.message : String(error);
		// The SDK's HTTP errors carry the status as their code.
		const status = (error as {code?: unknown}).code;
		if (!(error instanceof McpError) && typeof status === 'number' && status >= 400 && status < 600) {
			message = `HTTP ${status}: ${message}`;
			const header = this.config.transport !== 'stdio' && Object.keys(this.config.headers).some(name => name.toLowerCase() === 'authorization');
			if ((status === 401 || status === 403) && header) message += ' (the server refused the credential of the entry\'s "Authorization" header)';
		}

		const transport = this.#transport;
		if (transport instanceof GroupStdioTransport) {
			const exit = transport.exit === undefined ? '' : `; the server ${transport.exit}`;
			return `${message}${exit}${transport.stderr.describe()}`;
		}

		return message;
	}

	#readyClient(what: string): Client {
		if (this.#state !== 'ready' || !this.#client)
			throw new ToolRunError(`MCP server ${this.name} is not running (${this.#lastError ?? this.#state}), so ${what} cannot be done; /mcp reconnect ${this.name} starts it again`);
		return this.#client;
	}

	/** One `tools/call`, with the server's timeout and the turn's signal (the SDK sends notifications/cancelled on abort). */
	async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
		const client = this.#readyClient(`the call of ${name}`);
		const transport = this.#transport;
		let result: CallToolResult;
		// The SDK never removes the abort listener it adds to a request's signal: each call gets a signal of its own, linked to the turn's, so a long turn's signal does not collect one per call.
		const call = linkedSignal(signal);
		try {
			result = (await client.callTool({name, arguments: args}, undefined, {signal: call.signal, timeout: this.config.timeoutMs})) as CallToolResult;
		} catch (error) {
			if (signal.aborted) throw signal.reason;
			if (this.#isLoginError?.(error)) {
				this.#needsLogin();
				throw new ToolRunError(`MCP server ${this.name} ${this.#lastError}`);
			}

			if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
				throw new ToolRunError(`MCP server ${this.name}: ${name} did not answer within ${this.config.timeoutMs / 1000} s (the server's "timeout")`);
			if (transport instanceof GroupStdioTransport && transport.exit !== undefined)
				throw new ToolRunError(`MCP server ${this.name} stopped during the call of ${name}: the server ${transport.exit}${transport.stderr.describe()}`);
			throw new ToolRunError(`MCP server ${this.name}: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
		} finally {
			call.unlink();
		}

		return mapToolResult(result);
	}

	async getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
		const call = linkedSignal(signal);
		try {
			return await this.#readyClient(`the prompt ${name}`).getPrompt({name, arguments: args}, {timeout: this.config.timeoutMs, signal: call.signal});
		} finally {
			call.unlink();
		}
	}

	async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
		const call = linkedSignal(signal);
		try {
			return await this.#readyClient(`reading ${uri}`).readResource({uri}, {timeout: this.config.timeoutMs, signal: call.signal});
		} finally {
			call.unlink();
		}
	}
}

/** A signal that aborts with `parent` (when given) until `unlink`, which takes its listener off `parent` again. */
function linkedSignal(parent: AbortSignal | undefined): {signal: AbortSignal; unlink(): void} {
	const controller = new AbortController();
	if (!parent) return {signal: controller.signal, unlink() {}};
	if (parent.aborted) controller.abort(parent.reason);
	const forward = () => controller.abort(parent.reason);
	parent.addEventListener('abort', forward, {once: true});
	return {signal: controller.signal, unlink: () => parent.removeEventListener('abort', forward)};
}
