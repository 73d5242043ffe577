import {createHash} from 'node:crypto';

export const predictions = ['new', 'append', 'compact', 'reset'] as const;
export type Prediction = (typeof predictions)[number];

/** The text `summaryMessage` (source/core/history/compaction.ts) starts a compaction summary with; its marker field never reaches the wire. */
const SUMMARY_PREFIX = '"Summary of the earlier conversation';

/**
 * The request's prompt as a chain of hashes, one per element in wire order
 * (tools, then system/instructions, then each message or input item): entry
 * i digests elements 0..i, so two requests share a prefix of n elements
 * exactly when their entries n-1 are equal. Only digests are kept, never text.
 */
export interface WireShape {
	chain: string[];
	/** A compaction summary is among the messages. */
	summary: boolean;
}

/**
 * Wire shapes, one request after another: an element that is the very
 * frozen object at the same place in the previous request (prefix-reuse
 * frames hand the worker the same frozen messages again) keeps its digest,
 * as long as everything before it did; the rest is hashed.
 */
export class WireShaper {
	#last: {head: string[]; elements: unknown[]; chain: string[]; summaries: boolean[]} = {head: [], elements: [], chain: [], summaries: []};

	shape(body: Record<string, unknown>): WireShape {
		const items = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
		// The tools and the system prompt are small and rebuilt with every request: compared by text.
		const head = [JSON.stringify(body.tools ?? null) ?? 'null', JSON.stringify(body.system ?? body.instructions ?? null) ?? 'null'];
		const last = this.#last;
		const chain: string[] = [];
		const summaries: boolean[] = [];
		let previous = '';
		let same = true;
		const add = (text: string) => {
			summaries.push(text.includes(SUMMARY_PREFIX));
			previous = createHash('sha256').update(previous).update('\n').update(text).digest('hex');
			chain.push(previous);
		};

		for (const [index, text] of head.entries()) {
			same &&= text === last.head[index];
			if (same) {
				previous = last.chain[index]!;
				chain.push(previous);
				summaries.push(last.summaries[index]!);
			} else {
				add(text);
			}
		}

		for (const [index, element] of items.entries()) {
			const at = index + head.length;
			// Frozen here means deeply frozen (only prefix reuse freezes), so the same object is the same text.
			same &&= element === last.elements[index] && typeof element === 'object' && element !== null && Object.isFrozen(element);
			if (same) {
				previous = last.chain[at]!;
				chain.push(previous);
				summaries.push(last.summaries[at]!);
			} else {
				add(JSON.stringify(element) ?? 'null');
			}
		}

		this.#last = {head, elements: items, chain, summaries};
		return {chain, summary: summaries.includes(true)};
	}
}

export function wireShape(body: Record<string, unknown>): WireShape {
	return new WireShaper().shape(body);
}

/** What a stream's last request looked like: its element count and the digest of all its elements. */
export interface StreamTip {
	length: number;
	prefix: string;
}

/**
 * new: the stream's first request (or its first since it was evicted);
 * append: the previous request is a prefix of this one, so a provider cache
 * can serve all of it; compact: not a prefix, and the history shrank or
 * carries a compaction summary; reset: anything else (changed system prompt,
 * tools or an earlier message). A prediction, not an observation (spec/platform.md §8).
 */
export function predict(tip: StreamTip | undefined, shape: WireShape): Prediction {
	if (!tip) return 'new';
	if (tip.length <= shape.chain.length && shape.chain[tip.length - 1] === tip.prefix) return 'append';
	if (shape.summary || shape.chain.length < tip.length) return 'compact';
	return 'reset';
}

export function tipOf(shape: WireShape): StreamTip {
	return {length: shape.chain.length, prefix: shape.chain.at(-1) ?? ''};
}
