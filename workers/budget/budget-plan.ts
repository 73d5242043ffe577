import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {budgetFields, tokenizerProblem} from '../../source/core/config/schema.js';

const DEFAULT_THRESHOLD = 0.8;
const DEFAULT_SAFETY = 0.02;
const DEFAULT_TOOL_RATIO = 0.02;

/** The API config's `budget`, as the core hands it over; a tokenizer is checked by planLimits, with its own words. */
export const budgetSchema = z.strictObject({...budgetFields, tokenizer: z.optional(z.string())});

export type Budget = z.infer<typeof budgetSchema>;

export interface Limits {
	window: number;
	/** Tokens kept free for the answer. */
	reserveOutput: number;
	safetyTokens: number;
	/** A request whose estimate is above this does not fit: min(window × threshold, window − reserve − safety). */
	trigger: number;
	/** The most one tool result may take. */
	toolCap: number;
	/** Tokens planned per image; null counts an image by the bytes of its data URL. */
	imageTokens: number | null;
}

/**
 * The limits a budget sets (spec/platform.md §7). The output reserve is `reserve_output`,
 * else the request's `max_tokens`, else nothing beyond the safety margin.
 */
export function planLimits(budget: Budget, maxTokens: number | null): Limits {
	const problem = budget.tokenizer === undefined ? null : tokenizerProblem(budget.tokenizer);
	if (problem !== null) throw new Error(`budget.tokenizer: ${problem}`);

	const {window} = budget;
	const reserveOutput = budget.reserve_output ?? maxTokens ?? 0;
	const safetyTokens = Math.ceil(window * (budget.safety ?? DEFAULT_SAFETY));
	const trigger = Math.max(0, Math.min(Math.floor(window * (budget.threshold ?? DEFAULT_THRESHOLD)), window - reserveOutput - safetyTokens));
	return {
		window,
		reserveOutput,
		safetyTokens,
		trigger,
		toolCap: Math.max(1, Math.floor(window * (budget.tool_ratio ?? DEFAULT_TOOL_RATIO))),
		imageTokens: budget.image_tokens ?? null,
	};
}

/**
 * What each of `pending` tool results may take: the tool cap, and no more
 * than an even share of the room left under the trigger. Characters are
 * given as tokens: the byte estimate counts an ASCII character as a token,
 * and wider ones as more, which the next budget check sees.
 */
export function toolShare(limits: Limits, estimate: number, pending: number): number {
	if (pending <= 0) return limits.toolCap;
	const room = Math.max(0, limits.trigger - estimate);
	return Math.min(limits.toolCap, Math.floor(room / pending));
}
