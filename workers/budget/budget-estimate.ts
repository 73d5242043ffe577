import type {Limits} from './budget-plan.js';
import {HistoryMeter, measureTools} from './history-meter.js';

/** The usage of the last model response, as the core reports it: which model, and how many history messages the request carried. */
export interface UsageAnchor {
	model: string;
	input: number;
	output: number;
	request_messages: number;
}

export interface Estimate {
	tokens: number;
	/** `usage`: anchored on the last response's usage; `utf8_bytes`: every byte a token. */
	method: 'usage' | 'utf8_bytes';
	/** Why the anchor was not used, when there was one. */
	note: string | null;
}

/** Framing a new message may add on the wire beyond its own bytes. */
const NEW_MESSAGE_ALLOWANCE = 16;
/** Request histories remembered, to recognise the prefix an anchor speaks of. */
const REMEMBERED_REQUESTS = 32;
/** A usage above this many windows is not a usage but an overflow. */
const USAGE_OVERFLOW_WINDOWS = 8;

/**
 * Estimates a request's input tokens (spec/platform.md §7). The UTF-8 byte count is an
 * upper bound (a byte-level token covers at least one byte); when the last
 * response's usage is valid, is for this model, and its request was exactly
 * this history's prefix (by fingerprint, as measured here before), the
 * estimate is that usage plus the bytes of what came since, plus the tool
 * schemas when they changed. Unknown is never zero: without a usable anchor
 * the bytes count.
 */
export class BudgetEstimator {
	readonly #meter = new HistoryMeter();
	/** Fingerprint of a request's history → fingerprint of its tool schemas. */
	readonly #requests = new Map<string, string>();

	estimate(input: {history: readonly unknown[]; tools: readonly unknown[]; model: string; anchor: UsageAnchor | null; limits: Limits; request: boolean}): Estimate {
		const {history, limits} = input;
		const measured = this.#meter.measure(history, limits.imageTokens);
		const tools = measureTools(input.tools);
		const bytes = measured.tokens.reduce((sum, tokens) => sum + tokens, 0) + tools.tokens;
		if (input.request && measured.chain.length > 0) this.#remember(measured.chain.at(-1)!, tools.fingerprint);
		if (input.anchor === null) return {tokens: bytes, method: 'utf8_bytes', note: null};

		const {anchor} = input;
		const problem = anchorProblem(anchor, input.model, history, limits.window);
		if (problem) return {tokens: bytes, method: 'utf8_bytes', note: problem};
		const toolsThen = this.#requests.get(measured.chain[anchor.request_messages - 1]!);
		if (toolsThen === undefined) return {tokens: bytes, method: 'utf8_bytes', note: "the usage is for a request whose history is not this history's prefix"};
		const anchored = anchoredTokens(measured.tokens, anchor) + (toolsThen === tools.fingerprint ? 0 : tools.tokens);
		// Both are at least the true count; the smaller is the better bound.
		return anchored < bytes ? {tokens: anchored, method: 'usage', note: null} : {tokens: bytes, method: 'utf8_bytes', note: null};
	}

	#remember(chain: string, tools: string): void {
		this.#requests.delete(chain);
		this.#requests.set(chain, tools);
		if (this.#requests.size > REMEMBERED_REQUESTS) this.#requests.delete(this.#requests.keys().next().value!);
	}
}

/**
 * A history's tokens from the provider's count of an earlier request it
 * starts with: that request's input and its answer's output, then each
 * message since at its measured bytes (`measured`, one entry a message) and
 * its framing. The one rule the budget and /context share.
 */
export function anchoredTokens(measured: readonly number[], anchor: UsageAnchor): number {
	let anchored = anchor.input + anchor.output;
	for (let index = anchor.request_messages + 1; index < measured.length; index++) anchored += measured[index]! + NEW_MESSAGE_ALLOWANCE;
	return anchored;
}

/** Why `anchor` cannot anchor an estimate of `history` for `model`, or null when it can; `window` (tokens) bounds a sane usage, null: no bound. */
export function anchorProblem(anchor: UsageAnchor, model: string, history: readonly unknown[], window: number | null): string | null {
	if (anchor.model !== model) return `the usage is for model ${JSON.stringify(anchor.model)}, not ${JSON.stringify(model)}`;
	const counts = [anchor.input, anchor.output];
	if (!counts.every(count => Number.isSafeInteger(count) && count >= 0) || anchor.input === 0) return 'the usage is incomplete or not a count';
	if (window !== null && anchor.input + anchor.output > window * USAGE_OVERFLOW_WINDOWS) return 'the usage overflows any sane window';
	const n = anchor.request_messages;
	if (!Number.isSafeInteger(n) || n < 1 || n >= history.length) return 'the usage is for a history this one does not extend';
	const reply = history[n] as {role?: unknown} | undefined;
	if (reply?.role !== 'assistant') return "the message after the usage's request is not its answer";
	return null;
}
