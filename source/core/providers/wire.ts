/** Small pieces every adapter shares: URLs, body assembly, event JSON. */
import type * as z from 'zod/mini';
import '../zod-english.js';
import {TurnError} from '../errors.js';
import {StreamProtocolError, quote} from './errors.js';
import type {AdapterOptions} from './types.js';

/** The configured base URL (or the default when empty) with one trailing slash dropped, plus the adapter's path. */
export function endpoint(options: AdapterOptions, defaultBaseUrl: string, path: string): string {
	const base = options.baseUrl === '' ? defaultBaseUrl : options.baseUrl;
	return (base.endsWith('/') ? base.slice(0, -1) : base) + path;
}

/** Adds `extra_body` at the top level; config load already refused overlaps, this keeps it true for any caller. */
export function withExtraBody(protocol: string, body: Record<string, unknown>, options: AdapterOptions, reserved: readonly string[]): Record<string, unknown> {
	const clashes = Object.keys(options.extraBody).filter(key => reserved.includes(key) || key in body);
	if (clashes.length > 0) {
		throw new TurnError(`${protocol}: extra_body may not set ${clashes.map(key => `"${key}"`).join(', ')}: the adapter owns it`);
	}

	return {...body, ...options.extraBody};
}

/** One data line as JSON; a line that is not is a broken stream. */
export function parseEventJson(data: string, label: string): unknown {
	try {
		return JSON.parse(data);
	} catch {
		throw new StreamProtocolError(`${label}: malformed JSON in data line: ${quote(data)}`);
	}
}

/**
 * Checks an event against the fields the adapter reads and returns the event
 * itself, not zod's copy, so replayed items keep their keys and order. The
 * schemas only check (loose objects, no defaults or transforms).
 */
export function checkEvent<T>(schema: z.ZodMiniType<T>, json: unknown, label: string, what: string): T {
	const result = schema.safeParse(json);
	if (result.success) return json as T;
	const issue = result.error.issues[0];
	const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
	throw new StreamProtocolError(`${label}: unexpected ${what}${where}: ${issue?.message ?? 'invalid'}`);
}

/** Tool arguments as a JSON object for protocols that want objects; arguments that are not one replay as `{}`. */
export function argumentsObject(text: string): Record<string, unknown> {
	try {
		const value: unknown = JSON.parse(text);
		if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
	} catch {
		// The model wrote invalid JSON; the tool already answered with an error, and the wire needs an object.
	}

	return {};
}
