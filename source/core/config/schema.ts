import {z} from 'zod';
import {protocols} from '../providers/types.js';

/** Names the seed removed: explicit BPE tokenizers fail instead of silently degrading. */
const removedTokenizers = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'];

const budgetSchema = z.strictObject({
	window: z.int().positive().describe('context window in tokens'),
	reserve_output: z.int().nonnegative().optional(),
	threshold: z.number().gt(0).lte(1).optional(),
	safety: z.number().gte(0).lt(1).optional(),
	tool_ratio: z.number().gt(0).lte(1).optional(),
	image_tokens: z.int().nonnegative().optional(),
	tokenizer: z
		.string()
		.refine(value => !removedTokenizers.includes(value), {
			message: 'BPE tokenizers were removed; omit tokenizer or use "utf8_bytes"',
		})
		.refine(value => value === 'utf8_bytes', {message: 'the only tokenizer is "utf8_bytes"'})
		.optional(),
});

const pluginsSchema = z.union([
	z.string().min(1),
	z.strictObject({
		profile: z.string().min(1),
		disabled: z.array(z.string().min(1)).optional(),
	}),
]);

export const modelConfigSchema = z.strictObject({
	protocol: z.enum(protocols),
	base_url: z
		.url({protocol: /^https?$/, error: 'must be an http:// or https:// URL'})
		.optional(),
	model: z.string().min(1),
	api_key_env: z
		.string()
		.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the NAME of an environment variable, not the key itself'),
	max_tokens: z.int().positive().optional(),
	use_max_tokens: z.boolean().default(false),
	plugins: pluginsSchema.optional(),
	io_limit_bytes: z.int().positive().optional(),
	budget: budgetSchema.optional(),
	extra_body: z.record(z.string(), z.unknown()).default({}),
	provider_operations: z.boolean().default(false),
	/** How many model requests one turn may make before it stops (our turn cap). */
	max_steps: z.int().min(1).max(1000).default(50),
	/** Physical retries of one model request on 429, 5xx and connection resets. */
	max_retries: z.int().min(0).max(10).default(4),
});

export type ModelConfig = z.infer<typeof modelConfigSchema>;
