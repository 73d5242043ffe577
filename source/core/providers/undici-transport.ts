/**
 * Model requests over undici, loaded by http-request.ts at the first one (its
 * own chunk in the bundle). One keep-alive dispatcher serves the process: a
 * plain `Agent`, or undici's `EnvHttpProxyAgent` when a proxy variable is set
 * (proxy-settings.ts). undici's `request` follows no redirects; node's tls
 * does the TLS, so `NODE_EXTRA_CA_CERTS` is trusted as everywhere in node.
 */
import {STATUS_CODES} from 'node:http';
import {Agent, EnvHttpProxyAgent, Pool, type Dispatcher} from 'undici';
import {describeError, errorCode} from './errors.js';
import {HEADERS_TIMEOUT_MS} from './http-limits.js';
import {HEADERS_TIMEOUT, ProxyFailure, type RawRequestOptions, type RawResponse} from './http-transport.js';
import {proxyFor, readProxySettings, type ProxyChoice, type ProxySettings} from './proxy-settings.js';

/** Failures to open a connection to the proxy, in words. */
const UNREACHABLE: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ENOTFOUND: 'its host name does not resolve',
	EAI_AGAIN: 'its host name could not be looked up',
	ETIMEDOUT: 'connection timed out',
	UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
};

const DEFAULT_PORTS: Record<string, string> = {'http:': '80', 'https:': '443'};

/** undici's words for a proxy's refusal: of a CONNECT (tunnel), and of a forwarded request (407 only; other statuses are responses). */
const TUNNEL_REFUSED = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/;
const FORWARD_REFUSED = /^Proxy Authentication Required \((407)\)$/;

/**
 * How long an idle connection stays open for the next request when the
 * server names no limit of its own (a `Keep-Alive` hint wins): a turn's
 * requests are apart by the tools' run time, often longer than undici's
 * default of 4 s, and each new connection to an API costs a TLS handshake.
 */
const IDLE_CONNECTION_MS = 60_000;

interface Shared {
	dispatcher: Dispatcher;
	proxies: ProxySettings | undefined;
}

let shared: Shared | undefined;

/** The process's dispatcher, made at the first request from the environment as it is then. */
function sharedDispatcher(): Shared {
	if (!shared) {
		const proxies = readProxySettings(process.env);
		shared = {dispatcher: createDispatcher(proxies), proxies};
	}

	return shared;
}

export function createDispatcher(proxies: ProxySettings | undefined): Dispatcher {
	if (!proxies) return new Agent({keepAliveTimeout: IDLE_CONNECTION_MS});
	return new EnvHttpProxyAgent({
		keepAliveTimeout: IDLE_CONNECTION_MS,
		// Given explicitly, so undici proxies exactly what proxyFor says it does.
		httpProxy: proxies.http?.url ?? '',
		httpsProxy: proxies.https?.url ?? '',
		noProxy: proxies.noProxy,
		// http:// endpoints are forwarded (what every HTTP proxy speaks); https:// ones tunnel through CONNECT.
		proxyTunnel: false,
		// The CONNECT request itself would otherwise wait undici's default of 300 s for a silent proxy.
		clientFactory: (origin, options) => new Pool(origin, {...options, headersTimeout: HEADERS_TIMEOUT_MS}),
	});
}

export async function send(url: string, options: RawRequestOptions, via: Shared = sharedDispatcher()): Promise<RawResponse> {
	const target = new URL(url);
	const proxy = via.proxies && proxyFor(via.proxies, target);
	try {
		const response = await via.dispatcher.request({
			origin: target.origin,
			path: `${target.pathname}${target.search}`,
			method: options.method ?? 'POST',
			headers: options.headers,
			body: options.body,
			signal: options.signal,
			headersTimeout: options.headersTimeoutMs,
			bodyTimeout: options.bodyTimeoutMs,
		});
		return {statusCode: response.statusCode, headers: response.headers, body: response.body, proxy: proxy && describeProxy(proxy)};
	} catch (error) {
		const failure = errorCode(error) === HEADERS_TIMEOUT ? coded(`no response headers within ${options.headersTimeoutMs} ms`, HEADERS_TIMEOUT, error) : error;
		throw proxy ? proxyFailure(failure, proxy, target) : failure;
	}
}

/** A failure of a proxied request, before any response: the proxy named, its refusal or the connection's trouble in words. */
function proxyFailure(error: unknown, proxy: ProxyChoice, target: URL): ProxyFailure {
	const code = errorCode(error);
	const message = error instanceof Error ? error.message : '';
	const tunnel = TUNNEL_REFUSED.exec(message);
	const refused = tunnel ?? FORWARD_REFUSED.exec(message);
	const where = describeProxy(proxy);
	if (refused) {
		const status = Number(refused[1]);
		// The tunnel as asked for: host and port, the default one included.
		const asked = tunnel ? `CONNECT ${target.hostname}:${target.port || DEFAULT_PORTS[target.protocol]}` : 'the request';
		return new ProxyFailure(`${where} answered ${asked} with HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd(), {code, status, cause: error});
	}

	const unreachable = code && UNREACHABLE[code];
	if (unreachable) return new ProxyFailure(`cannot reach ${where}: ${unreachable}`, {code, cause: error});
	return new ProxyFailure(`connection through ${where} failed (${describeError(error)})`, {code, cause: error});
}

function describeProxy(proxy: ProxyChoice): string {
	return `the proxy ${proxy.shown} (from ${proxy.variable})`;
}

function coded(message: string, code: string, cause: unknown): Error {
	return Object.assign(new Error(message, {cause}), {code});
}
