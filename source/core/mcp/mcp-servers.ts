import type {PlatformDirs} from '../config/dirs.js';
import {workerEnvironment} from '../pool/worker-environment.js';
import type {Tool} from '../tools/types.js';
import type {McpConfig} from './mcp-config.js';
import {McpConnection, type McpState} from './mcp-connection.js';
import {createMcpTool} from './mcp-tool.js';
import {mcpToolName} from './mcp-tool-name.js';

/** What `/mcp` and `i mcp list` show of one server. */
export interface McpServerStatus {
	name: string;
	state: McpState | 'disabled';
	transport: 'stdio' | 'http' | 'sse' | null;
	file: string;
	describe: string;
	tools: string[];
	prompts: string[];
	resources: number;
	lastError: string | undefined;
}

/** A server prompt as a slash command `/mcp__<server>__<prompt>`. */
export interface McpPromptCommand {
	command: string;
	server: string;
	prompt: string;
	description: string;
	arguments: ReadonlyArray<{name: string; description?: string | undefined; required?: boolean | undefined}>;
}

export interface McpServersOptions {
	config: McpConfig;
	/** The workspace folder, offered to the servers as their root (`roots/list`). */
	workspace: string;
	dirs: PlatformDirs;
	clientVersion: string;
	/** Tool names taken by native, worker and extension tools: an MCP tool with one of them is refused. */
	takenToolNames: ReadonlyMap<string, string>;
	report(message: string): void;
	/** The environment `workerEnvironment` reads; process.env by default. */
	environment?: NodeJS.ProcessEnv;
}

/**
 * The run's MCP servers. They start concurrently in the background (start
 * never waits for them); `tools()` is what is ready now, read by the turn
 * once per model request, so a list that changes (a server became ready,
 * a list_changed refresh, a server died) changes between requests, never
 * within one.
 */
export class McpServers {
	readonly #options: McpServersOptions;
	readonly #connections: McpConnection[];
	#tools: Tool[] = [];
	/** Tools built per server and listed tool: the same object while its listing stays the same. */
	readonly #built = new Map<string, {key: string; tool: Tool}>();
	/** Clash messages said already: each once. */
	readonly #said = new Set<string>();
	readonly #listeners = new Set<() => void>();

	constructor(options: McpServersOptions) {
		this.#options = options;
		const baseEnvironment = workerEnvironment(options.environment ?? process.env, options.dirs);
		this.#connections = options.config.servers.map(
			config =>
				new McpConnection({
					config,
					baseEnvironment,
					clientVersion: options.clientVersion,
					configDir: options.dirs.config_dir,
					workspace: options.workspace,
					report: options.report,
					onChange: () => this.#changed(),
				}),
		);
	}

	/** Starts every server at once; the promise settles when each is ready or failed (never rejects): only tests and `i mcp list` wait for it. */
	async start(): Promise<void> {
		await Promise.all(this.#connections.map(async connection => connection.start()));
	}

	get names(): string[] {
		return this.#connections.map(connection => connection.name);
	}

	/** The servers still starting, by name. */
	starting(): string[] {
		return this.#connections.filter(connection => connection.state === 'starting' || connection.state === 'stopped').map(connection => connection.name);
	}

	/** The ready servers' tools as core tools, now. */
	tools(): readonly Tool[] {
		return this.#tools;
	}

	/** Called on every change of state or lists (the chat screen's /mcp, prompt commands). */
	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	status(): McpServerStatus[] {
		const running = this.#connections.map(connection => ({
			name: connection.name,
			state: connection.state,
			transport: connection.transport,
			file: connection.config.file,
			describe: connection.describe,
			tools: connection.tools.map(tool => tool.name),
			prompts: connection.prompts.map(prompt => prompt.name),
			resources: connection.resources.length,
			lastError: connection.lastError,
		}));
		const disabled = this.#options.config.disabled.map(({name, file}) => ({name, state: 'disabled' as const, transport: null, file, describe: '', tools: [], prompts: [], resources: 0, lastError: undefined}));
		return [...running, ...disabled];
	}

	/** `/mcp reconnect NAME`: the server's group is killed and it starts again; settles when it is ready or failed. */
	async reconnect(name: string): Promise<{ok: boolean; message: string}> {
		const connection = this.#connection(name);
		if (!connection) return {ok: false, message: `there is no MCP server named ${JSON.stringify(name)}${this.names.length > 0 ? `; configured: ${this.names.join(', ')}` : ''}`};
		await connection.reconnect();
		return connection.state === 'ready'
			? {ok: true, message: `MCP server ${name} is connected: ${connection.tools.length} tool${connection.tools.length === 1 ? '' : 's'}`}
			: {ok: false, message: `MCP server ${name} ${connection.lastError ?? 'did not start'}`};
	}

	/**
	 * `/mcp login NAME`: the OAuth login of a remote server (mcp-login.ts;
	 * `say` shows the authorization URL), then the server starts again with
	 * its new tokens; settles when it is ready or failed.
	 */
	async login(name: string, say: (line: string) => void, signal?: AbortSignal): Promise<{ok: boolean; message: string}> {
		const connection = this.#connection(name);
		if (!connection) return {ok: false, message: `there is no MCP server named ${JSON.stringify(name)}${this.names.length > 0 ? `; configured: ${this.names.join(', ')}` : ''}`};
		const {config} = connection;
		if (config.transport === 'stdio') return {ok: false, message: `MCP server ${name} is a program i starts (${config.command}); only a remote server (a "url") logs in`};
		const {loginMcpServer} = await import('./mcp-login.js');
		try {
			const done = await loginMcpServer({
				config,
				configDir: this.#options.dirs.config_dir,
				clientVersion: this.#options.clientVersion,
				say,
				environment: this.#options.environment ?? process.env,
				...(signal ? {signal} : {}),
			});
			await connection.reconnect();
			return connection.state === 'ready'
				? {ok: true, message: `${done}; MCP server ${name} is connected: ${connection.tools.length} tool${connection.tools.length === 1 ? '' : 's'}`}
				: {ok: false, message: `${done}, but MCP server ${name} ${connection.lastError ?? 'did not start'}`};
		} catch (error) {
			return {ok: false, message: `the login of MCP server ${name} failed: ${(error as Error).message}`};
		}
	}

	/** `/mcp logout NAME`: its stored tokens forgotten, and the server started again without them. */
	async logout(name: string): Promise<{ok: boolean; message: string}> {
		const connection = this.#connection(name);
		if (!connection) return {ok: false, message: `there is no MCP server named ${JSON.stringify(name)}`};
		const {McpAuthFile} = await import('./mcp-auth-file.js');
		const file = McpAuthFile.in(this.#options.dirs.config_dir);
		try {
			const removed = await file.remove(name);
			if (removed) await connection.reconnect();
			return {ok: true, message: removed ? `logged out of MCP server ${name} (its tokens were removed from ${file.path}); it is ${connection.state} now` : `MCP server ${name} was not logged in`};
		} catch (error) {
			return {ok: false, message: (error as Error).message};
		}
	}

	prompts(): McpPromptCommand[] {
		return this.#connections.flatMap(connection =>
			connection.prompts.map(prompt => ({
				command: mcpToolName(connection.name, prompt.name),
				server: connection.name,
				prompt: prompt.name,
				description: prompt.description ?? prompt.title ?? `prompt ${prompt.name} of MCP server ${connection.name}`,
				arguments: prompt.arguments ?? [],
			})),
		);
	}

	/** The ready servers' resources as `@server:uri` names (the @ picker), with each one's name; a URI with a blank cannot be typed, so it is left out. */
	resources(): Array<{mention: string; name: string}> {
		return this.#connections.flatMap(connection =>
			connection.resources.filter(resource => !/\s/.test(resource.uri)).map(resource => ({mention: `${connection.name}:${resource.uri}`, name: resource.title ?? resource.name})),
		);
	}

	/** A ready server by name, for prompts and resources; undefined when there is none of that name. */
	connection(name: string): McpConnection | undefined {
		return this.#connection(name);
	}

	async close(): Promise<void> {
		this.#listeners.clear();
		await Promise.all(this.#connections.map(async connection => connection.close()));
	}

	#connection(name: string): McpConnection | undefined {
		return this.#connections.find(connection => connection.name === name);
	}

	/** Builds the tool list again from the ready servers: names sanitised, clashes refused (each said once). */
	#changed(): void {
		const tools: Tool[] = [];
		const owners = new Map<string, string>();
		for (const connection of this.#connections) {
			for (const listed of connection.tools) {
				const name = mcpToolName(connection.name, listed.name);
				const owner = `tool "${listed.name}" of MCP server ${connection.name} (${connection.config.file})`;
				const taken = this.#options.takenToolNames.get(name) ?? owners.get(name);
				if (taken !== undefined) {
					this.#say(`${owner} is not offered: its name ${name} is taken by ${taken}`);
					continue;
				}

				owners.set(name, owner);
				const parameters = inputSchema(listed.inputSchema);
				// MCP's annotations are hints: only this one is read, and only to run the tool's calls side by side (tool-batch.ts).
				const readOnly = listed.annotations?.readOnlyHint === true;
				const key = JSON.stringify([listed.name, listed.description, parameters, readOnly]);
				const id = `${connection.name}\u0000${listed.name}`;
				let built = this.#built.get(id);
				if (built?.key !== key) {
					built = {
						key,
						tool: createMcpTool(
							{name, serverToolName: listed.name, description: describeTool(listed.description, listed.name, connection.name), parameters, readOnly},
							{server: connection.name, file: connection.config.file, callTool: async (tool, args, signal) => connection.callTool(tool, args, signal)},
							connection.config.alwaysAllow.has(listed.name),
						),
					};
					this.#built.set(id, built);
				}

				tools.push(built.tool);
			}
		}

		this.#tools = tools;
		for (const listener of this.#listeners) listener();
	}

	#say(message: string): void {
		if (this.#said.has(message)) return;
		this.#said.add(message);
		this.#options.report(message);
	}
}

/** The tool's JSON Schema as the model gets it; a schema without a type is taken as an object with any fields. */
function inputSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
	const copy = JSON.parse(JSON.stringify(schema ?? {})) as Record<string, unknown>;
	if (copy.type === undefined) copy.type = 'object';
	if (copy.type === 'object' && copy.properties === undefined) copy.properties = {};
	return copy;
}

function describeTool(description: string | undefined, tool: string, server: string): string {
	const text = description?.trim();
	return text ? text : `${tool} (a tool of the MCP server ${server})`;
}
