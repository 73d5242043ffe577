import type {Readable} from 'node:stream';
import {postRaw} from '../../providers/http-request.js';
import {describeError, redact, secretValues} from '../../providers/errors.js';
import type {CheckedOAuthProvider} from '../../extensions/check-oauth.js';

/** A token endpoint's answer is a few hundred bytes of JSON; more is not one. */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;
/** A token answer without `expires_in` counts for an hour (RFC 6749 §5.1 leaves it to the server); a 401 refreshes it sooner. */
export const DEFAULT_TOKEN_LIFETIME_MS = 3_600_000;
/** Longest piece of the server's own words (`error_description`) quoted in a message. */
const MAX_DESCRIPTION_CHARS = 200;

/** Tokens as stored in auth.json: `expires` in milliseconds since 1970. */
export interface TokenSet {
	access: string;
	refresh: string | undefined;
	expires: number;
}

/** A token endpoint that failed: the message names the provider and the endpoint, never a token, code or secret. */
export class OAuthError extends Error {
	override name = 'OAuthError';
	/** The OAuth `error` code when the server gave one (`invalid_grant`); undefined for garbage, a timeout or a redirect. */
	readonly code: string | undefined;

	constructor(message: string, code?: string) {
		super(message);
		this.code = code;
	}
}

/** An answer of an OAuth endpoint: 2xx with a JSON object, or 4xx with an OAuth error object. */
export type EndpointAnswer = {ok: true; json: Record<string, unknown>} | {ok: false; code: string; description: string | undefined};

/** `Example Cloud (provider example)`: how messages name whose endpoint failed. */
export function flowLabel(flow: CheckedOAuthProvider): string {
	return flow.name === flow.id ? `provider ${flow.id}` : `${flow.name} (provider ${flow.id})`;
}

/**
 * One form POST to an OAuth endpoint (RFC 6749 §3.2, RFC 8628 §3.1),
 * through the host's HTTP layer (proxy variables, extra CA certificates).
 * Within `flow.tokenTimeoutMs` from the request to the last byte; a
 * redirect is not followed (a token endpoint that redirects is
 * misconfigured, and following it would carry the code elsewhere); an
 * answer that is not JSON, or a 5xx, is an OAuthError. The form's values
 * (codes, tokens, verifiers) are redacted from every message.
 */
export async function postForm(flow: CheckedOAuthProvider, url: string, form: Record<string, string>, signal?: AbortSignal): Promise<EndpointAnswer> {
	const where = `${flowLabel(flow)}: ${describeEndpoint(url)}`;
	const hide = (text: string) => redact(text, secretValues(Object.values(form)));
	const timeout = new AbortController();
	const timer = setTimeout(() => timeout.abort(), flow.tokenTimeoutMs);
	const signals = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
	const late = () => new OAuthError(`${where} did not answer within ${flow.tokenTimeoutMs / 1000} s; no token was stored`);
	try {
		let response;
		try {
			response = await postRaw(url, {
				method: 'POST',
				headers: {'content-type': 'application/x-www-form-urlencoded', accept: 'application/json'},
				body: new URLSearchParams(form).toString(),
				signal: signals,
				headersTimeoutMs: flow.tokenTimeoutMs,
				bodyTimeoutMs: flow.tokenTimeoutMs,
			});
		} catch (error) {
			if (timeout.signal.aborted) throw late();
			if (signal?.aborted) throw error;
			throw new OAuthError(`${where} could not be reached (${hide(describeError(error))}); no token was stored`);
		}

		const status = response.statusCode;
		if (status >= 300 && status < 400) {
			response.body.resume();
			throw new OAuthError(`${where} answered with a redirect (HTTP ${status}), which is not followed (check the endpoint the extension registered); no token was stored`);
		}

		let text: string;
		try {
			text = await readBounded(response.body);
		} catch (error) {
			if (timeout.signal.aborted) throw late();
			throw new OAuthError(`${where}: ${hide((error as Error).message)}; no token was stored`);
		}

		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {}

		const object = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
		if (status >= 400 && status < 500 && typeof object?.error === 'string' && /^[\x21-\x7e]{1,64}$/.test(object.error)) {
			// The server's words go to a terminal: control characters (an escape sequence) become spaces.
			const description =
				typeof object.error_description === 'string'
					? hide(object.error_description)
							.replaceAll(/[\u0000-\u001F\u007F-\u009F]/g, ' ')
							.slice(0, MAX_DESCRIPTION_CHARS)
					: undefined;
			return {ok: false, code: object.error, description};
		}

		if (status < 200 || status >= 300) throw new OAuthError(`${where} answered HTTP ${status}${object ? '' : ' without an OAuth error object'}; no token was stored`);
		if (!object) throw new OAuthError(`${where} answered HTTP ${status} with something that is not a JSON object (${text.length} characters); no token was stored`);
		return {ok: true, json: object};
	} finally {
		clearTimeout(timer);
	}
}

/**
 * Tokens from a token endpoint's answer (RFC 6749 §5.1); an OAuth error
 * answer or one without `access_token` is an OAuthError naming the
 * provider. `previousRefresh` stays when a refresh answer has none.
 */
export function readTokens(flow: CheckedOAuthProvider, url: string, answer: EndpointAnswer, now: number, previousRefresh?: string): TokenSet {
	const where = `${flowLabel(flow)}: ${describeEndpoint(url)}`;
	if (!answer.ok) throw new OAuthError(`${where} refused: ${answer.code}${answer.description ? ` (${answer.description})` : ''}; no token was stored`, answer.code);
	const {access_token: access, refresh_token: refresh, expires_in: expiresIn} = answer.json;
	if (typeof access !== 'string' || access.trim() === '' || /\s/.test(access)) throw new OAuthError(`${where} answered without a usable "access_token"; no token was stored`);
	if (refresh !== undefined && refresh !== null && (typeof refresh !== 'string' || refresh.trim() === '')) throw new OAuthError(`${where} answered a "refresh_token" that is not a string; no token was stored`);
	const seconds = typeof expiresIn === 'string' && /^\d+$/.test(expiresIn) ? Number(expiresIn) : expiresIn;
	if (seconds !== undefined && seconds !== null && (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)) {
		throw new OAuthError(`${where} answered an "expires_in" that is not a number of seconds; no token was stored`);
	}

	const lifetime = typeof seconds === 'number' ? seconds * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
	return {access, refresh: typeof refresh === 'string' ? refresh : previousRefresh, expires: now + lifetime};
}

/** The endpoint without its query (which may carry a client's parameters): `https://auth.example.com/oauth/token`. */
export function describeEndpoint(url: string): string {
	const parsed = new URL(url);
	return `the endpoint ${parsed.origin}${parsed.pathname}`;
}

async function readBounded(body: Readable): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > MAX_TOKEN_RESPONSE_BYTES) {
			body.destroy();
			throw new Error(`the answer is longer than ${MAX_TOKEN_RESPONSE_BYTES} bytes, which is no token answer`);
		}

		chunks.push(chunk);
	}

	return Buffer.concat(chunks).toString('utf8');
}
