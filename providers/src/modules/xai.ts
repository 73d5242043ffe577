import {model, type ProviderModule} from './module.js';

const id = 'xai';

/** xAI's Grok (api.x.ai), OpenAI-compatible; Grok streams its thinking as `reasoning_content`. Prices in dollars per million tokens. */
export const xai: ProviderModule = {
	id,
	baseUrl: 'https://api.x.ai/v1',
	apiKeyEnv: 'XAI_API_KEY',
	requiresAuth: true,
	source: {url: 'https://docs.x.ai/docs/models', read: '2025-10-21', note: 'the date of the stored copy of the page, which lists windows; prices as xAI announced them; output limits are not listed'},
	models: [
		model(id, {
			id: 'grok-4-fast-reasoning',
			name: 'Grok 4 Fast (thinking)',
			contextWindow: 2_000_000,
			input: ['text', 'image'],
			reasoning: true,
			cost: {input: 0.2, output: 0.5, cacheRead: 0.05, cacheWrite: 0},
		}),
		model(id, {id: 'grok-code-fast-1', name: 'Grok Code Fast 1', contextWindow: 256_000, input: ['text'], reasoning: true, cost: {input: 0.2, output: 1.5, cacheRead: 0.02, cacheWrite: 0}}),
		model(id, {id: 'grok-4-0709', name: 'Grok 4', contextWindow: 256_000, input: ['text', 'image'], reasoning: true, cost: {input: 3, output: 15, cacheRead: 0.75, cacheWrite: 0}}),
	],
	wire: {protocol: 'openai', outputTokenField: 'max_tokens', reasoningField: 'reasoning_content'},
};
