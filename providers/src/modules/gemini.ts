import {model, type ProviderModule} from './module.js';

const id = 'gemini';

/**
 * Google's Gemini through its OpenAI-compatible endpoint. Prices in dollars
 * per million tokens for text and image input; Gemini 3 Pro bills more for
 * a prompt over 200k tokens, and the catalogue holds that lower band.
 */
export const gemini: ProviderModule = {
	id,
	baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
	apiKeyEnv: 'GEMINI_API_KEY',
	requiresAuth: true,
	source: {
		url: 'https://ai.google.dev/gemini-api/docs/pricing',
		read: '2026-07-04',
		note: 'the date of the stored copy of the page; prompts over 200k tokens cost more on gemini-3-pro-preview ($4 in, $18 out), which one price per field cannot hold',
	},
	models: [
		model(id, {
			id: 'gemini-3-flash-preview',
			name: 'Gemini 3 Flash (preview)',
			contextWindow: 1_048_576,
			maxTokens: 65_536,
			input: ['text', 'image'],
			reasoning: true,
			cost: {input: 0.5, output: 3, cacheRead: 0.05, cacheWrite: 0},
		}),
		model(id, {
			id: 'gemini-3-pro-preview',
			name: 'Gemini 3 Pro (preview)',
			contextWindow: 1_048_576,
			maxTokens: 65_536,
			input: ['text', 'image'],
			reasoning: true,
			cost: {input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0},
		}),
		model(id, {
			id: 'gemini-2.5-flash',
			name: 'Gemini 2.5 Flash',
			contextWindow: 1_048_576,
			maxTokens: 65_536,
			input: ['text', 'image'],
			reasoning: true,
			cost: {input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0},
		}),
	],
	wire: {protocol: 'openai', outputTokenField: 'max_tokens'},
};
