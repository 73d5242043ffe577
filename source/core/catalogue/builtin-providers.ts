import type {CatalogueModel, CatalogueProvider} from './catalogue.js';

/*
 * The built-in providers of the catalogue: OpenAI and Anthropic, whose wires
 * the core speaks itself (DeepSeek's is the provider package's). A few
 * current models each, with the prices their makers publish, in dollars per
 * million tokens:
 *   OpenAI: developers.openai.com/api/docs/pricing, as read on 2026-11-05
 *     (cached input is "cacheRead"; OpenAI charges nothing to write its cache).
 *   Anthropic: platform.claude.com/docs/en/about-claude/pricing, as stored on
 *     2026-12-01 ("cacheWrite" is the 5-minute cache write).
 * Prices change: models.json overrides any of them (docs/providers.md).
 */

const text: CatalogueModel['input'] = ['text', 'image'];

function openAi(id: string, name: string, api: CatalogueModel['api'], contextWindow: number, maxTokens: number, reasoning: boolean, cost: CatalogueModel['cost']): CatalogueModel {
	return {id, name, provider: 'openai', api, contextWindow, maxTokens, input: text, reasoning, cost};
}

function anthropic(id: string, name: string, contextWindow: number, maxTokens: number, cost: CatalogueModel['cost']): CatalogueModel {
	return {id, name, provider: 'anthropic', api: 'anthropic-messages', contextWindow, maxTokens, input: text, reasoning: true, cost};
}

export const OPENAI_API_KEY_ENV = 'OPENAI_API_KEY';
export const ANTHROPIC_API_KEY_ENV = 'ANTHROPIC_API_KEY';

export function builtinProviders(): CatalogueProvider[] {
	return [
		{
			id: 'openai',
			apiKeyEnv: OPENAI_API_KEY_ENV,
			requiresAuth: true,
			baseUrl: 'https://api.openai.com/v1',
			source: {kind: 'builtin'},
			models: [
				openAi('gpt-5', 'GPT-5 (Responses)', 'openai-responses', 400_000, 128_000, true, {input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0}),
				openAi('gpt-5-mini', 'GPT-5 mini (Responses)', 'openai-responses', 400_000, 128_000, true, {input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0}),
				openAi('gpt-4.1', 'GPT-4.1 (Chat Completions)', 'openai-completions', 1_047_576, 32_768, false, {input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0}),
			],
		},
		{
			id: 'anthropic',
			apiKeyEnv: ANTHROPIC_API_KEY_ENV,
			requiresAuth: true,
			baseUrl: 'https://api.anthropic.com',
			source: {kind: 'builtin'},
			models: [
				anthropic('claude-opus-5', 'Claude Opus 5', 1_000_000, 128_000, {input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25}),
				anthropic('claude-sonnet-5', 'Claude Sonnet 5', 1_000_000, 128_000, {input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5}),
				anthropic('claude-haiku-4-5', 'Claude Haiku 4.5', 200_000, 64_000, {input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25}),
			],
		},
	];
}

/** Ids no extension may register: the built-in providers of the catalogue, and the Responses wire's name. */
export const reservedProviderIds: readonly string[] = ['openai', 'anthropic', 'responses'];
