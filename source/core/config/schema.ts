import * as z from 'zod/mini';
import {providerIdPattern} from '../catalogue/provider-id.js';

/** Names spec/platform.md §7 removed: explicit BPE tokenizers fail instead of silently degrading. */
export const removedTokenizers: readonly string[] = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'];

/** The one tokenizer (spec/platform.md §7): a conservative estimate from UTF-8 bytes. */
export const UTF8_BYTES_TOKENIZER = 'utf8_bytes';

/** Why `budget.tokenizer` cannot be `value`, naming the value and the fix; null for the one valid value. */
export function tokenizerProblem(value: unknown): string | null {
	if (value === UTF8_BYTES_TOKENIZER) return null;
	const given = JSON.stringify(value);
	const fix = `omit "tokenizer" or set it to "${UTF8_BYTES_TOKENIZER}" (a conservative estimate from UTF-8 bytes)`;
	return typeof value === 'string' && removedTokenizers.includes(value) ? `${given} is a BPE tokenizer, and BPE tokenizers were removed; ${fix}` : `${given} is not a tokenizer; ${fix}, the only one`;
}

/** The API config's `budget` (spec/platform.md §7) but its `tokenizer`: the budget worker reads the same fields from its data. */
export const budgetFields = {
	window: z.int().check(z.positive(), z.describe('context window in tokens')),
	reserve_output: z.optional(z.int().check(z.nonnegative())),
	threshold: z.optional(z.number().check(z.gt(0), z.lte(1))),
	safety: z.optional(z.number().check(z.gte(0), z.lt(1))),
	tool_ratio: z.optional(z.number().check(z.gt(0), z.lte(1))),
	image_tokens: z.optional(z.int().check(z.nonnegative())),
};

const budgetSchema = z.strictObject({
	...budgetFields,
	tokenizer: z.optional(z.string().check(z.refine(value => tokenizerProblem(value) === null, {error: issue => tokenizerProblem(issue.input) ?? ''}))),
});

/** A sandbox's folders or domains: at most 256 entries, none empty. */
const sandboxList = z.array(z.string().check(z.minLength(1))).check(z.maxLength(256));

/** A worker binding as configs spell it: an argv (never a shell line) and an optional folder. */
export const workerBindingSchema = z.strictObject({
	exec: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
	cwd: z.optional(z.string().check(z.minLength(1))),
	// The worker runs in the sandbox (docs/sandbox.md): writes only in the temporary folder and allowWrite, the network only to allowedDomains.
	sandbox: z.optional(z.union([z.boolean(), z.strictObject({allowWrite: z.optional(sandboxList), allowedDomains: z.optional(sandboxList)})])),
});

/** spec/platform.md §2: a worker's stderr is drained but only this much of it is kept. */
export const DEFAULT_IO_LIMIT_BYTES = 1024 * 1024;

export const modelConfigSchema = z.strictObject({
	/** A built-in protocol; with a provider worker, any name that worker understands. Absent when `provider` names a catalogue provider. */
	protocol: z.optional(z.string().check(z.minLength(1))),
	base_url: z.optional(z.url({protocol: /^https?$/, error: 'must be an http:// or https:// URL'})),
	/** Required with `protocol`; with a catalogue `provider`, absent means that provider's first model. */
	model: z.optional(z.string().check(z.minLength(1))),
	/** Required by the built-in adapters; a provider worker finds its own credentials. */
	api_key_env: z.optional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the NAME of an environment variable, not the key itself'))),
	max_tokens: z.optional(z.int().check(z.positive())),
	use_max_tokens: z._default(z.boolean(), false),
	/** Manifest files to load, in order; relative paths resolve against this config file. */
	plugins: z._default(z.array(z.string().check(z.minLength(1))), []),
	/**
	 * A catalogue provider's id (`"deepseek"`: docs/providers.md), which supplies the wire, the
	 * endpoint and the key's variable; or an explicit provider worker binding, which wins over a manifest's.
	 */
	provider: z.optional(z.union([z.string().check(z.regex(providerIdPattern, 'must be a catalogue provider id (lower-case a-z, 0-9, ".", "_", "-") or a worker binding {exec, cwd?}')), workerBindingSchema])),
	io_limit_bytes: z._default(z.int().check(z.positive()), DEFAULT_IO_LIMIT_BYTES),
	budget: z.optional(budgetSchema),
	extra_body: z._default(z.record(z.string(), z.unknown()), {}),
	provider_operations: z._default(z.boolean(), false),
	/** How many model requests one turn may make before it stops (our turn cap). */
	max_steps: z._default(z.int().check(z.minimum(1), z.maximum(1000)), 50),
	/** Physical retries of one model request on 429, 5xx and connection resets. */
	max_retries: z._default(z.int().check(z.minimum(0), z.maximum(10)), 4),
});

export type ModelConfig = z.infer<typeof modelConfigSchema>;

/** A worker binding as the config holds it (the object form of `provider`). */
export type WorkerBindingConfig = z.infer<typeof workerBindingSchema>;
