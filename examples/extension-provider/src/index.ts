/**
 * i-extension-provider: a streaming model provider `local-openai` over a
 * local OpenAI-compatible Chat Completions endpoint (llama.cpp's server,
 * vLLM, Ollama's /v1). A model config selects it by naming it in
 * `protocol`:
 *
 *     {"protocol": "local-openai", "model": "qwen2.5-coder"}
 *
 * The endpoint is `--local-openai-url URL` (a flag this extension adds),
 * else the LOCAL_OPENAI_BASE_URL environment variable, else
 * http://127.0.0.1:8080/v1; the key, when the server wants one, is
 * LOCAL_OPENAI_API_KEY. Both are read at each request, never at load.
 *
 * A teaching example: its own SSE client shows how frames and the final
 * message fit together. A real provider of this wire passes the request to
 * the host's client, `io.completions(req, wire)`, which retries and checks
 * truncation as the built-in adapters do (see README.md).
 */
import type {ExtensionApi, ProviderRequest} from 'i-agent/extension';
import {streamChat, type Endpoint} from './local-provider.js';

/** The extension API major this was written for. */
export const apiVersion = '1';

export const PROVIDER_ID = 'local-openai';
export const URL_FLAG = 'local-openai-url';
export const BASE_URL_ENV = 'LOCAL_OPENAI_BASE_URL';
export const API_KEY_ENV = 'LOCAL_OPENAI_API_KEY';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/v1';

export default function register(api: ExtensionApi): void {
	// Capability detection (spec/extensions.md §3): streaming where the host has it, one-shot on a host that has only that.
	if (!api.registerStreamingProvider && !api.registerProvider) {
		throw new Error(`i-extension-provider needs api.registerStreamingProvider or api.registerProvider, which this i (extension API ${api.apiVersion}) does not have: upgrade i`);
	}

	api.registerFlag?.(URL_FLAG, {type: 'string', description: `Base URL of the ${PROVIDER_ID} provider's OpenAI-compatible server (default: $${BASE_URL_ENV}, else ${DEFAULT_BASE_URL})`});
	const endpoint = (): Endpoint => {
		const flag = api.runtime?.getCliFlag?.(URL_FLAG);
		const baseUrl = typeof flag === 'string' && flag !== '' ? flag : process.env[BASE_URL_ENV] || DEFAULT_BASE_URL;
		return {baseUrl, apiKey: process.env[API_KEY_ENV] || undefined};
	};

	const shown = {id: PROVIDER_ID, apiStyle: 'openai-completions', baseUrl: endpoint().baseUrl};
	// One-shot first: the streaming registration of the same id replaces it in place; a host without the streaming slot keeps this one.
	api.registerProvider?.({...shown, request: async (req: ProviderRequest, {signal, fetch}) => streamChat(endpoint(), req, {emit: () => true, control: undefined, signal, fetch})});
	api.registerStreamingProvider?.({...shown, request: async (req, {emit, control, signal, fetch}) => streamChat(endpoint(), req, {emit, control, signal, fetch})});
}
