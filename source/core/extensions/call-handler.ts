import {describeThrown} from './describe-thrown.js';
import type {EventTag} from './event-tags.js';

/** Any extension handler: an event handler, a resources discoverer, a system-prompt transform. */
export type ExtensionHandler = (event: unknown, ctx: {tag: EventTag; extension: string}) => unknown;

export type HandlerOutcome = {ok: true; value: unknown} | {ok: false; message: string};

/**
 * Calls one extension handler the way every handler is called
 * (EXTENSIONS.md "Events"): with its own plain JSON copy of the payload, so
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

	let timer: NodeJS.Timeout | undefined;
	const running = (async () => handler(copy, ctx))();
	// After a timeout the handler settles unobserved: never an unhandled rejection.
	running.catch(() => {});
	try {
		const value = await Promise.race([
			running,
			new Promise<never>((_resolve, reject) => {
				timer = setTimeout(() => reject(new HandlerTimeout()), timeoutMs);
			}),
		]);
		return {ok: true, value};
	} catch (error) {
		return {ok: false, message: error instanceof HandlerTimeout ? `did not answer within ${timeoutMs / 1000} s` : `failed: ${describeThrown(error)}`};
	} finally {
		clearTimeout(timer);
	}
}

class HandlerTimeout extends Error {}
