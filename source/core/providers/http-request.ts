import http from 'node:http';
import https from 'node:https';

/**
 * One HTTP POST over node:http / node:https. Small on purpose: it never
 * follows redirects, buffers nothing, and turns its own timeouts into errors
 * with stable codes. (The core starts in a fraction of undici's load time.)
 */

export interface RawResponse {
	statusCode: number;
	headers: http.IncomingHttpHeaders;
	body: http.IncomingMessage;
}

export interface RawRequestOptions {
	headers: Record<string, string>;
	body: string;
	signal: AbortSignal | undefined;
	/** Until the status line and headers arrived. */
	headersTimeoutMs: number;
	/** Longest silence while the body streams. */
	bodyTimeoutMs: number;
}

/** Our timeouts, with codes callers can tell apart from the system's. */
export const HEADERS_TIMEOUT = 'I_HEADERS_TIMEOUT';
export const BODY_TIMEOUT = 'I_BODY_TIMEOUT';

const agents = {
	'http:': new http.Agent({keepAlive: true}),
	'https:': new https.Agent({keepAlive: true}),
};

export function postRaw(url: string, options: RawRequestOptions): Promise<RawResponse> {
	const target = new URL(url);
	const transport = target.protocol === 'https:' ? https : http;
	const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
	return new Promise((resolve, reject) => {
		const request = transport.request(target, {
			method: 'POST',
			agent,
			headers: {...options.headers, 'content-length': String(Buffer.byteLength(options.body))},
			...(options.signal ? {signal: options.signal} : {}),
		});
		const headersTimer = setTimeout(() => {
			request.destroy(codedError(`no response headers within ${options.headersTimeoutMs} ms`, HEADERS_TIMEOUT));
		}, options.headersTimeoutMs);
		request.once('error', error => {
			clearTimeout(headersTimer);
			reject(error);
		});
		request.once('response', response => {
			clearTimeout(headersTimer);
			response.setTimeout(options.bodyTimeoutMs, () => {
				response.destroy(codedError(`no data for ${options.bodyTimeoutMs} ms`, BODY_TIMEOUT));
			});
			resolve({statusCode: response.statusCode ?? 0, headers: response.headers, body: response});
		});
		request.end(options.body);
	});
}

function codedError(message: string, code: string): Error {
	return Object.assign(new Error(message), {code});
}
