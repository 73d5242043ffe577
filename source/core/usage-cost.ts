import type {Usage} from './usage.js';

/**
 * A model's prices in US dollars per million tokens, as a provider
 * catalogue gives them (spec/extensions.md §11: `cost.input`,
 * `output`, `cacheRead`, `cacheWrite`). A price left out is unknown, never
 * zero: a model that is free says 0.
 */
export interface ModelPrices {
	input?: number | undefined;
	output?: number | undefined;
	cacheRead?: number | undefined;
	cacheWrite?: number | undefined;
}

/** What tokens cost, in dollars; `unknown` when some tokens had no price (then `dollars` counts only the priced ones). */
export interface Cost {
	dollars: number;
	unknown: boolean;
}

export const NO_COST: Cost = {dollars: 0, unknown: false};

const PER_MILLION = 1_000_000;

/**
 * What one request's usage cost. `usage.input` counts the whole prompt,
 * cache reads and writes included (usage.ts), so the uncached input is
 * what is left of it; each kind of token is priced apart, and a kind with
 * tokens but no price makes the cost unknown. No prices at all: unknown.
 */
export function costOf(usage: Pick<Usage, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>, prices: ModelPrices | undefined): Cost {
	if (prices === undefined) return {dollars: 0, unknown: true};
	const uncached = uncachedInput(usage);
	let dollars = 0;
	let unknown = false;
	for (const [tokens, price] of [
		[uncached, prices.input],
		[usage.output, prices.output],
		[usage.cacheRead, prices.cacheRead],
		[usage.cacheWrite, prices.cacheWrite],
	] as const) {
		if (tokens <= 0) continue;
		if (price === undefined || !Number.isFinite(price)) unknown = true;
		else dollars += (tokens * price) / PER_MILLION;
	}

	return {dollars, unknown};
}

/** The input tokens the input price applies to: `usage.input` counts the whole prompt, cache reads and writes included (usage.ts). */
export function uncachedInput(usage: Pick<Usage, 'input' | 'cacheRead' | 'cacheWrite'>): number {
	return Math.max(0, usage.input - usage.cacheRead - usage.cacheWrite);
}

/** Prices in words: `input $0.28 · output $0.42 · cache read $0.028 · cache write unknown` (per million tokens). */
export function describePrices(prices: ModelPrices): string {
	const price = (value: number | undefined) => (value === undefined ? 'unknown' : `$${value}`);
	return `input ${price(prices.input)} · output ${price(prices.output)} · cache read ${price(prices.cacheRead)} · cache write ${price(prices.cacheWrite)}`;
}

/** The sum of costs: unknown once any part is. */
export function addCost(a: Cost, b: Cost): Cost {
	return {dollars: a.dollars + b.dollars, unknown: a.unknown || b.unknown};
}

/**
 * A cost in words for the status line and `/cost`: `$0.0123`, `unknown`,
 * or `$0.0123 + unknown` when some tokens had no price. Small sums keep
 * four decimals (a one-shot often costs a fraction of a cent), larger ones two.
 */
export function formatCost(cost: Cost): string {
	if (cost.unknown && cost.dollars === 0) return 'unknown';
	const amount = cost.dollars >= 1 ? cost.dollars.toFixed(2) : cost.dollars.toFixed(4);
	return cost.unknown ? `$${amount} + unknown` : `$${amount}`;
}
