/**
 * What one provider of this package is: its catalogue entry and the quirks
 * of its OpenAI-compatible wire. The bridge (../bridge.ts) turns it into a
 * registration; the shared client (../client/) reads the quirks.
 */
import type {DeclaredModel} from 'i-agent/extension';

export interface Quirks {
	/** The body field of the output cap: Chat Completions' newer `max_completion_tokens`, or `max_tokens` (DeepSeek, OpenRouter, llama.cpp). */
	outputTokenField: 'max_tokens' | 'max_completion_tokens';
	/** The role of the system prompt: `system`, or OpenAI's newer `developer`. */
	systemRole: 'system' | 'developer';
	/** Where a streamed delta carries thinking: DeepSeek's and llama.cpp's `reasoning_content`, OpenRouter's `reasoning`. */
	reasoningField: 'reasoning_content' | 'reasoning';
	/** Tool results carry the tool's `name` beside `tool_call_id` (some proxies in front of Gemini want it). */
	toolResultName: boolean;
	/**
	 * DeepSeek's thinking mode (`requiresReasoningContent`, spec/extensions.md §11): the
	 * `reasoning_content` of every assistant message between two user
	 * messages with a tool call among them goes back, else the API answers
	 * 400 on the continuation. Other providers never get it back.
	 */
	requiresReasoningContent: boolean;
}

export interface ProviderModule {
	id: string;
	/** Its default endpoint; undefined for one that has none (proxy: models.json gives it). */
	baseUrl: string | undefined;
	apiKeyEnv: string | undefined;
	requiresAuth: boolean;
	models: DeclaredModel[];
	quirks: Quirks;
}

/** A model of `provider` in the catalogue's shape; `api` is this package's wire for all four. */
export function model(provider: string, fields: Omit<DeclaredModel, 'provider' | 'api'>): DeclaredModel {
	return {provider, api: 'openai-completions', ...fields};
}
