import {describeThrown} from './describe-thrown.js';
import type {EventTag} from './event-tags.js';
import {TimedOut, withinTime} from './within-time.js';

/** Any extension handler: an event handler, a resources discoverer, a system-prompt transform. */
export type ExtensionHandler = (event: unknown, ctx: {tag: EventTag; extension: string}) => unknown;

export type HandlerOutcome = {ok: true; value: unknown} | {ok: false; message: string};

/**
 * Calls one extension handler the way every handler is called
 * (spec/extensions.md §5): with its own plain JSON copy of the payload, so
 * keeping or changing it changes nothing in the host, and under a timeout,
 * after which it settles unobserved. Never throws: a failure is an outcome
 * whose message completes "handler …" (`failed: …`, `did not answer within 10 s`).
 */
export async function callHandler(handler: ExtensionHandler, payload: unknown, ctx: {tag: EventTag; extension: string}, timeoutMs: number): Promise<HandlerOutcome> {
	let copy: unknown;
	try {
		copy = payload === undefined ? undefined : JSON.parse(JSON.stringify(payload));
	} catch (error) {
		return {ok: false, message: `got no payload: ${describeThrown(error)}`};
	}

	try {
		return {ok: true, value: await withinTime((async () => handler(copy, ctx))(), timeoutMs)};
	} catch (error) {
		return {ok: false, message: error instanceof TimedOut ? `did not answer within ${timeoutMs / 1000} s` : `failed: ${describeThrown(error)}`};
	}
}
