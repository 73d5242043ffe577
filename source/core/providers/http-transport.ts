import type {Readable} from 'node:stream';

/**
 * What a model request's transport (undici-transport.ts) takes and gives
 * back, and how it fails: the contract between it and the HTTP layer above
 * (http.ts), which loads it only at the first request (http-request.ts).
 */

export interface RawResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: Readable;
	/** "the proxy http://proxy.example:8080 (from HTTPS_PROXY)" when the request went through one. */
	proxy: string | undefined;
}

export interface RawRequestOptions {
	/** POST unless said: model requests are POSTs; the Files channel also lists (GET) and deletes (DELETE). */
	method?: 'POST' | 'GET' | 'DELETE';
	headers: Record<string, string>;
	/** None for GET and DELETE; a multipart upload is bytes. */
	body: string | Uint8Array | undefined;
	signal: AbortSignal | undefined;
	/** Until the status line and headers arrived. */
	headersTimeoutMs: number;
	/** Longest silence while the body streams. */
	bodyTimeoutMs: number;
}

/** undici's codes for its timeouts, which callers tell apart from the system's. */
export const HEADERS_TIMEOUT = 'UND_ERR_HEADERS_TIMEOUT';
export const BODY_TIMEOUT = 'UND_ERR_BODY_TIMEOUT';

/**
 * A request through a proxy failed before any response: the message names
 * the proxy (without credentials) and what happened. `code` is the
 * underlying one (ECONNREFUSED, UND_ERR_SOCKET…); `status` is the proxy's
 * own answer to CONNECT, when it refused the tunnel.
 */
export class ProxyFailure extends Error {
	override name = 'ProxyFailure';
	readonly code: string | undefined;
	readonly status: number | undefined;

	constructor(message: string, fields: {code: string | undefined; status?: number; cause: unknown}) {
		super(message, {cause: fields.cause});
		this.code = fields.code;
		this.status = fields.status;
	}
}
