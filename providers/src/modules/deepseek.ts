import {model, type ProviderModule} from './module.js';

const id = 'deepseek';

/**
 * DeepSeek (api.deepseek.com). Prices in dollars per million tokens from
 * api-docs.deepseek.com/quick_start/pricing, DeepSeek V3.2 (in force since
 * 2025-09-29, as stored here on 2026-12-01): a cache hit is `cacheRead`; a
 * miss is billed as input, so a cache write costs nothing more.
 */
export const deepseek: ProviderModule = {
	id,
	baseUrl: 'https://api.deepseek.com',
	apiKeyEnv: 'DEEPSEEK_API_KEY',
	requiresAuth: true,
	models: [
		model(id, {
			id: 'deepseek-chat',
			name: 'DeepSeek V3.2 (non-thinking)',
			contextWindow: 128_000,
			maxTokens: 8192,
			input: ['text'],
			reasoning: false,
			cost: {input: 0.28, output: 0.42, cacheRead: 0.028, cacheWrite: 0},
		}),
		model(id, {
			id: 'deepseek-reasoner',
			name: 'DeepSeek V3.2 (thinking)',
			contextWindow: 128_000,
			maxTokens: 65_536,
			input: ['text'],
			reasoning: true,
			cost: {input: 0.28, output: 0.42, cacheRead: 0.028, cacheWrite: 0},
		}),
	],
	quirks: {outputTokenField: 'max_tokens', systemRole: 'system', reasoningField: 'reasoning_content', toolResultName: false, requiresReasoningContent: true},
};
