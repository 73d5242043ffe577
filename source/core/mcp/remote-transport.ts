import type {OAuthClientProvider} from '@modelcontextprotocol/sdk/client/auth.js';
import {SSEClientTransport} from '@modelcontextprotocol/sdk/client/sse.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';
import type {McpServerConfig} from './mcp-config.js';

type RemoteConfig = Extract<McpServerConfig, {transport: 'http' | 'sse'}>;

/**
 * The transport of a remote server: Streamable HTTP for `"type": "http"`,
 * falling back to the legacy HTTP+SSE transport when the server refuses the
 * first POST (the MCP specification's backwards-compatibility rule: a 4xx
 * answer to `initialize` means an old server); legacy SSE at once for
 * `"type": "sse"`. The entry's headers (a bearer token) go with every
 * request; with an `authProvider` (an entry without an Authorization
 * header), a 401 starts the SDK's OAuth flow through it.
 */
export async function openRemoteTransport(config: RemoteConfig, authProvider?: OAuthClientProvider): Promise<RemoteTransport> {
	const requestInit: RequestInit = {headers: config.headers};
	const auth = authProvider ? {authProvider} : {};
	const legacy = () => new SSEClientTransport(config.url, {requestInit, eventSourceInit: {fetch: withHeaders(config.headers)}, ...auth});
	if (config.transport === 'sse') return legacy();
	return new FallbackTransport(() => new StreamableHTTPClientTransport(config.url, {requestInit, ...auth}), legacy);
}

/** A remote transport: `finishAuth` exchanges a login's authorization code (the SDK's, on both transports). */
export type RemoteTransport = Transport & {finishAuth(code: string): Promise<void>};

/** Whether the entry sends a credential of its own: then no OAuth is tried (a 401 means that credential is wrong). */
export function hasAuthorizationHeader(headers: Record<string, string>): boolean {
	return Object.keys(headers).some(name => name.toLowerCase() === 'authorization');
}

/** The EventSource's own GET carries the entry's headers too (the SDK's requestInit covers its POSTs). */
function withHeaders(headers: Record<string, string>) {
	return async (url: string | URL, init?: RequestInit) => {
		const merged = new Headers(init?.headers);
		for (const [name, value] of Object.entries(headers)) merged.set(name, value);
		return fetch(url, {...init, headers: merged});
	};
}

/**
 * Streamable HTTP until its first message is refused with a 4xx status;
 * then the legacy SSE transport, to which that first message (initialize)
 * is sent again. Once a message went through, the choice is final.
 */
export class FallbackTransport implements RemoteTransport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	readonly #legacy: () => RemoteTransport;
	#current: RemoteTransport;
	#decided = false;
	#fellBack = false;

	constructor(modern: () => RemoteTransport, legacy: () => RemoteTransport) {
		this.#legacy = legacy;
		this.#current = this.#wire(modern());
	}

	/** Whether the server turned out to speak the legacy HTTP+SSE transport only. */
	get legacy(): boolean {
		return this.#fellBack;
	}

	get sessionId(): string | undefined {
		return (this.#current as {sessionId?: string}).sessionId;
	}

	#wire(transport: RemoteTransport): RemoteTransport {
		transport.onmessage = message => this.onmessage?.(message);
		transport.onerror = error => this.onerror?.(error);
		transport.onclose = () => this.onclose?.();
		return transport;
	}

	async start(): Promise<void> {
		await this.#current.start();
	}

	async send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
		if (this.#decided) return this.#current.send(message, options);
		try {
			await this.#current.send(message, options);
			this.#decided = true;
		} catch (error) {
			const status = (error as {code?: unknown}).code;
			// 401 and 403 are about the credentials, which the old transport would be refused for just the same.
			if (typeof status !== 'number' || status < 400 || status >= 500 || status === 401 || status === 403) throw error;
			const modern = this.#current;
			modern.onclose = undefined;
			await modern.close().catch(() => {});
			this.#current = this.#wire(this.#legacy());
			this.#decided = true;
			this.#fellBack = true;
			await this.#current.start();
			await this.#current.send(message, options);
		}
	}

	async close(): Promise<void> {
		await this.#current.close();
	}

	async finishAuth(code: string): Promise<void> {
		await this.#current.finishAuth(code);
	}

	setProtocolVersion(version: string): void {
		(this.#current as {setProtocolVersion?: (version: string) => void}).setProtocolVersion?.(version);
	}
}
