import {model, type ProviderModule} from './module.js';

const id = 'openrouter';

/**
 * OpenRouter (openrouter.ai/api/v1): one key for many makers' models, its
 * thinking streamed as `reasoning`. Windows, output limits and prices in
 * dollars per million tokens as its model pages list them; they follow each
 * upstream and change often, and models.json adds or corrects any.
 */
export const openrouter: ProviderModule = {
	id,
	baseUrl: 'https://openrouter.ai/api/v1',
	apiKeyEnv: 'OPENROUTER_API_KEY',
	requiresAuth: true,
	source: {
		url: 'https://openrouter.ai/api/v1/models',
		read: '2026-12-07',
		note: 'deepseek-v4-flash from a stored copy of its OpenRouter page; the Claude and GPT rows are their makers’ list prices, which OpenRouter passes through; the models API itself could not be re-read here',
	},
	models: [
		model(id, {id: 'deepseek/deepseek-v4-flash', name: 'DeepSeek V4 Flash via OpenRouter', contextWindow: 1_048_576, maxTokens: 384_000, input: ['text'], reasoning: true, cost: {input: 0.14, output: 0.28}}),
		model(id, {
			id: 'anthropic/claude-sonnet-4.5',
			name: 'Claude Sonnet 4.5 via OpenRouter',
			contextWindow: 1_000_000,
			maxTokens: 64_000,
			input: ['text', 'image'],
			reasoning: true,
			cost: {input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75},
		}),
		model(id, {
			id: 'openai/gpt-5',
			name: 'GPT-5 via OpenRouter',
			contextWindow: 400_000,
			maxTokens: 128_000,
			input: ['text', 'image'],
			reasoning: true,
			cost: {input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0},
		}),
	],
	wire: {protocol: 'openai', reasoningField: 'reasoning'},
};
