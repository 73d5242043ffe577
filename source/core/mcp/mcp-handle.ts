import type {Tool} from '../tools/types.js';
import type {McpServers} from './mcp-servers.js';

/** How long a one-shot's first request waits for the configured MCP servers to be ready (i's own bound, not a spec limit). */
export const MCP_FIRST_REQUEST_WAIT_MS = 10_000;

/** What starts a run's servers, once the configuration was read (start-mcp.ts `prepareMcp`); null for a run without any. */
export type McpStart = (() => Promise<McpServers>) | null;

/**
 * The run's MCP servers as a head sees them while they are still being
 * read and started. `begin` starts them (once), at set-up beside the rest
 * (docs/mcp.md). `servers` is null until they were begun and
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

	/**
	 * A one-shot's first request waits for the servers, up to `boundMs`: one
	 * not ready by then is named through `report` and left out of the request
	 * (its tools come in a later request once it is ready). Nothing to wait
	 * for when none is configured; an interrupt ends the wait.
	 */
	async waitForFirstRequest(report: (message: string) => void, signal: AbortSignal, boundMs = MCP_FIRST_REQUEST_WAIT_MS): Promise<void> {
		let timer: NodeJS.Timeout | undefined;
		let onAbort: (() => void) | undefined;
		const late = new Promise<'late'>(resolve => {
			timer = setTimeout(() => resolve('late'), boundMs);
		});
		const stopped = new Promise<'stopped'>(resolve => {
			onAbort = () => resolve('stopped');
			if (signal.aborted) onAbort();
			else signal.addEventListener('abort', onAbort, {once: true});
		});
		try {
			if ((await Promise.race([this.settled(), late, stopped])) !== 'late') return;
			for (const name of this.#servers?.starting() ?? []) {
				report(`MCP server ${name} was not ready within ${boundMs / 1000} s: the first request goes without its tools`);
			}
		} finally {
			clearTimeout(timer);
			signal.removeEventListener('abort', onAbort!);
		}
	}

	async close(): Promise<void> {
		this.#closed = true;
		await this.#ready;
		const servers = this.#servers;
		this.#servers = null;
		await servers?.close();
	}
}
