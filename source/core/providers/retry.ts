/**
 * When and how long to wait before sending a model request again. One
 * `Retrier` serves a whole `sendRequest`: the HTTP layer's retries (before
 * the first body byte) and the retry of a stream that failed before showing
 * anything count against the same `maxRetries`.
 */
import {setTimeout as delay} from 'node:timers/promises';
import {ProviderError} from './errors.js';

export const DEFAULT_MAX_RETRIES = 4;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
/** Backoff grows by up to this fraction so many clients do not retry in step. */
const JITTER = 0.1;

export interface RetryOptions {
	maxRetries?: number;
	backoffBaseMs?: number;
	backoffCapMs?: number;
	/** Waits between retries; injectable so tests need not wait. Must reject when `signal` aborts. */
	sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
	/** In [0, 1): the jitter source. */
	random?: () => number;
}

/** Told before each physical retry; the core turns it into a `retry` event and a `request_retry` hook. */
export interface RetryNotice {
	/** 1 for the first retry. */
	attempt: number;
	delayMs: number;
	reason: string;
	status?: number;
}

export interface RetrierArgs {
	/** Names the provider in messages: "openai". */
	provider: string;
	options?: RetryOptions;
	signal?: AbortSignal | undefined;
	/** Awaited before the wait: a `request_retry` hook runs before the request goes out again. */
	onRetry?: ((notice: RetryNotice) => void | Promise<void>) | undefined;
}

export interface Retrier {
	/**
	 * Tells `onRetry` and waits before the next attempt after a retryable
	 * `failure` (`reason` is its message without the provider name, already
	 * free of secrets). Throws instead when no retry is left (the failure,
	 * saying how many retries were made) or the signal aborts.
	 */
	wait(failure: ProviderError, reason: string, retryAfterMs?: number): Promise<void>;
}

export function createRetrier(args: RetrierArgs): Retrier {
	const options = args.options ?? {};
	const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
	const sleep = options.sleep ?? ((ms: number, signal: AbortSignal | undefined) => delay(ms, undefined, {signal}));
	let retries = 0;
	return {
		async wait(failure, reason, retryAfterMs) {
			if (maxRetries === 0) throw failure;
			if (retries >= maxRetries) {
				throw new ProviderError(`${failure.message} (gave up after ${maxRetries} ${maxRetries === 1 ? 'retry' : 'retries'})`, {
					kind: failure.kind,
					status: failure.status,
					retryable: true,
				});
			}

			const delayMs = retryAfterMs ?? backoff(retries, options);
			retries++;
			await args.onRetry?.({attempt: retries, delayMs, reason, ...(failure.status === undefined ? {} : {status: failure.status})});
			try {
				await sleep(delayMs, args.signal);
			} catch (error) {
				if (args.signal?.aborted) throw new ProviderError(`${args.provider}: request cancelled`, {kind: 'aborted'});
				throw error;
			}
		},
	};
}

function backoff(attempt: number, options: RetryOptions): number {
	const base = options.backoffBaseMs ?? BACKOFF_BASE_MS;
	const cap = options.backoffCapMs ?? BACKOFF_CAP_MS;
	const random = options.random ?? Math.random;
	return Math.round(Math.min(cap, base * 2 ** attempt * (1 + JITTER * random())));
}
