import {createHash} from 'node:crypto';
import {WIRE_METADATA} from '../../source/core/history/compaction.js';

export interface Measured {
	/** Estimated tokens of each message: UTF-8 bytes of what goes on the wire, images as planned. */
	tokens: number[];
	/** chain[i]: the fingerprint of messages [0, i] — equal chains mean equal prefixes. */
	chain: string[];
}

interface Entry {
	message: unknown;
	tokens: number;
	chain: string;
}

/**
 * Measures a history for the budget, remembering the last one it measured:
 * a history that extends it (the usual next request) only costs its new
 * messages, since the old ones are compared in place (as parsed values, at
 * once when they are the very objects measured last) instead of serialised
 * and hashed again.
 * Fingerprints ignore top-level `_` metadata except the two keys adapters
 * replay (spec/platform.md §7).
 */
export class HistoryMeter {
	#previous: Entry[] = [];
	#imageTokens: number | null = null;

	measure(history: readonly unknown[], imageTokens: number | null): Measured {
		if (imageTokens !== this.#imageTokens) {
			this.#previous = [];
			this.#imageTokens = imageTokens;
		}

		const entries: Entry[] = [];
		let same = true;
		for (const [index, message] of history.entries()) {
			const old = this.#previous[index];
			if (same && old !== undefined && jsonEqual(old.message, message)) {
				entries.push(old);
				continue;
			}

			same = false;
			const {json, images} = wireJson(message);
			const tokens = Buffer.byteLength(json) + images.reduce((sum, url) => sum + (imageTokens ?? Buffer.byteLength(url)), 0);
			const chain = createHash('sha256')
				.update(entries.at(-1)?.chain ?? '')
				.update(json)
				.digest('hex');
			entries.push({message, tokens, chain});
		}

		this.#previous = entries;
		return {tokens: entries.map(entry => entry.tokens), chain: entries.map(entry => entry.chain)};
	}
}

/** Tokens of the tool schemas sent with a request, and their fingerprint. */
export function measureTools(tools: readonly unknown[]): {tokens: number; fingerprint: string} {
	const json = JSON.stringify(tools);
	return {tokens: tools.length === 0 ? 0 : Buffer.byteLength(json), fingerprint: createHash('sha256').update(json).digest('hex')};
}

/** A message as it counts: without local metadata, image data URLs taken out (they are planned, not counted as text). */
function wireJson(message: unknown): {json: string; images: string[]} {
	const images: string[] = [];
	const json = JSON.stringify(message, function (this: unknown, key, value: unknown) {
		if (this === message && key.startsWith('_') && !WIRE_METADATA.has(key)) return undefined;
		if (isRecord(value) && value.type === 'image_url' && isRecord(value.image_url) && typeof value.image_url.url === 'string') {
			images.push(value.image_url.url);
			return {type: 'image_url'};
		}

		return value;
	});
	return {json: json ?? '', images};
}

/** Equality of parsed JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a)) {
		if (!Array.isArray(b) || a.length !== b.length) return false;
		for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false;
		return true;
	}

	if (Array.isArray(b)) return false;
	const keysA = Object.keys(a);
	if (keysA.length !== Object.keys(b).length) return false;
	for (const key of keysA) {
		if (!Object.hasOwn(b, key) || !jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
	}

	return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
