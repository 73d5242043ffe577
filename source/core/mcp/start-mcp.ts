import type {PlatformDirs} from '../config/dirs.js';
import {errorMessage} from '../errors.js';
import type {EventBus} from '../extensions/event-bus.js';
import {mcpConfigOf, projectMcpServers, readMcpFiles, untrustedWarning, type McpConfig, type ProjectMcpServer} from './mcp-config.js';
import type {McpServers} from './mcp-servers.js';

export interface StartMcpOptions {
	workspace: string;
	dirs: PlatformDirs;
	/** `--trust-project`. */
	trustProject: boolean | undefined;
	/** The extensions' ProjectTrust gate, asked as for project extensions (decide-trust.ts). */
	events: EventBus | null;
	takenToolNames: ReadonlyMap<string, string>;
	clientVersion: string;
	report(message: string): void;
	environment?: NodeJS.ProcessEnv;
	/** A configuration error throws (`i mcp list`) instead of being reported (a run, which goes on without MCP servers). */
	strict?: boolean;
}

/**
 * Reads the MCP configuration and starts its servers in the background;
 * null when none is configured (nothing of the SDK is then loaded). See
 * `prepareMcp` for the errors and trust.
 */
export async function startMcp(options: StartMcpOptions): Promise<McpServers | null> {
	const start = await prepareMcp(options);
	return start ? start() : null;
}

/**
 * Reads the MCP configuration now (cheap: the files only, so what it says,
 * skipped project servers above all, is said at start) and returns what
 * starts the servers, loading the SDK then; null when no server is
 * configured. A configuration error is reported, naming the file and the
 * server, and the session goes on without MCP servers (with `strict` it
 * throws). Project entries need a trusted workspace, decided as for
 * project extensions without asking (the chat screen's question, when it
 * asked one, was remembered before this runs).
 */
export async function prepareMcp(options: StartMcpOptions): Promise<(() => Promise<McpServers>) | null> {
	let config: McpConfig;
	try {
		config = await readRunMcpConfig(options);
	} catch (error) {
		if (options.strict) throw error;
		options.report(`MCP servers were not started: ${errorMessage(error)}`);
		return null;
	}

	for (const message of config.warnings) options.report(message);
	if (config.untrusted) options.report(untrustedWarning(options.workspace, config.untrusted));
	return serversOf(config, options);
}

/** What starts the servers `config` names, loading the SDK then; null when it names none to start or show (nothing of the SDK is loaded). */
export function serversOf(config: McpConfig, options: StartMcpOptions): (() => Promise<McpServers>) | null {
	if (config.servers.length === 0 && config.disabled.length === 0) return null;
	return async () => {
		const {McpServers} = await import('./mcp-servers.js');
		const servers = new McpServers({
			config,
			workspace: options.workspace,
			dirs: options.dirs,
			clientVersion: options.clientVersion,
			takenToolNames: options.takenToolNames,
			report: options.report,
			...(options.environment ? {environment: options.environment} : {}),
		});
		void servers.start();
		return servers;
	};
}

/** The servers a run here would start, trust decided as for a run (`i mcp login` finds its server here); a broken file throws. */
export async function readRunMcpConfig(options: Pick<StartMcpOptions, 'workspace' | 'dirs' | 'trustProject' | 'events' | 'environment'>): Promise<McpConfig> {
	// Each file read once, for the trust question and for the servers.
	const read = await readMcpFiles(options.workspace, options.dirs.config_dir);
	const project = projectMcpServers(read);
	const trust = project.length > 0 ? await decide(options, project) : {trusted: false};
	return mcpConfigOf(read, {workspace: options.workspace, ...trust, ...(options.environment ? {environment: options.environment} : {})});
}

async function decide(options: Pick<StartMcpOptions, 'workspace' | 'dirs' | 'trustProject' | 'events'>, servers: ProjectMcpServer[]): Promise<{trusted: boolean; refusedIn?: string | undefined}> {
	const {decideTrust} = await import('../session/decide-trust.js');
	const outcome = await decideTrust({trustProject: options.trustProject, canAsk: false}, {workspace: options.workspace, dirs: options.dirs, events: options.events}, {mcpServers: servers});
	return 'trusted' in outcome ? {trusted: outcome.trusted, refusedIn: outcome.refusedIn} : {trusted: false};
}
