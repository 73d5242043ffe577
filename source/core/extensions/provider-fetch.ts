import {Readable} from 'node:stream';
import type {ReadableStream} from 'node:stream/web';
import {postRaw} from '../providers/http-request.js';
import {BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS} from '../providers/http-limits.js';
import type {ProviderFetch, ProviderFetchInit} from './api.js';

const METHODS = ['POST', 'GET', 'DELETE'] as const;
/** Statuses whose response has no body (fetch's "null body status"). */
const NULL_BODY = new Set([204, 205, 304]);

/**
 * `io.fetch` of an extension provider's request: the host's HTTP layer for
 * model calls (undici-transport.ts), shaped like `fetch`, so a provider's
 * requests go where the built-in adapters' go: through `HTTPS_PROXY`,
 * `HTTP_PROXY` and `NO_PROXY` (a failing proxy named without its
 * credentials), with `NODE_EXTRA_CA_CERTS`, 120 s for the headers and 300 s
 * of silence while the body streams, and no redirect followed (a 3xx is the
 * answer). Node's own `fetch` reads none of the proxy variables, and starts
 * a second HTTP stack of its own. A subset of fetch: http(s) URLs, POST, GET
 * or DELETE, a string or bytes body; anything else is a TypeError.
 */
export const hostFetch: ProviderFetch = async (input, init = {}) => {
	const url = new URL(String(input));
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`io.fetch: ${url.protocol} URLs are not fetched; only http: and https:`);
	if (url.username !== '' || url.password !== '') throw new TypeError('io.fetch: a URL with a user name or password is not fetched; send credentials in a header');
	const method = (init.method ?? 'GET').toUpperCase();
	if (!(METHODS as readonly string[]).includes(method)) throw new TypeError(`io.fetch: method ${JSON.stringify(init.method)} is not one of ${METHODS.join(', ')}`);
	const raw = await postRaw(url.href, {
		method: method as (typeof METHODS)[number],
		headers: headerRecord(init.headers),
		body: bodyOf(init),
		signal: init.signal ?? undefined,
		headersTimeoutMs: HEADERS_TIMEOUT_MS,
		bodyTimeoutMs: BODY_TIMEOUT_MS,
	});
	const headers = new Headers();
	for (const [name, value] of Object.entries(raw.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
	if (NULL_BODY.has(raw.statusCode)) {
		raw.body.resume();
		return new Response(null, {status: raw.statusCode, headers});
	}

	return new Response(Readable.toWeb(raw.body) as ReadableStream<Uint8Array> as unknown as BodyInit, {status: raw.statusCode, headers});
};

function headerRecord(init: ProviderFetchInit['headers']): Record<string, string> {
	const record: Record<string, string> = {};
	new Headers(init as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => {
		record[name] = value;
	});
	return record;
}

function bodyOf(init: ProviderFetchInit): string | Uint8Array | undefined {
	const {body} = init;
	if (body === undefined || body === null) return undefined;
	if (typeof body === 'string' || body instanceof Uint8Array) return body;
	throw new TypeError('io.fetch: a body is a string or bytes (Uint8Array)');
}
