import * as z from 'zod/mini';
import type {Message, UserContent} from '../messages.js';
import type {Usage} from '../usage.js';
import {chatMessages, chatTools, chatUsageSchema, createChatAssembler} from './chat-completions.js';
import {reservedBodyFields} from '../config/reserved-fields.js';
import {fileReferencePart} from './deepseek-files/wire.js';
import type {Adapter, AdapterOptions, FileReferences, StreamAssembler, StreamEvent} from './types.js';
import {endpoint, withExtraBody} from './wire.js';

export const DEEPSEEK_BASE_URL = 'https://api.deepseek.com';

/** DeepSeek's Chat Completions (`/chat/completions`), with thinking as `reasoning_content`. */
export function createDeepSeekAdapter(options: AdapterOptions): Adapter {
	const reserved = reservedBodyFields.deepseek;
	return {
		protocol: 'deepseek',
		defaultBaseUrl: DEEPSEEK_BASE_URL,
		reservedBodyFields: reserved,
		prepare(messages, tools, references) {
			const replay = reasoningToReplay(messages);
			const body: Record<string, unknown> = {
				model: options.model,
				messages: chatMessages(
					messages,
					index => replay.has(index),
					content => deepSeekContent(content, references),
				),
				stream: true,
				stream_options: {include_usage: true},
			};
			if (tools.length > 0) body.tools = chatTools(tools);
			if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
			return {url: endpoint(options, DEEPSEEK_BASE_URL, '/chat/completions'), body: withExtraBody('deepseek', body, options, reserved)};
		},
		headers: apiKey => ({authorization: `Bearer ${apiKey}`}),
		createAssembler: createDeepSeekAssembler,
	};
}

/** DeepSeek's Chat Completions streams, keeping `reasoning_content` (it must go back). */
export function createDeepSeekAssembler(emit: (event: StreamEvent) => void): StreamAssembler {
	return createChatAssembler({protocol: 'deepseek', keepReasoning: true, usage: deepSeekUsage}, emit);
}

/**
 * Indexes of assistant messages whose `reasoning_content` must go back.
 * DeepSeek's thinking mode answers 400 when the reasoning of a turn that
 * called tools is missing from later requests; its docs say every assistant
 * message between two user messages with a tool call in between takes part,
 * so the whole span goes back. Spans without tool calls drop it (the API
 * ignores it there). Image messages a tool produced are not a new user turn.
 */
function reasoningToReplay(messages: Message[]): Set<number> {
	const replay = new Set<number>();
	let span: number[] = [];
	let calledTools = false;
	const close = () => {
		if (calledTools) for (const index of span) replay.add(index);
		span = [];
		calledTools = false;
	};

	messages.forEach((message, index) => {
		if (message.role === 'user' && message._tool_call_id === undefined) close();
		if (message.role !== 'assistant') return;
		span.push(index);
		if ((message.tool_calls?.length ?? 0) > 0) calledTools = true;
	});
	close();
	return replay;
}

/**
 * DeepSeek takes text content as a string. Image parts go as they are (data
 * URLs, which its vision models read), or, when the Files channel uploaded
 * them, as `{"type": "file", "file_id"}` references (deepseek-files/wire.ts).
 */
function deepSeekContent(content: UserContent, references: FileReferences | undefined): unknown {
	if (typeof content === 'string') return content;
	if (content.every(part => part.type === 'text')) return content.map(part => (part.type === 'text' ? part.text : '')).join('\n');
	if (!references || references.size === 0) return content;
	return content.map(part => {
		const id = part.type === 'image_url' ? references.get(part.image_url.url) : undefined;
		return id === undefined ? part : fileReferencePart(id);
	});
}

const deepSeekUsageSchema = z.extend(chatUsageSchema, {
	prompt_cache_hit_tokens: z.nullish(z.int().check(z.nonnegative())),
});

/** `prompt_tokens` is hit + miss; the hit is `prompt_cache_hit_tokens`. */
function deepSeekUsage(raw: Record<string, unknown>): Usage | null {
	const parsed = deepSeekUsageSchema.safeParse(raw);
	if (!parsed.success) return null;
	const usage = parsed.data;
	return {
		input: usage.prompt_tokens,
		output: usage.completion_tokens,
		cacheRead: usage.prompt_cache_hit_tokens ?? usage.prompt_tokens_details?.cached_tokens ?? 0,
		cacheWrite: 0,
		raw,
	};
}
