/**
 * Model requests over undici, loaded by http-request.ts at the first one (its
 * own chunk in the bundle). One keep-alive `Agent` serves the process.
 * undici's `request` follows no redirects.
 */
import {setFlagsFromString} from 'node:v8';
import {Agent, request, type Dispatcher} from 'undici';
import {errorCode} from './errors.js';
import {HEADERS_TIMEOUT, type RawRequestOptions, type RawResponse} from './http-request.js';

/** The process's dispatcher, made at the first request. */
let shared: Dispatcher | undefined;

/**
 * undici parses HTTP with llhttp compiled to WebAssembly, at its first
 * connection. V8 soon recompiles the parser's one big function with its
 * optimising tier on a background thread (about 100 ms of a core and 30 MB),
 * and a process exits only once that job is done: a one-shot answered
 * quickly waited that long after its last byte. Model replies are small
 * streams, which the baseline tier parses as fast (a 40 MiB body took the
 * same time), so the parser is compiled with the baseline tier only: the
 * flag is on until the first response arrives (the parser is compiled by
 * then, and keeps the tier it was compiled with) and off again for any
 * other WebAssembly. Left alone when node was started with a tier flag of its own.
 */
const setsTier = !/liftoff|wasm-tier/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);
let parserCompiled = false;

export async function send(url: string, options: RawRequestOptions): Promise<RawResponse> {
	const baselineTier = setsTier && !parserCompiled;
	if (baselineTier) setFlagsFromString('--liftoff-only');
	try {
		const response = await request(url, {
			dispatcher: (shared ??= new Agent()),
			method: 'POST',
			headers: options.headers,
			body: options.body,
			signal: options.signal,
			headersTimeout: options.headersTimeoutMs,
			bodyTimeout: options.bodyTimeoutMs,
		});
		parserCompiled = true;
		return {statusCode: response.statusCode, headers: response.headers, body: response.body};
	} catch (error) {
		throw errorCode(error) === HEADERS_TIMEOUT ? coded(`no response headers within ${options.headersTimeoutMs} ms`, HEADERS_TIMEOUT, error) : error;
	} finally {
		if (baselineTier) setFlagsFromString('--no-liftoff-only');
	}
}

function coded(message: string, code: string, cause: unknown): Error {
	return Object.assign(new Error(message, {cause}), {code});
}
