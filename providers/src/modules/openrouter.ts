import {model, type ProviderModule} from './module.js';

const id = 'openrouter';

/**
 * OpenRouter (openrouter.ai/api/v1): one key for many makers' models. Its
 * prices follow each upstream and change often, so none is listed here (the
 * cost says "unknown"); models.json adds prices or more models.
 */
export const openrouter: ProviderModule = {
	id,
	baseUrl: 'https://openrouter.ai/api/v1',
	apiKeyEnv: 'OPENROUTER_API_KEY',
	requiresAuth: true,
	models: [
		model(id, {id: 'deepseek/deepseek-chat', name: 'DeepSeek V3 via OpenRouter', input: ['text'], reasoning: false}),
		model(id, {id: 'anthropic/claude-sonnet-4.5', name: 'Claude Sonnet 4.5 via OpenRouter', input: ['text', 'image'], reasoning: true}),
		model(id, {id: 'openai/gpt-5', name: 'GPT-5 via OpenRouter', input: ['text', 'image'], reasoning: true}),
	],
	quirks: {outputTokenField: 'max_tokens', systemRole: 'system', reasoningField: 'reasoning', toolResultName: false, requiresReasoningContent: false},
};
