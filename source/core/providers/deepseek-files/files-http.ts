/**
 * The Files channel's HTTP calls. The model requests' rules hold
 * (docs/providers.md): undici, redirects never followed, a capped body, the
 * key never in an error. What is retried differs by verb, since a file
 * operation is not a model request:
 *
 * - `GET` (list, retrieve) changes nothing: retried like a model request
 *   (429, 408, 409, 5xx, dropped connections; `max_retries`, backoff,
 *   `Retry-After`).
 * - `POST` (upload) is retried only where the server cannot have stored the
 *   file: a 429 (turned away before the work) and a refused connection
 *   (nothing reached it). A 5xx, a timeout or a reset may come after the
 *   file was stored, and a second upload would leave a file the registry
 *   never learns of; those fail, and the image goes inline instead.
 * - `DELETE` is never retried: it is sent once, and its outcome reported.
 */
import {Buffer} from 'node:buffer';
import type * as z from 'zod/mini';
import {isRetryableStatus, RETRYABLE_CODES, retryAfter} from '../http.js';
import {BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS, RETRY_AFTER_CAP_MS} from '../http-limits.js';
import {postRaw} from '../http-request.js';
import {ProxyFailure, type RawResponse} from '../http-transport.js';
import {ProviderError, describeError, errorCode, formatBytes, providerMessage, quote, redact, secretsOf} from '../errors.js';
import {createRetrier, type RetryOptions} from '../retry.js';

/** A Files API answer is a small JSON object; a page of 1000 file objects is a few hundred KiB. */
export const MAX_FILES_RESPONSE_BYTES = 8 * 1024 * 1024;

export type RetryPolicy = 'idempotent' | 'upload' | 'never';

export interface FilesRequest {
	method: 'GET' | 'POST' | 'DELETE';
	url: string;
	/** The authorization header; its value is a secret every message hides. */
	headers: Record<string, string>;
	body?: {contentType: string; bytes: Uint8Array};
	retry: RetryPolicy;
	/** Names the call in messages: "deepseek files: upload image-1a2b….png". */
	what: string;
	signal?: AbortSignal | undefined;
	options?: RetryOptions & {headersTimeoutMs?: number; bodyTimeoutMs?: number};
}

function retryableStatus(status: number, policy: RetryPolicy): boolean {
	if (policy === 'never') return false;
	if (policy === 'upload') return status === 429;
	return isRetryableStatus(status);
}

function retryableConnection(error: unknown, policy: RetryPolicy): boolean {
	if (policy === 'never') return false;
	const code = errorCode(error) ?? '';
	// An upload may have reached the server on every failure but a refused connection.
	if (policy === 'upload') return code === 'ECONNREFUSED';
	return RETRYABLE_CODES.has(code);
}

/** Sends one Files API call (retried as its policy allows) and returns its JSON, checked against `schema`. */
export async function filesRequest<T>(request: FilesRequest, schema: z.ZodMiniType<T>): Promise<T> {
	const secrets = secretsOf(request.headers);
	const fail = (message: string, fields: ConstructorParameters<typeof ProviderError>[1]) => new ProviderError(redact(`${request.what}: ${message}`, secrets), fields);
	const retrier = createRetrier({provider: request.what, options: request.options, signal: request.signal});
	const headers: Record<string, string> = {...request.headers, accept: 'application/json'};
	if (request.body) {
		headers['content-type'] = request.body.contentType;
		headers['content-length'] = String(request.body.bytes.byteLength);
	}

	for (;;) {
		if (request.signal?.aborted) throw fail('cancelled', {kind: 'aborted'});
		let response: RawResponse;
		try {
			response = await postRaw(request.url, {
				method: request.method,
				headers,
				body: request.body?.bytes,
				signal: request.signal,
				headersTimeoutMs: request.options?.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
				bodyTimeoutMs: request.options?.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
			});
		} catch (error) {
			if (request.signal?.aborted) throw fail('cancelled', {kind: 'aborted'});
			const reason = error instanceof ProxyFailure ? error.message : `connection failed (${describeError(error)})`;
			const failure = fail(reason, {kind: 'network', retryable: retryableConnection(error, request.retry)});
			if (!failure.retryable) throw failure;
			await retrier.wait(failure, redact(reason, secrets));
			continue;
		}

		const through = response.proxy ? ` through ${response.proxy}` : '';
		const {statusCode: status} = response;
		if (status >= 300 && status < 400) {
			response.body.on('error', () => {}).destroy();
			throw fail(`HTTP ${status}${through}: redirects are not followed`, {kind: 'http', status});
		}

		const text = await readBody(response, request, fail);
		if (status < 200 || status >= 300) {
			const reason = `HTTP ${status}${through}: ${providerMessage(text)}`;
			const failure = fail(reason, {kind: 'http', status, retryable: retryableStatus(status, request.retry)});
			if (!failure.retryable) throw failure;
			await retrier.wait(failure, redact(reason, secrets), retryAfter(response.headers, RETRY_AFTER_CAP_MS));
			continue;
		}

		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			throw fail(`the answer is not JSON: ${quote(text)}`, {kind: 'stream'});
		}

		const parsed = schema.safeParse(json);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
			throw fail(`unexpected answer${where}: ${issue?.message ?? 'invalid'}`, {kind: 'stream'});
		}

		return parsed.data;
	}
}

async function readBody(response: RawResponse, request: FilesRequest, fail: (message: string, fields: ConstructorParameters<typeof ProviderError>[1]) => ProviderError): Promise<string> {
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of response.body as AsyncIterable<Buffer>) {
			total += chunk.byteLength;
			if (total > MAX_FILES_RESPONSE_BYTES) {
				response.body.on('error', () => {}).destroy();
				throw fail(`the answer is larger than the ${formatBytes(MAX_FILES_RESPONSE_BYTES)} limit`, {kind: 'stream'});
			}

			chunks.push(chunk);
		}
	} catch (error) {
		if (error instanceof ProviderError) throw error;
		if (request.signal?.aborted) throw fail('cancelled', {kind: 'aborted'});
		throw fail(`the answer could not be read (${describeError(error)})`, {kind: 'network'});
	}

	return Buffer.concat(chunks).toString('utf8');
}
