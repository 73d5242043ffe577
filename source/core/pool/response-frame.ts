import {FrameError} from './frames.js';

/** What a worker may answer (seed §2): `{"id":N,"data":{…}}` or `{"id":N,"error":"…"}`. */
export type Response = {data: Record<string, unknown>; reuse?: unknown} | {error: string};

/** How much of an offending line a message quotes. */
const QUOTED_CHARACTERS = 80;

/**
 * Reads one frame as the answer to request `id` (undefined: no call is
 * pending). Throws FrameError, worded as what the worker did, for every
 * broken rule: output while no call is pending, not JSON, not an object, a
 * missing or different ID, both or neither of data and error, an error that
 * is not a string, data that is not an object.
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
	if (frame['id'] !== id) throw new FrameError(`answered with ID ${show(frame['id'])} instead of ${id}`);
	const hasData = Object.hasOwn(frame, 'data');
	const hasError = Object.hasOwn(frame, 'error');
	if (hasData && hasError) throw new FrameError('answered with both "data" and "error"');
	if (hasError) {
		const error = frame['error'];
		if (typeof error !== 'string') throw new FrameError(`answered with an "error" that is not a string: ${show(error)}`);
		return {error};
	}

	if (!hasData) throw new FrameError('answered with neither "data" nor "error"');
	const data = frame['data'];
	if (!isObject(data)) throw new FrameError(`answered with "data" that is not a JSON object: ${show(data)}`);
	// `reuse` is read only from workers that opted into prefix reuse; for any other it is an unknown field.
	return Object.hasOwn(frame, 'reuse') ? {data, reuse: frame['reuse']} : {data};
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
