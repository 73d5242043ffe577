import type {Tool} from '../tools/types.js';
import type {McpServers} from './mcp-servers.js';

/** What starts a run's servers, once the configuration was read (start-mcp.ts `prepareMcp`); null for a run without any. */
export type McpStart = (() => Promise<McpServers>) | null;

/**
 * The run's MCP servers as a head sees them while they are still being
 * read and started. `begin` starts them (once); the chat screen and line
 * mode begin at session start, a one-shot when its model first asks for a
 * tool (docs/mcp.md). `servers` is null until they were begun and
 * loaded (and for a run without servers); `ready` begins them and settles
 * then. Closing before that leaves nothing running.
 */
export class McpHandle {
	readonly #prepared: Promise<McpStart>;
	#ready: Promise<McpServers | null> | undefined;
	#servers: McpServers | null = null;
	#closed = false;

	constructor(prepared: Promise<McpStart>) {
		this.#prepared = prepared;
	}

	/** Starts the servers in the background, once; nothing when none is configured or the run is closing. */
	begin(): void {
		this.#ready ??= this.#prepared.then(async start => {
			if (!start || this.#closed) return null;
			const servers = await start();
			if (this.#closed) {
				await servers.close();
				return null;
			}

			this.#servers = servers;
			return servers;
		});
	}

	/** The servers once begun and loaded (this begins them); null when none is configured. */
	get ready(): Promise<McpServers | null> {
		this.begin();
		return this.#ready!;
	}

	get servers(): McpServers | null {
		return this.#servers;
	}

	/** The ready servers' tools now; none before they were begun. */
	tools(): readonly Tool[] {
		return this.#servers?.tools() ?? [];
	}

	/** Waits for every server to be ready or failed (tests, `i mcp list`); a run's turns never do. */
	async settled(): Promise<McpServers | null> {
		const servers = await this.ready;
		await servers?.start();
		return servers;
	}

	async close(): Promise<void> {
		this.#closed = true;
		await this.#ready;
		const servers = this.#servers;
		this.#servers = null;
		await servers?.close();
	}
}
