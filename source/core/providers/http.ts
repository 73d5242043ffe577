import {Buffer} from 'node:buffer';
import {postRaw} from './http-request.js';
import {BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS, MAX_BODY_BYTES, RETRY_AFTER_CAP_MS} from './http-limits.js';
import {BODY_TIMEOUT, HEADERS_TIMEOUT, ProxyFailure, type RawResponse} from './http-transport.js';
import {ProviderError, describeError, errorCode, formatBytes, providerMessage, quote, redact, secretsOf} from './errors.js';
import {ProxyConfigError} from './proxy-settings.js';
import {createRetrier, type Retrier, type RetryNotice, type RetryOptions} from './retry.js';
import {STREAM_REQUEST_HEADERS} from './request-headers.js';
import type {PreparedRequest} from './types.js';

/** How long the rest of a released body may take to arrive before its connection is dropped. */
export const RELEASE_GRACE_MS = 1000;

/** Statuses worth sending again unchanged: timeouts, conflicts, rate limits, server trouble (529: Anthropic overloaded). */
export function isRetryableStatus(status: number): boolean {
	return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Connection failures where the request can be sent again (nothing was
 * answered): the system's, and undici's for a socket closed under it
 * (UND_ERR_SOCKET), a connect that timed out and no headers in time. The
 * same codes from the hop to a proxy count the same: a proxy that refuses
 * or drops the connection is retried like a server that does.
 */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
	HEADERS_TIMEOUT,
]);

export interface HttpOptions extends RetryOptions {
	retryAfterCapMs?: number;
	maxBodyBytes?: number;
	bodyTimeoutMs?: number;
	headersTimeoutMs?: number;
}

export interface PostStreamArgs {
	/** Names the provider in messages: "openai". */
	provider: string;
	request: PreparedRequest;
	headers: Record<string, string>;
	/** What every message hides (errors.ts secretsOf); by default the credential headers' values. */
	secrets?: readonly string[];
	signal?: AbortSignal;
	onRetry?: (notice: RetryNotice) => void | Promise<void>;
	options?: HttpOptions;
	/** Shares the retry count with the caller's own retries; by default one made from `options`, `onRetry` and `signal`. */
	retrier?: Retrier;
}

export interface StreamResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	/** The body, capped at `maxBodyBytes`; failures come as `ProviderError`. */
	body: AsyncIterable<Uint8Array>;
	/**
	 * The caller has the whole reply and will stop reading: the rest of the
	 * body is read and dropped in the background (so the connection can serve
	 * the next request), and whatever happens to it is no failure.
	 */
	release(): void;
}

interface Context {
	provider: string;
	signal: AbortSignal | undefined;
	maxBodyBytes: number;
	bodyTimeoutMs: number;
	secrets: string[];
}

/**
 * POSTs a JSON body and returns the streaming response once its first body
 * bytes arrived. Redirects are refused. 429, 5xx and dropped connections are
 * retried with backoff until the first body byte; a failure after that is
 * the caller's to judge (`sendRequest` retries only while nothing was shown).
 */
export async function postStream(args: PostStreamArgs): Promise<StreamResponse> {
	const options = args.options ?? {};
	const retrier = args.retrier ?? createRetrier({provider: args.provider, options, signal: args.signal, onRetry: args.onRetry});
	const context: Context = {
		provider: args.provider,
		signal: args.signal,
		maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
		bodyTimeoutMs: options.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
		secrets: args.secrets === undefined ? secretsOf(args.headers) : [...args.secrets],
	};

	// Once, before any connection: a body that cannot be serialised is no network failure, and no retry helps it.
	let body: string;
	try {
		body = JSON.stringify(args.request.body);
	} catch (error) {
		throw new ProviderError(`${args.provider}: the request body cannot be serialised (${(error as Error).message}); nothing was sent`, {kind: 'request'});
	}

	for (;;) {
		const outcome = await attemptOnce(args, body, options, context);
		if ('response' in outcome) return outcome.response;
		await retrier.wait(outcome.failure, outcome.reason, outcome.retryAfterMs);
	}
}

/** A response, or a failure worth retrying; failures that are not are thrown. */
type Outcome = {response: StreamResponse} | {failure: ProviderError; reason: string; retryAfterMs?: number};

async function attemptOnce(args: PostStreamArgs, body: string, options: HttpOptions, context: Context): Promise<Outcome> {
	if (args.signal?.aborted) throw aborted(context);
	let response: RawResponse;
	try {
		response = await postRaw(args.request.url, {
			headers: {...args.headers, ...STREAM_REQUEST_HEADERS},
			body,
			signal: args.signal,
			bodyTimeoutMs: context.bodyTimeoutMs,
			headersTimeoutMs: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
		});
	} catch (error) {
		if (error instanceof ProxyConfigError) throw new ProviderError(`${context.provider}: ${error.message}; nothing was sent`, {kind: 'request'});
		return connectionFailure(error, context, 'connection failed');
	}

	// "HTTP 502 through the proxy http://proxy.example:8080 (from HTTPS_PROXY)": the answer may be the proxy's own.
	const through = response.proxy ? ` through ${response.proxy}` : '';

	const {statusCode: status, headers} = response;
	if (status >= 300 && status < 400) {
		discard(response.body);
		const location = typeof headers.location === 'string' ? ` to ${quote(headers.location)}` : '';
		throw new ProviderError(`${context.provider}: HTTP ${status}${through}: redirects are not followed (redirected${location})`, {
			kind: 'http',
			status,
		});
	}

	if (status < 200 || status >= 300) {
		const reason = redact(`HTTP ${status}${through}: ${await errorBody(response, context)}`, context.secrets);
		const failure = new ProviderError(`${context.provider}: ${reason}`, {kind: 'http', status, retryable: isRetryableStatus(status)});
		if (!failure.retryable) throw failure;
		const retryAfterMs = retryAfter(headers, options.retryAfterCapMs ?? RETRY_AFTER_CAP_MS);
		return retryAfterMs === undefined ? {failure, reason} : {failure, reason, retryAfterMs};
	}

	const type = headers['content-type'];
	if (typeof type === 'string' && !type.includes('text/event-stream')) {
		const message = await errorBody(response, context);
		throw new ProviderError(redact(`${context.provider}: expected an event stream but got ${quote(type)}: ${message}`, context.secrets), {
			kind: 'http',
			status,
		});
	}

	// Wait for the first bytes: a connection dropped before them can still be retried.
	const iterator = response.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
	let first: IteratorResult<Buffer>;
	try {
		first = await iterator.next();
	} catch (error) {
		discard(response.body);
		if (errorCode(error) === BODY_TIMEOUT) throw streamFailure(error, context);
		return connectionFailure(error, context, `connection closed${through} before any response byte`);
	}

	const state = {released: false};
	return {
		response: {
			status,
			headers,
			body: streamBody(first, iterator, response.body, context, state),
			release: () => {
				state.released = true;
			},
		},
	};
}

async function* streamBody(first: IteratorResult<Buffer>, iterator: AsyncIterator<Buffer>, body: RawResponse['body'], context: Context, state: {released: boolean}): AsyncGenerator<Uint8Array> {
	let total = 0;
	let result = first;
	try {
		while (!result.done) {
			total += result.value.byteLength;
			if (total > context.maxBodyBytes) {
				throw new ProviderError(`${context.provider}: response body is larger than the ${formatBytes(context.maxBodyBytes)} limit`, {
					kind: 'stream',
				});
			}

			yield result.value;
			try {
				result = await iterator.next();
			} catch (error) {
				throw streamFailure(error, context);
			}
		}
	} finally {
		// Stopped early: the caller has its reply (let the tail arrive), or failed or gave up (drop the connection).
		if (!result.done) {
			if (state.released) void drainQuietly(iterator, body);
			else discard(body);
		}
	}
}

/** Reads a released body to its end and drops it; a tail that is slow or broken only loses the connection. */
async function drainQuietly(iterator: AsyncIterator<Buffer>, body: RawResponse['body']): Promise<void> {
	body.on('error', () => {});
	const timer = setTimeout(() => body.destroy(), RELEASE_GRACE_MS);
	timer.unref();
	try {
		let next = await iterator.next();
		while (!next.done) next = await iterator.next();
	} catch {
		// A reset or a timeout after the reply was complete changes nothing.
	} finally {
		clearTimeout(timer);
	}
}

/** Reads an error body (capped) and returns the provider's message from it. */
async function errorBody(response: RawResponse, context: Context): Promise<string> {
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of response.body as AsyncIterable<Buffer>) {
			total += chunk.byteLength;
			if (total > context.maxBodyBytes) {
				discard(response.body);
				return `error body is larger than the ${formatBytes(context.maxBodyBytes)} limit`;
			}

			chunks.push(chunk);
		}
	} catch (error) {
		if (context.signal?.aborted) throw aborted(context);
		return `error body could not be read (${describeError(error)})`;
	}

	return providerMessage(Buffer.concat(chunks).toString('utf8'));
}

function connectionFailure(error: unknown, context: Context, what: string): Outcome {
	if (context.signal?.aborted) throw aborted(context);
	// A proxy's failure says itself what and where; its refusal of a tunnel is judged like an HTTP status.
	const reason = redact(error instanceof ProxyFailure ? error.message : `${what} (${describeError(error)})`, context.secrets);
	const retryable = error instanceof ProxyFailure && error.status !== undefined ? isRetryableStatus(error.status) : RETRYABLE_CODES.has(errorCode(error) ?? '');
	const failure = new ProviderError(`${context.provider}: ${reason}`, {kind: 'network', retryable});
	if (!failure.retryable) throw failure;
	return {failure, reason};
}

function streamFailure(error: unknown, context: Context): ProviderError {
	if (error instanceof ProviderError) return error;
	if (context.signal?.aborted) return aborted(context);
	if (errorCode(error) === BODY_TIMEOUT) {
		const seconds = context.bodyTimeoutMs / 1000;
		const quiet = Number.isInteger(seconds) ? `${seconds} s` : `${context.bodyTimeoutMs} ms`;
		return new ProviderError(`${context.provider}: the response stream stalled (no data for ${quiet})`, {
			kind: 'network',
			retryable: true,
		});
	}

	return new ProviderError(redact(`${context.provider}: connection lost while streaming the response (${describeError(error)})`, context.secrets), {
		kind: 'network',
		retryable: true,
	});
}

/** Drops a body we will not read on; the error its destruction may emit needs no listener to crash on. */
function discard(body: RawResponse['body']): void {
	body.on('error', () => {});
	body.destroy();
}

function aborted(context: Context): ProviderError {
	return new ProviderError(`${context.provider}: request cancelled`, {kind: 'aborted'});
}

/** `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an HTTP date; capped. */
export function retryAfter(headers: Record<string, string | string[] | undefined>, capMs: number): number | undefined {
	const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim();
	const ms = first(headers['retry-after-ms']);
	if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.min(capMs, Math.round(Number(ms)));
	const value = first(headers['retry-after']);
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.min(capMs, Math.round(Number(value) * 1000));
	const date = Date.parse(value);
	if (Number.isNaN(date)) return undefined;
	return Math.min(capMs, Math.max(0, date - Date.now()));
}
