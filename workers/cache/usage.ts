/**
 * Each provider's prompt-cache accounting (spec/platform.md §8), from the provider's
 * raw usage object: how many input tokens the request had in all, how many
 * of them were read from the cache (a hit) and how many were written to it
 * (Anthropic creation: not a hit).
 */
export interface CacheUsage {
	input: number;
	cache_read: number;
	cache_write: number;
}

type Raw = Record<string, unknown>;

/** A token count: a non-negative safe integer, or undefined when missing or anything else. */
function count(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function isRecord(value: unknown): value is Raw {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A nested count that may be absent (then 0) but never malformed (then undefined). */
function optionalCount(value: unknown): number | undefined {
	return value === undefined || value === null ? 0 : count(value);
}

function detail(usage: Raw, field: string): number | undefined {
	const details = usage[field];
	if (details === undefined || details === null) return 0;
	if (!isRecord(details)) return undefined;
	return optionalCount(details.cached_tokens);
}

/** OpenAI Chat: prompt_tokens already includes prompt_tokens_details.cached_tokens. */
function chat(usage: Raw): CacheUsage | null {
	const input = count(usage.prompt_tokens);
	const read = detail(usage, 'prompt_tokens_details');
	if (input === undefined || read === undefined || read > input) return null;
	return {input, cache_read: read, cache_write: 0};
}

/** Responses: input_tokens already includes input_tokens_details.cached_tokens. */
function responses(usage: Raw): CacheUsage | null {
	const input = count(usage.input_tokens);
	const read = detail(usage, 'input_tokens_details');
	if (input === undefined || read === undefined || read > input) return null;
	return {input, cache_read: read, cache_write: 0};
}

/** Anthropic: input_tokens is the uncached rest; reads and creation come on top. */
function anthropic(usage: Raw): CacheUsage | null {
	const plain = count(usage.input_tokens);
	const read = optionalCount(usage.cache_read_input_tokens);
	const write = optionalCount(usage.cache_creation_input_tokens);
	if (plain === undefined || read === undefined || write === undefined) return null;
	return {input: plain + read + write, cache_read: read, cache_write: write};
}

/** DeepSeek: prompt_cache_hit_tokens and prompt_cache_miss_tokens partition the input. */
function deepseek(usage: Raw): CacheUsage | null {
	const hit = count(usage.prompt_cache_hit_tokens);
	const miss = count(usage.prompt_cache_miss_tokens);
	if (hit === undefined || miss === undefined) return null;
	return {input: hit + miss, cache_read: hit, cache_write: 0};
}

/**
 * Any other protocol: the host's own shape, input counting the cached
 * parts too, as an extension provider's `usage` frame reports it
 * (`{input, output, cacheRead, cacheWrite}`) or a provider worker answers it
 * (`{input, output, cache_read, cache_write}`).
 */
function neutral(usage: Raw): CacheUsage | null {
	const input = count(usage.input);
	const read = optionalCount(usage.cacheRead ?? usage.cache_read);
	const write = optionalCount(usage.cacheWrite ?? usage.cache_write);
	if (input === undefined || read === undefined || write === undefined || read + write > input) return null;
	return {input, cache_read: read, cache_write: write};
}

/**
 * The accounting of one response, or null when its usage is missing or not
 * recognisable (counted as unknown, never as zero). The protocol picks the
 * accounting; an `openai` request turned into a Responses one by a wire
 * module reports the Responses shape, and a DeepSeek hit/miss pair wins
 * wherever it appears, since it is the only exact split such a server gives.
 */
export function cacheUsage(protocol: string, raw: unknown): CacheUsage | null {
	if (!isRecord(raw)) return null;
	if (protocol === 'anthropic') return anthropic(raw);
	if (protocol === 'deepseek' || raw.prompt_cache_hit_tokens !== undefined || raw.prompt_cache_miss_tokens !== undefined) return deepseek(raw);
	if (protocol === 'responses') return responses(raw);
	if (protocol === 'openai') return raw.prompt_tokens === undefined && raw.input_tokens !== undefined ? responses(raw) : chat(raw);
	return neutral(raw);
}
