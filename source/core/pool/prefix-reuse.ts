import {FrameError} from './frames.js';

/**
 * Prefix reuse: an opt-in encoding of spec/platform.md §2 frames for workers whose
 * manifest entries say `"prefix_reuse": true` (the official ones do). The
 * data a hook sees and returns is still the full data; only the frame
 * leaves out what the other side already holds. A frame's top-level
 * `reuse` maps a JSON Pointer (RFC 6901) to a count: the array at that
 * pointer in the frame's `data` is only the tail, and the full array is the
 * first `count` elements of its base followed by that tail.
 *
 * - In a request, the base is the full array at the same pointer in the
 *   last request that named the pointer in its `reuse` (none yet: empty).
 *   The core names every array it tracks, with 0 when nothing is reused, so
 *   both sides keep the same bases.
 * - In a response, the base is the full array at the same pointer in the
 *   request being answered.
 *
 * Tracked arrays sit directly under `data` (`/messages`, `/history`) or one
 * object below it (`/body/messages`, `/body/input`): where every lifecycle
 * event keeps its history.
 */
export type Reuse = Record<string, number>;

/** The arrays a frame may shorten, by pointer, in key order. */
export function reusableArrays(data: Record<string, unknown>): Array<[string, unknown[]]> {
	const found: Array<[string, unknown[]]> = [];
	for (const [key, value] of Object.entries(data)) {
		if (Array.isArray(value)) {
			found.push([pointerOf([key]), value]);
		} else if (isRecord(value)) {
			for (const [inner, nested] of Object.entries(value)) {
				if (Array.isArray(nested)) found.push([pointerOf([key, inner]), nested]);
			}
		}
	}

	return found;
}

/** `["body","messages"]` → `/body/messages`, with `~` and `/` escaped as RFC 6901 says. */
export function pointerOf(tokens: readonly string[]): string {
	return tokens.map(token => `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The tokens of a one- or two-token pointer; throws FrameError for any other. */
export function tokensOf(pointer: string): string[] {
	if (!pointer.startsWith('/')) throw new FrameError(`a reuse pointer must start with "/" (got ${JSON.stringify(pointer)})`);
	const tokens = pointer
		.slice(1)
		.split('/')
		.map(token => token.replaceAll('~1', '/').replaceAll('~0', '~'));
	if (tokens.length > 2) throw new FrameError(`a reuse pointer names an array at most two levels deep (got ${JSON.stringify(pointer)})`);
	return tokens;
}

/** The array at `pointer` in `data`, if there is one. */
export function arrayAt(data: Record<string, unknown>, pointer: string): unknown[] | undefined {
	let value: unknown = data;
	for (const token of tokensOf(pointer)) {
		if (!isRecord(value) || !Object.hasOwn(value, token)) return undefined;
		value = value[token];
	}

	return Array.isArray(value) ? value : undefined;
}

/** `data` with the array at `pointer` replaced, copying only the objects on the way (the given ones may be shared). */
export function withArrayAt(data: Record<string, unknown>, pointer: string, array: unknown[]): Record<string, unknown> {
	const [first, second] = tokensOf(pointer) as [string, string | undefined];
	if (second === undefined) return {...data, [first]: array};
	return {...data, [first]: {...(data[first] as Record<string, unknown>), [second]: array}};
}

/** A frame's `reuse` field, checked: an object of pointers to unsigned integers. */
export function readReuse(value: unknown): Reuse {
	if (!isRecord(value)) throw new FrameError(`"reuse" must be an object of JSON Pointers to counts (got ${show(value)})`);
	for (const [pointer, count] of Object.entries(value)) {
		tokensOf(pointer);
		if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
			throw new FrameError(`"reuse" gives ${JSON.stringify(pointer)} the count ${show(count)}; a count is an unsigned integer`);
		}
	}

	return value as Reuse;
}

/**
 * Rebuilds the full arrays of a received frame's `data` in place (it was
 * just parsed, so it is ours to change): each one becomes the first
 * `count` elements of `baseOf(pointer)` followed by the tail the frame
 * carried. Throws FrameError when a pointer names no array or the base is
 * shorter than the count. Returns each rebuilt array with its new tail.
 */
export function restoreArrays(data: Record<string, unknown>, reuse: Reuse, baseOf: (pointer: string) => readonly unknown[] | undefined): Array<{pointer: string; full: unknown[]; added: unknown[]}> {
	const restored: Array<{pointer: string; full: unknown[]; added: unknown[]}> = [];
	for (const [pointer, count] of Object.entries(reuse)) {
		const tail = arrayAt(data, pointer);
		if (tail === undefined) throw new FrameError(`"reuse" names ${JSON.stringify(pointer)}, but the data has no array there`);
		const base = baseOf(pointer) ?? [];
		if (count > base.length) {
			throw new FrameError(`"reuse" takes ${count} elements of ${JSON.stringify(pointer)} from a base of ${base.length}`);
		}

		const full = count === 0 ? tail : [...base.slice(0, count), ...tail];
		if (count > 0) {
			const [first, second] = tokensOf(pointer) as [string, string | undefined];
			if (second === undefined) data[first] = full;
			else (data[first] as Record<string, unknown>)[second] = full;
		}

		restored.push({pointer, full, added: tail});
	}

	return restored;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
	const json = JSON.stringify(value) ?? String(value);
	return json.length > 80 ? `${json.slice(0, 80)}…` : json;
}
