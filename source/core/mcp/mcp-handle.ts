import type {Tool} from '../tools/types.js';
import type {McpServers} from './mcp-servers.js';

/**
 * The run's MCP servers as a head sees them while they are still being
 * read and started: `servers` is null until the configuration was read
 * (and for a run without servers), `ready` settles then. Closing before
 * that closes them once they exist.
 */
export class McpHandle {
	readonly ready: Promise<McpServers | null>;
	#servers: McpServers | null = null;
	#closed = false;

	constructor(starting: Promise<McpServers | null>) {
		this.ready = starting.then(async servers => {
			if (this.#closed) {
				await servers?.close();
				return null;
			}

			this.#servers = servers;
			return servers;
		});
	}

	get servers(): McpServers | null {
		return this.#servers;
	}

	/** The ready servers' tools now; none while the configuration is being read. */
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
		await this.ready;
		const servers = this.#servers;
		this.#servers = null;
		await servers?.close();
	}
}
