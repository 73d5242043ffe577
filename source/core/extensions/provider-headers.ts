import {headerRefusal, type HeadersHook} from '../providers/request-headers.js';
import type {EventBus} from './event-bus.js';

/**
 * `BeforeProviderHeaders` (spec/extensions.md §5): a transform fired
 * before each model request with its headers but the credentials. An
 * answer `{headers}` is the new set; a credential in it is dropped (and
 * said once per extension and header), as is a change to a header the
 * HTTP layer owns, which keeps the host's value.
 */
export interface ProviderHeadersEvent {
	url: string;
	protocol: string;
	model: string;
	/** Lower-case names; never `authorization`, `x-api-key`, cookies or another credential. */
	headers: Record<string, string>;
}

/** i's own bound (spec/extensions.md §5 states it): far more headers than any provider needs, so an answer past it is a mistake, not a request. */
export const MAX_EXTENSION_HEADERS = 64;
/** Servers commonly refuse a header section over 8 KiB; one value past that would fail the request. */
export const MAX_HEADER_VALUE_CHARS = 8192;

/** RFC 9110 field names: tokens. */
const fieldName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Control characters but tab: a line break in a value would split the header (undici refuses it, or worse). */
const controlCharacter = /[\u0000-\u0008\u000a-\u001f\u007f]/;

const credentialWhy = "credentials are the host's, never shown to an extension nor set by one";
const hostWhy = 'the HTTP layer sets it';

/**
 * One handler's answer as the next value, or undefined for "unchanged" (no
 * answer, `{}`). A malformed answer throws (the event bus keeps the
 * previous value and says so); refused headers go to `refuse` and are left
 * out; the host's own headers keep their values whatever the answer held.
 */
export function readProviderHeaders(answer: unknown, previous: ProviderHeadersEvent, refuse: (name: string, why: string) => void): ProviderHeadersEvent | undefined {
	if (answer === undefined || answer === null) return undefined;
	if (typeof answer !== 'object' || Array.isArray(answer)) throw new Error(`an answer must be an object, not ${Array.isArray(answer) ? 'a list' : typeof answer}`);
	const {headers} = answer as {headers?: unknown};
	if (headers === undefined) return undefined;
	if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) throw new Error('"headers" must be an object of header names and string values');
	const entries = Object.entries(headers);
	if (entries.length > MAX_EXTENSION_HEADERS) throw new Error(`"headers" has ${entries.length} entries; at most ${MAX_EXTENSION_HEADERS}`);
	const next: Record<string, string> = {};
	for (const [given, value] of entries) {
		if (!fieldName.test(given)) throw new Error(`"headers": ${JSON.stringify(given)} is not a header name`);
		const name = given.toLowerCase();
		if (typeof value !== 'string') throw new Error(`"headers.${name}" must be a string`);
		if (value.length > MAX_HEADER_VALUE_CHARS) throw new Error(`"headers.${name}" is over ${MAX_HEADER_VALUE_CHARS} characters`);
		if (controlCharacter.test(value)) throw new Error(`"headers.${name}" contains a line break or another control character`);
		const refusal = headerRefusal(name);
		if (refusal === 'credential') refuse(name, credentialWhy);
		// Handing the host's own header back unchanged (`{...event.headers, …}`) is no attempt to set it.
		else if (refusal === 'host' && previous.headers[name] !== value) refuse(name, hostWhy);
		else if (refusal === undefined) next[name] = value;
	}

	for (const [name, value] of Object.entries(previous.headers)) if (headerRefusal(name) === 'host') next[name] = value;
	return {...previous, headers: next};
}

/** The hook a model request calls with its headers, when an extension handles `BeforeProviderHeaders`. */
export function providerHeadersHook(events: EventBus | null, caller: {protocol: string; model: string}): HeadersHook | undefined {
	if (!events?.has('BeforeProviderHeaders')) return undefined;
	return async ({url, headers}) => {
		const event: ProviderHeadersEvent = {url, protocol: caller.protocol, model: caller.model, headers};
		const answered = await events.transform('BeforeProviderHeaders', event, (answer, previous, extension) =>
			readProviderHeaders(answer, previous, (name, why) => events.reportOnce(`BeforeProviderHeaders ${extension} ${name}`, `extension ${extension}: BeforeProviderHeaders cannot set ${name} (${why}); ignored`)),
		);
		return answered.headers;
	};
}
