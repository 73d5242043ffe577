import type {Usage} from '../usage.js';
import {chatMessages, chatTools, chatUsageSchema, createChatAssembler} from './chat-completions.js';
import {reservedBodyFields} from '../config/reserved-fields.js';
import type {Adapter, AdapterOptions, StreamAssembler, StreamEvent} from './types.js';
import {endpoint, withExtraBody} from './wire.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI Chat Completions (`/chat/completions`). */
export function createOpenAiAdapter(options: AdapterOptions): Adapter {
	const reserved = reservedBodyFields.openai;
	return {
		protocol: 'openai',
		defaultBaseUrl: OPENAI_BASE_URL,
		reservedBodyFields: reserved,
		prepare(messages, tools) {
			const body: Record<string, unknown> = {
				model: options.model,
				// OpenAI rejects reasoning_content; it never leaves.
				messages: chatMessages(messages, () => false),
				stream: true,
				stream_options: {include_usage: true},
			};
			if (tools.length > 0) body.tools = chatTools(tools);
			if (options.maxTokens !== undefined) body[options.useMaxTokens ? 'max_tokens' : 'max_completion_tokens'] = options.maxTokens;
			return {url: endpoint(options, OPENAI_BASE_URL, '/chat/completions'), body: withExtraBody('openai', body, options, reserved)};
		},
		headers: apiKey => ({authorization: `Bearer ${apiKey}`}),
		createAssembler: emit => createOpenAiAssembler(emit, options.reasoningField),
	};
}

/** Chat Completions streams as OpenAI sends them; a compatible server's thinking is shown from `reasoningField`, never kept. */
export function createOpenAiAssembler(emit: (event: StreamEvent) => void, reasoningField?: AdapterOptions['reasoningField']): StreamAssembler {
	return createChatAssembler({protocol: 'openai', keepReasoning: false, usage: openAiUsage, ...(reasoningField === undefined ? {} : {reasoningField})}, emit);
}

/** `prompt_tokens` already includes the cached part. */
function openAiUsage(raw: Record<string, unknown>): Usage | null {
	const parsed = chatUsageSchema.safeParse(raw);
	if (!parsed.success) return null;
	const usage = parsed.data;
	return {
		input: usage.prompt_tokens,
		output: usage.completion_tokens,
		cacheRead: usage.prompt_tokens_details?.cached_tokens ?? 0,
		cacheWrite: 0,
		raw,
	};
}
