import {model, type ProviderModule} from './module.js';

const id = 'mistral';

/**
 * Mistral (api.mistral.ai), OpenAI-compatible Chat Completions, except that
 * it refuses fields it does not know (`stream_options`,
 * `max_completion_tokens`) and reports usage without being asked. Prices in
 * dollars per million tokens.
 */
export const mistral: ProviderModule = {
	id,
	baseUrl: 'https://api.mistral.ai/v1',
	apiKeyEnv: 'MISTRAL_API_KEY',
	requiresAuth: true,
	source: {
		url: 'https://mistral.ai/pricing#api-pricing',
		read: '2026-12-07',
		note: 'the page could not be re-read here; the figures come from a stored provider guide that quotes it, and its output limits are not listed',
	},
	models: [
		model(id, {id: 'mistral-large-latest', name: 'Mistral Large 3', contextWindow: 262_144, input: ['text', 'image'], reasoning: false, cost: {input: 0.5, output: 1.5}}),
		model(id, {id: 'mistral-medium-latest', name: 'Mistral Medium 3', contextWindow: 131_072, input: ['text', 'image'], reasoning: false, cost: {input: 0.4, output: 2}}),
		model(id, {id: 'devstral-latest', name: 'Devstral 2 (coding)', contextWindow: 262_144, input: ['text'], reasoning: false, cost: {input: 0.4, output: 2}}),
		model(id, {id: 'codestral-latest', name: 'Codestral (coding)', contextWindow: 262_144, input: ['text'], reasoning: false, cost: {input: 0.3, output: 0.9}}),
	],
	wire: {protocol: 'openai', outputTokenField: 'max_tokens', streamUsage: false},
};
