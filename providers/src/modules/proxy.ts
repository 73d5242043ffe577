import type {ProviderModule} from './module.js';

/**
 * A generic OpenAI-compatible proxy (LiteLLM, a company gateway): it has no
 * endpoint or models of its own; models.json gives them
 * (`{"providers": {"proxy": {"baseUrl": …, "models": […]}}}`), and its key
 * is PROXY_API_KEY. Tool results carry the tool's name, which gateways in
 * front of Gemini need and others ignore.
 */
export const proxy: ProviderModule = {
	id: 'proxy',
	baseUrl: undefined,
	apiKeyEnv: 'PROXY_API_KEY',
	requiresAuth: true,
	source: {url: 'https://docs.litellm.ai/docs/proxy/user_keys', read: '2026-12-07'},
	models: [],
	wire: {protocol: 'openai', toolResultName: true},
};
