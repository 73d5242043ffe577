import {StringDecoder} from 'node:string_decoder';
import {FrameError} from './frames.js';

/** What a worker may answer (spec/platform.md §2): `{"id":N,"data":{…}}` (with `warnings` when it has any) or `{"id":N,"error":"…"}`. */
export type Response = {data: Record<string, unknown>; reuse?: unknown; warnings?: string[]} | {error: string};

/** How much of an offending line a message quotes. */
const QUOTED_CHARACTERS = 80;
/** How much of an error frame's text reaches a message (stderr, the --json error event, a tool error): 8 KiB. */
export const MAX_ERROR_TEXT_BYTES = 8 * 1024;
/** Warnings one answer may carry (`i`'s own bound); each is cut like an error's text. */
export const MAX_ANSWER_WARNINGS = 16;

/**
 * Reads one frame as the answer to request `id` (undefined: no call is
 * pending). Throws FrameError, worded as what the worker did, for every
 * broken rule: output while no call is pending, not JSON, not an object, a
 * missing or different ID, both or neither of data and error, an error that
 * is not a string, data that is not an object, warnings that are not a list
 * of at most MAX_ANSWER_WARNINGS strings.
 */
export function readResponse(text: string, id: number | undefined): Response {
	if (id === undefined) throw new FrameError(`wrote output while no call was pending: ${quote(text)}`);
	let frame: unknown;
	try {
		frame = JSON.parse(text);
	} catch {
		throw new FrameError(`wrote a line that is not JSON: ${quote(text)}`);
	}

	if (!isObject(frame)) throw new FrameError(`wrote a frame that is not a JSON object: ${quote(text)}`);
	if (!Object.hasOwn(frame, 'id')) throw new FrameError(`answered without an ID (expected ${id}): ${quote(text)}`);
	if (frame.id !== id) throw new FrameError(`answered with ID ${show(frame.id)} instead of ${id}`);
	const hasData = Object.hasOwn(frame, 'data');
	const hasError = Object.hasOwn(frame, 'error');
	if (hasData && hasError) throw new FrameError('answered with both "data" and "error"');
	if (hasError) {
		const error = frame.error;
		if (typeof error !== 'string') throw new FrameError(`answered with an "error" that is not a string: ${show(error)}`);
		return {error: bounded(error, 'error')};
	}

	if (!hasData) throw new FrameError('answered with neither "data" nor "error"');
	const data = frame.data;
	if (!isObject(data)) throw new FrameError(`answered with "data" that is not a JSON object: ${show(data)}`);
	const warnings = Object.hasOwn(frame, 'warnings') ? readWarnings(frame.warnings) : undefined;
	// `reuse` is read only from workers that opted into prefix reuse; for any other it is an unknown field.
	return {data, ...(Object.hasOwn(frame, 'reuse') ? {reuse: frame.reuse} : {}), ...(warnings === undefined ? {} : {warnings})};
}

function readWarnings(warnings: unknown): string[] {
	if (!Array.isArray(warnings) || warnings.some(warning => typeof warning !== 'string')) throw new FrameError(`answered with "warnings" that is not a list of strings: ${show(warnings)}`);
	if (warnings.length > MAX_ANSWER_WARNINGS) throw new FrameError(`answered with ${warnings.length} warnings; an answer may carry at most ${MAX_ANSWER_WARNINGS}`);
	return (warnings as string[]).map(warning => bounded(warning, 'warning'));
}

/** The first 8 KiB of an error's or a warning's text, cut at a character boundary, and how much more there was. */
function bounded(text: string, what: 'error' | 'warning'): string {
	// Every character is at most 3 UTF-8 bytes per UTF-16 unit: shorter texts need no measuring.
	if (text.length * 3 <= MAX_ERROR_TEXT_BYTES) return text;
	const bytes = Buffer.from(text, 'utf8');
	if (bytes.length <= MAX_ERROR_TEXT_BYTES) return text;
	// The decoder holds back a character cut in two, so the kept part is whole characters.
	const kept = new StringDecoder('utf8').write(bytes.subarray(0, MAX_ERROR_TEXT_BYTES));
	return `${kept}… [${bytes.length - Buffer.byteLength(kept)} more bytes of the ${what} cut]`;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A line that is not a frame, as a JSON string so it stays printable. */
function quote(text: string): string {
	return text.length > QUOTED_CHARACTERS ? `${JSON.stringify(text.slice(0, QUOTED_CHARACTERS))}…` : JSON.stringify(text);
}

/** A value from a frame, as JSON. */
function show(value: unknown): string {
	const json = JSON.stringify(value);
	return json.length > QUOTED_CHARACTERS ? `${json.slice(0, QUOTED_CHARACTERS)}…` : json;
}
