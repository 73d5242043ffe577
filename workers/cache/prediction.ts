import {createHash} from 'node:crypto';

export const predictions = ['new', 'append', 'compact', 'reset'] as const;
export type Prediction = (typeof predictions)[number];

/** The text `summaryMessage` (source/core/agent/compaction.ts) starts a compaction summary with; its marker field never reaches the wire. */
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

export function wireShape(body: Record<string, unknown>): WireShape {
	const items = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
	const elements: unknown[] = [body.tools ?? null, body.system ?? body.instructions ?? null, ...items];
	const chain: string[] = [];
	let previous = '';
	let summary = false;
	for (const element of elements) {
		const text = JSON.stringify(element) ?? 'null';
		if (text.includes(SUMMARY_PREFIX)) summary = true;
		previous = createHash('sha256').update(previous).update('\n').update(text).digest('hex');
		chain.push(previous);
	}

	return {chain, summary};
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
 * tools or an earlier message). A prediction, not an observation (seed §8).
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
