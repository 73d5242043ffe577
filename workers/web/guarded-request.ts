import {request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders} from 'node:http';
import {request as httpsRequest} from 'node:https';
import {isIP, type LookupFunction} from 'node:net';
import type {AddressPolicy} from './address-policy.js';
import {CLIENT_TIMEOUT_MS, MAX_REQUESTS} from './limits.js';

/** What one tool call shares across its requests: the policy, the DNS path, the deadline and the request count. */
export interface CallGuard {
	policy: AddressPolicy;
	resolve: (host: string) => Promise<string[]>;
	/** Aborts at the call's deadline. */
	signal: AbortSignal;
	/** HTTP requests made so far by this call. */
	requests: number;
}

export function createCallGuard(policy: AddressPolicy, resolve: (host: string) => Promise<string[]>, timeoutMs = CLIENT_TIMEOUT_MS): CallGuard {
	return {policy, resolve, signal: AbortSignal.timeout(timeoutMs), requests: 0};
}

export class TimeoutError extends Error {
	constructor() {
		super(`timed out: the whole call may take at most ${CLIENT_TIMEOUT_MS / 1000} s (DNS, connections, redirects and body)`);
	}
}

export interface GuardedRequest {
	url: URL;
	method: 'GET' | 'POST';
	headers: OutgoingHttpHeaders;
	body?: string;
}

/**
 * Sends one HTTP request under the call's guard (spec/platform.md §9): http or https
 * only; at most MAX_REQUESTS per call; every address of the host checked
 * by the policy, then the connection made to the checked address itself
 * (the URL's name stays the Host header and the TLS name), so a DNS answer
 * cannot change between the check and the connection. No proxy: the
 * request goes straight out on its own agent, whatever the environment
 * says. Resolves with the response head; its body is the caller's to read.
 */
export async function sendGuarded(request: GuardedRequest, guard: CallGuard): Promise<IncomingMessage> {
	const {url} = request;
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`only http:// and https:// URLs can be fetched (got ${url.protocol}//)`);
	if (guard.requests >= MAX_REQUESTS) {
		throw new Error(`stopped: one call makes at most ${MAX_REQUESTS} HTTP requests, redirects included; request ${guard.requests + 1} (to ${url.href}) was not made`);
	}

	if (guard.signal.aborted) throw new TimeoutError();
	const addresses = await withDeadline(guard.resolve(url.hostname), guard.signal);
	for (const address of addresses) guard.policy.check(url.hostname, address);
	const address = addresses[0]!;
	const family = isIP(address);
	guard.requests++;
	const pinned = ((_host: string, options: {all?: boolean}, callback: (...args: unknown[]) => void) => {
		if (options.all) callback(null, [{address, family}]);
		else callback(null, address, family);
	}) as unknown as LookupFunction;

	return new Promise((resolve, reject) => {
		const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
		const outgoing = send({
			protocol: url.protocol,
			hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
			port: url.port || undefined,
			path: `${url.pathname}${url.search}`,
			method: request.method,
			headers: request.headers,
			lookup: pinned,
			agent: false,
		});
		const onAbort = () => outgoing.destroy(new TimeoutError());
		guard.signal.addEventListener('abort', onAbort, {once: true});
		outgoing.on('response', response => {
			// The deadline also covers the body.
			response.once('close', () => guard.signal.removeEventListener('abort', onAbort));
			guard.signal.addEventListener('abort', () => response.destroy(new TimeoutError()), {once: true});
			resolve(response);
		});
		outgoing.on('error', error => {
			guard.signal.removeEventListener('abort', onAbort);
			reject(guard.signal.aborted ? new TimeoutError() : new Error(`${request.method} ${url.origin}: ${describeNetworkError(error)}`));
		});
		outgoing.end(request.body);
	});
}

/**
 * The body's bytes up to `maxBytes`; a longer body is cut there and its
 * connection dropped without reading the rest.
 */
export async function readCapped(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{bytes: Buffer; truncated: boolean}> {
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of response as AsyncIterable<Buffer>) {
			if (size + chunk.length > maxBytes) {
				const rest = maxBytes - size;
				chunks.push(chunk.subarray(0, rest));
				size += rest;
				response.destroy();
				return {bytes: Buffer.concat(chunks, size), truncated: true};
			}

			chunks.push(chunk);
			size += chunk.length;
		}
	} catch (error) {
		if (signal.aborted) throw new TimeoutError();
		throw new Error(`the body broke off after ${size} bytes (${describeNetworkError(error as Error)})`);
	}

	return {bytes: Buffer.concat(chunks, size), truncated: false};
}

async function withDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) throw new TimeoutError();
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(new TimeoutError());
		signal.addEventListener('abort', onAbort, {once: true});
		work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}

function describeNetworkError(error: Error): string {
	const code = (error as NodeJS.ErrnoException).code;
	return code ? `${code} (${error.message})` : error.message;
}
