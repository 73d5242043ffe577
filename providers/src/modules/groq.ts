import {model, type ProviderModule} from './module.js';

const id = 'groq';

/** Groq (api.groq.com), OpenAI-compatible; its reasoning models stream their thinking as `reasoning`. Prices in dollars per million tokens. */
export const groq: ProviderModule = {
	id,
	baseUrl: 'https://api.groq.com/openai/v1',
	apiKeyEnv: 'GROQ_API_KEY',
	requiresAuth: true,
	source: {url: 'https://groq.com/pricing', read: '2026-12-07', note: 'the page could not be re-read here; the figures are Groq’s published model cards as this package last had them'},
	models: [
		model(id, {id: 'openai/gpt-oss-120b', name: 'GPT-OSS 120B on Groq', contextWindow: 131_072, maxTokens: 65_536, input: ['text'], reasoning: true, cost: {input: 0.15, output: 0.6}}),
		model(id, {id: 'moonshotai/kimi-k2-instruct-0905', name: 'Kimi K2 on Groq', contextWindow: 262_144, maxTokens: 16_384, input: ['text'], reasoning: false, cost: {input: 1, output: 3}}),
		model(id, {id: 'llama-3.3-70b-versatile', name: 'Llama 3.3 70B on Groq', contextWindow: 131_072, maxTokens: 32_768, input: ['text'], reasoning: false, cost: {input: 0.59, output: 0.79}}),
	],
	wire: {protocol: 'openai', outputTokenField: 'max_completion_tokens', reasoningField: 'reasoning'},
};
