/**
 * One normalised token usage for every provider. `input` is the whole prompt
 * as the provider counted it, cached parts included, so ratios and budgets
 * compare across protocols; `raw` keeps the provider's own object for the
 * cache statistics, which need each provider's accounting.
 */
export interface Usage {
	/** All input tokens, cache reads and cache writes included. */
	input: number;
	output: number;
	/** Input tokens served from the prompt cache (a hit). */
	cacheRead: number;
	/** Input tokens written to the prompt cache (Anthropic creation; not a hit). */
	cacheWrite: number;
	raw: Record<string, unknown>;
}
