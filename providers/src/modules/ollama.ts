import {model, type ProviderModule} from './module.js';

const id = 'ollama';

/**
 * An Ollama server on this machine (its OpenAI-compatible /v1): anonymous
 * like llama.cpp, so no key and no `authorization` header. It serves the
 * models the person pulled, by the names below or any other models.json
 * adds; thinking models stream their thinking as `reasoning`. Windows
 * depend on the server's `num_ctx`, so none is listed; a local model bills
 * nothing.
 */
export const ollama: ProviderModule = {
	id,
	baseUrl: 'http://127.0.0.1:11434/v1',
	apiKeyEnv: undefined,
	requiresAuth: false,
	source: {url: 'https://ollama.com/library', read: '2026-12-07', note: 'the page could not be re-read here; the names are library models people run for coding'},
	models: [
		model(id, {id: 'qwen3-coder', name: 'Qwen3 Coder, as pulled into Ollama', input: ['text'], reasoning: false, cost: {input: 0, output: 0, cacheRead: 0, cacheWrite: 0}}),
		model(id, {id: 'gpt-oss:20b', name: 'GPT-OSS 20B, as pulled into Ollama', input: ['text'], reasoning: true, cost: {input: 0, output: 0, cacheRead: 0, cacheWrite: 0}}),
		model(id, {id: 'llama3.2', name: 'Llama 3.2, as pulled into Ollama', input: ['text'], reasoning: false, cost: {input: 0, output: 0, cacheRead: 0, cacheWrite: 0}}),
	],
	wire: {protocol: 'openai', reasoningField: 'reasoning'},
};
