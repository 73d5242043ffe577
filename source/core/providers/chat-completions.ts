/** The Chat Completions wire protocol, shared by the OpenAI and DeepSeek adapters. */
import * as z from 'zod/mini';
import type {AssistantMessage, Message, ToolCall, UserContent} from '../messages.js';
import type {Usage} from '../usage.js';
import {ProviderError, StreamProtocolError, isRecord, quote} from './errors.js';
import type {FinishReason, ModelReply, SseEvent, StreamAssembler, StreamEvent, ToolSchema} from './types.js';
import {checkEvent, parseEventJson} from './wire.js';

export function chatTools(tools: ToolSchema[]): Array<Record<string, unknown>> {
	return tools.map(tool => ({
		type: 'function',
		function: {name: tool.name, description: tool.description, parameters: tool.parameters},
	}));
}

/**
 * Our history as Chat messages. Local `_` fields never go out; an assistant's
 * `reasoning_content` goes out only where `sendReasoning` says so.
 */
export function chatMessages(messages: Message[], sendReasoning: (index: number) => boolean, userContent: (content: UserContent) => unknown = content => content): Array<Record<string, unknown>> {
	// biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every role, and tsc checks that it is exhaustive.
	return messages.map((message, index) => {
		switch (message.role) {
			case 'system':
				return {role: 'system', content: message.content};
			case 'user':
				return {role: 'user', content: userContent(message.content)};
			case 'tool':
				return {role: 'tool', tool_call_id: message.tool_call_id, content: message.content};
			case 'assistant':
				return assistantMessage(message, sendReasoning(index));
		}
	});
}

function assistantMessage(message: AssistantMessage, withReasoning: boolean): Record<string, unknown> {
	const calls = message.tool_calls ?? [];
	const out: Record<string, unknown> = {
		role: 'assistant',
		// An assistant turn needs content or tool calls; an empty answer is "".
		content: message.content ?? (calls.length > 0 ? null : ''),
	};
	if (calls.length > 0) {
		out.tool_calls = calls.map(call => ({
			id: call.id,
			type: 'function',
			function: {name: call.function.name, arguments: call.function.arguments},
		}));
	}

	if (withReasoning && message.reasoning_content !== undefined) out.reasoning_content = message.reasoning_content;
	return out;
}

const toolCallDelta = z.looseObject({
	index: z.int().check(z.nonnegative()),
	id: z.nullish(z.string()),
	function: z.nullish(z.looseObject({name: z.nullish(z.string()), arguments: z.nullish(z.string())})),
});

const chunkSchema = z.looseObject({
	choices: z.nullish(
		z.array(
			z.looseObject({
				index: z.optional(z.int().check(z.nonnegative())),
				delta: z.nullish(
					z.looseObject({
						content: z.nullish(z.string()),
						reasoning_content: z.nullish(z.string()),
						reasoning: z.nullish(z.string()),
						tool_calls: z.nullish(z.array(toolCallDelta)),
					}),
				),
				finish_reason: z.nullish(z.string()),
			}),
		),
	),
	usage: z.nullish(z.record(z.string(), z.unknown())),
});

export interface ChatAssemblerConfig {
	protocol: string;
	/** Keep `reasoning_content` on the reply (DeepSeek must send it back). */
	keepReasoning: boolean;
	/** Where a delta carries thinking: `reasoning_content` (DeepSeek, llama.cpp; the default) or `reasoning` (OpenRouter, Groq). */
	reasoningField?: 'reasoning_content' | 'reasoning';
	/** The provider's usage object in our shape, or null when it does not hold one. */
	usage: (raw: Record<string, unknown>) => Usage | null;
}

interface PartialCall {
	id?: string;
	name?: string;
	arguments: string;
}

export function createChatAssembler(config: ChatAssemblerConfig, emit: (event: StreamEvent) => void): StreamAssembler {
	const label = `${config.protocol} stream`;
	const reasoningField = config.reasoningField ?? 'reasoning_content';
	let text = '';
	let thinking = '';
	let done = false;
	let rawFinish: string | null = null;
	let usage: Usage | null = null;
	const calls = new Map<number, PartialCall>();

	return {
		push(event: SseEvent): void {
			// Servers may send keep-alive chatter after [DONE]; the reply is complete.
			if (done) return;
			if (event.data.trim() === '[DONE]') {
				done = true;
				return;
			}

			const json = parseEventJson(event.data, label);
			if (isRecord(json) && json.error !== undefined && json.error !== null) {
				const error = json.error;
				const message = isRecord(error) && typeof error.message === 'string' ? error.message : JSON.stringify(error);
				throw new ProviderError(`${config.protocol}: error in stream: ${quote(message)}`, {kind: 'stream'});
			}

			const chunk = checkEvent(chunkSchema, json, label, 'chunk');
			for (const choice of chunk.choices ?? []) {
				// We never ask for n > 1.
				if ((choice.index ?? 0) !== 0) continue;
				const delta = choice.delta;
				const reasoning = delta?.[reasoningField];
				if (reasoning) {
					thinking += reasoning;
					emit({type: 'thinking_delta', text: reasoning});
				}

				if (delta?.content) {
					text += delta.content;
					emit({type: 'text_delta', text: delta.content});
				}

				for (const fragment of delta?.tool_calls ?? []) {
					const call = calls.get(fragment.index) ?? {arguments: ''};
					calls.set(fragment.index, call);
					if (fragment.id && call.id === undefined) call.id = fragment.id;
					if (fragment.function?.name && call.name === undefined) call.name = fragment.function.name;
					call.arguments += fragment.function?.arguments ?? '';
				}

				if (choice.finish_reason) rawFinish = choice.finish_reason;
			}

			if (chunk.usage) usage = config.usage(chunk.usage);
		},

		complete: () => done,

		finish(): ModelReply {
			if (!done) throw new StreamProtocolError(`${label} ended before [DONE] (truncated response)`);
			const toolCalls = [...calls.entries()]
				.sort(([a], [b]) => a - b)
				.map(([index, call]): ToolCall => {
					if (!call.id) throw new StreamProtocolError(`${label}: tool call at index ${index} has no id`);
					if (!call.name) throw new StreamProtocolError(`${label}: tool call at index ${index} has no function name`);
					return {id: call.id, type: 'function', function: {name: call.name, arguments: call.arguments}};
				});
			const message: AssistantMessage = {role: 'assistant', content: text === '' ? null : text};
			if (toolCalls.length > 0) message.tool_calls = toolCalls;
			if (config.keepReasoning && thinking !== '') message.reasoning_content = thinking;
			return {message, finishReason: chatFinishReason(rawFinish), rawFinishReason: rawFinish, usage};
		},

		partialText: () => text,
	};
}

function chatFinishReason(raw: string | null): FinishReason {
	switch (raw) {
		case 'stop':
			return 'stop';
		case 'tool_calls':
		case 'function_call':
			return 'tool_calls';
		case 'length':
			return 'length';
		case 'content_filter':
			return 'content_filter';
		default:
			return 'other';
	}
}

const count = z.int().check(z.nonnegative());

export const chatUsageSchema = z.looseObject({
	prompt_tokens: count,
	completion_tokens: count,
	prompt_tokens_details: z.nullish(z.looseObject({cached_tokens: z.nullish(count)})),
});
