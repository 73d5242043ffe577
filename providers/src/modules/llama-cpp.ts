import {model, type ProviderModule} from './module.js';

const id = 'llama-cpp';

/**
 * A llama.cpp server (`llama-server`, its OpenAI-compatible /v1) on this
 * machine: anonymous (`requiresAuth: false`), so the host gives it no key
 * and sends no `authorization` header; a server started with `--api-key`
 * gets one from the variable models.json names (`apiKey`). It serves
 * whatever model it was started with; the model id is only a name. A local
 * model bills nothing: its prices are 0.
 */
export const llamaCpp: ProviderModule = {
	id,
	baseUrl: 'http://127.0.0.1:8080/v1',
	apiKeyEnv: undefined,
	requiresAuth: false,
	source: {url: 'https://github.com/ggml-org/llama.cpp/tree/master/tools/server', read: '2026-12-07'},
	models: [model(id, {id: 'local', name: 'The model llama-server was started with', input: ['text'], reasoning: false, cost: {input: 0, output: 0, cacheRead: 0, cacheWrite: 0}})],
	wire: {protocol: 'openai', reasoningField: 'reasoning_content'},
};
