import {randomBytes} from 'node:crypto';
import {lookup as dnsLookup} from 'node:dns/promises';
import {chmod, mkdir, rm} from 'node:fs/promises';
import {createServer, type IncomingMessage, type Server, STATUS_CODES, type ServerResponse} from 'node:http';
import type {Duplex} from 'node:stream';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {Socket} from 'node:net';
import {AllowedDomains, checkAllowedDomains, normalizeHost} from './domain-match.js';
import {answerText, forwardRequest} from './forward-request.js';
import {type Reach, type ReachOptions, reachUpstream, type Target} from './upstream.js';

export {checkAllowedDomains} from './domain-match.js';

/** How many refusals the proxy keeps for the shell tool to report; older ones are dropped. */
export const MAX_REFUSALS = 100;
/** The request line and headers together; past this a request is answered 400 and its connection closed. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Resolving a name and connecting to it together; past this the client gets 504. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long a connection the proxy has ended may stay half open for the client to read the answer and close its side. */
const LINGER_MS = 5_000;
/** The longest path a UNIX socket may have on Linux (sun_path less its terminating NUL). */
const MAX_SOCKET_PATH_BYTES = 107;

/** Where `i`'s proxies put their sockets: short (a socket path holds at most 107 bytes) and the user's own. */
export function proxyFolder(): string {
	return join(tmpdir(), `i-sandbox-${process.getuid?.() ?? 'user'}`);
}

export interface DomainProxyOptions {
	/** Entries as written in settings: `example.com` (that host only), `*.example.com` (its subdomains, not itself), an IP literal (`127.0.0.1`) or `host:port`/`ip:port` to pin a port. */
	allowedDomains: readonly string[];
	/** Folder for the socket file (created if missing, mode 0700); the socket is `<folder>/proxy-<pid>-<random>.sock`. */
	folder: string;
	/** Name resolution (tests map a name to 127.0.0.1); default node:dns lookup. */
	lookup?: (host: string) => Promise<string>;
	/** Resolving and connecting together, in milliseconds (tests shorten it); default CONNECT_TIMEOUT_MS. */
	connectTimeoutMs?: number;
}

export interface DomainProxy {
	readonly socketPath: string;
	/** What was refused so far, newest last, at most MAX_REFUSALS: `host:port (why)`; the shell tool reports these in a sandboxed command's result. */
	refusals(): readonly string[];
	close(): Promise<void>;
}

async function systemLookup(host: string): Promise<string> {
	return (await dnsLookup(host)).address;
}

/** The target of `CONNECT host:port`, or null when it is not one. */
function connectTarget(authority: string): Target | null {
	const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
	const port = Number(match?.[2]);
	const host = match ? normalizeHost(match[1]!) : null;
	return host === null || port < 1 || port > 65_535 ? null : {host, port};
}

/** The URL and target of a request in absolute form (`GET http://host/path`), or a reason it cannot be forwarded. */
function absoluteTarget(requestTarget: string): {url: URL; target: Target} | string {
	if (/^https:\/\//i.test(requestTarget)) return 'an https:// URL goes through CONNECT (set HTTPS_PROXY), not as a plain request';
	if (!/^http:\/\//i.test(requestTarget)) return `a proxy request names an absolute http:// URL, not ${JSON.stringify(requestTarget.slice(0, 200))}`;
	let url: URL;
	try {
		url = new URL(requestTarget);
	} catch {
		return `${JSON.stringify(requestTarget.slice(0, 200))} is not a URL`;
	}
	const host = url.username === '' && url.password === '' ? normalizeHost(url.hostname) : null;
	if (host === null) return `${JSON.stringify(url.host)} is not a host to connect to`;
	return {url, target: {host, port: url.port === '' ? 80 : Number(url.port)}};
}

/** Writes a whole HTTP answer straight to a socket the HTTP server no longer reads (a CONNECT or an upgrade) and ends it. */
function answerRaw(socket: Duplex, status: number, text: string): void {
	const body = Buffer.from(`${text}\n`);
	const head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
	endGently(socket, Buffer.concat([Buffer.from(head), body]));
}

/** Ends a socket after its last bytes, reading and dropping what the client still sends so the close is not a reset that loses the answer. */
function endGently(socket: Duplex, last?: Buffer): void {
	if (socket.destroyed) return;
	socket.resume();
	socket.end(last, () => setTimeout(() => socket.destroy(), LINGER_MS).unref());
}

/** Pipes two sockets both ways; an error on either cuts both, and an end on either ends the other once its data is through. */
function tunnel(client: Socket, upstream: Socket): void {
	client.pipe(upstream);
	upstream.pipe(client);
	client.once('close', () => upstream.destroy());
	upstream.once('close', hadError => (hadError ? client.destroy() : endGently(client)));
}

class FilteringProxy implements DomainProxy {
	readonly socketPath: string;
	readonly #server: Server;
	readonly #reach: ReachOptions;
	readonly #sockets = new Set<Socket>();
	/** Client connections with a response under way, where a 400 for the next request would land inside that response. */
	readonly #busy = new WeakSet<Duplex>();
	readonly #refusals: string[] = [];
	#closed: Promise<void> | null = null;

	constructor(socketPath: string, options: DomainProxyOptions) {
		this.socketPath = socketPath;
		this.#reach = {
			rules: new AllowedDomains(options.allowedDomains),
			lookup: options.lookup ?? systemLookup,
			timeoutMs: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
			track: socket => this.#track(socket),
		};
		// The request target names the host, so a request without a Host header is fine; a long upload is not a slow attack on a socket only the sandbox can reach.
		this.#server = createServer({maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false, requestTimeout: 0}, (request, response) => {
			// A throw here would be an unhandled rejection, which ends i; the one request fails instead.
			this.#onRequest(request, response).catch(() => response.destroy());
		});
		this.#server.on('connection', (socket: Socket) => this.#track(socket));
		this.#server.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
			this.#onConnect(request, socket as Socket, head).catch(() => socket.destroy());
		});
		this.#server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => answerRaw(socket, 501, 'i sandbox proxy: upgrades (WebSocket) over plain HTTP are not forwarded; wss:// goes through CONNECT'));
		this.#server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => this.#onClientError(error, socket));
		// An accept failure (too many open files) must not crash i; the client sees its connection refused.
		this.#server.on('error', () => {});
	}

	async listen(): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.#server.once('error', reject);
			this.#server.listen(this.socketPath, () => {
				this.#server.off('error', reject);
				resolve();
			});
		});
		await chmod(this.socketPath, 0o600);
	}

	refusals(): readonly string[] {
		return [...this.#refusals];
	}

	close(): Promise<void> {
		this.#closed ??= this.#shutDown();
		return this.#closed;
	}

	async #shutDown(): Promise<void> {
		const stopped = new Promise<void>(resolve => this.#server.close(() => resolve()));
		for (const socket of this.#sockets) socket.destroy();
		await stopped;
		await rm(this.socketPath, {force: true});
	}

	#track(socket: Socket): void {
		// Every socket has a handler, so a reset or a broken pipe never reaches process 'uncaughtException'.
		socket.on('error', () => {});
		if (this.#closed !== null) {
			socket.destroy();
			return;
		}
		this.#sockets.add(socket);
		socket.once('close', () => this.#sockets.delete(socket));
	}

	#refuse(refusal: string): void {
		this.#refusals.push(refusal);
		if (this.#refusals.length > MAX_REFUSALS) this.#refusals.splice(0, this.#refusals.length - MAX_REFUSALS);
	}

	/** The open upstream socket, or null after answering the client with why there is none. */
	#opened(reach: Reach, answer: (status: number, text: string) => void): Socket | null {
		if (reach.kind === 'open') return reach.socket;
		if (reach.kind === 'refused') {
			this.#refuse(reach.refusal);
			answer(403, reach.message);
		} else answer(reach.status, `i sandbox proxy: ${reach.reason}`);
		return null;
	}

	async #onConnect(request: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
		const target = connectTarget(request.url ?? '');
		if (target === null) return answerRaw(client, 400, `i sandbox proxy: CONNECT names host:port, not ${JSON.stringify((request.url ?? '').slice(0, 200))}`);
		const upstream = this.#opened(await reachUpstream(target, this.#reach), (status, text) => answerRaw(client, status, text));
		if (upstream === null) return;
		if (client.destroyed) return void upstream.destroy();
		client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length > 0) upstream.write(head);
		tunnel(client, upstream);
	}

	async #onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const socket = request.socket;
		this.#busy.add(socket);
		response.once('close', () => this.#busy.delete(socket));
		const parsed = absoluteTarget(request.url ?? '');
		if (typeof parsed === 'string') return answerText(response, 400, `i sandbox proxy: ${parsed}`);
		const upstream = this.#opened(await reachUpstream(parsed.target, this.#reach), (status, text) => answerText(response, status, text));
		if (upstream === null) return;
		if (response.destroyed) return void upstream.destroy();
		forwardRequest(request, response, upstream, parsed.url);
	}

	#onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
		if (error.code === 'ECONNRESET' || !socket.writable || this.#busy.has(socket)) socket.destroy();
		else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') answerRaw(socket, 408, 'i sandbox proxy: the request took too long to arrive');
		else {
			const why = error.code === 'HPE_HEADER_OVERFLOW' ? `its request line and headers are over ${MAX_HEADER_BYTES} bytes` : `it is not well-formed HTTP (${error.code ?? error.message})`;
			answerRaw(socket, 400, `i sandbox proxy: bad request: ${why}`);
		}
	}
}

/**
 * Starts the filtering proxy a sandboxed command reaches the network
 * through: HTTP CONNECT and plain absolute-URI requests to the hosts
 * `allowedDomains` lists, on a UNIX socket only this user can open.
 * Throws naming the bad entry or the socket path when it cannot start.
 */
export async function startDomainProxy(options: DomainProxyOptions): Promise<DomainProxy> {
	const problem = checkAllowedDomains(options.allowedDomains);
	if (problem !== null) throw new Error(`startDomainProxy: sandbox.allowedDomains: ${problem}`);
	await mkdir(options.folder, {recursive: true, mode: 0o700});
	const socketPath = join(options.folder, `proxy-${process.pid}-${randomBytes(4).toString('hex')}.sock`);
	if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
		throw new Error(`startDomainProxy: the socket path ${socketPath} is over ${MAX_SOCKET_PATH_BYTES} bytes, the most a UNIX socket allows; give a shorter folder`);
	}
	const proxy = new FilteringProxy(socketPath, options);
	try {
		await proxy.listen();
	} catch (error) {
		await proxy.close();
		throw new Error(`startDomainProxy: cannot listen on ${socketPath}: ${(error as Error).message}`);
	}
	return proxy;
}
