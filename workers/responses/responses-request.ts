import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {describeIssues} from '../../source/core/config/describe-issues.js';
import {messageSchema} from '../../source/core/history/message-schema.js';
import type {AssistantMessage, Message} from '../../source/core/messages.js';
import {reservedBodyFields} from '../../source/core/config/reserved-fields.js';
import {responsesBody, withReasoningInclude} from '../../source/core/providers/responses.js';
import type {ToolSchema} from '../../source/core/providers/types.js';
import type {ReplayMemory} from './responses-replay.js';

const CHAT_PATH = '/chat/completions';
const RESPONSES_PATH = '/responses';

const maxTokensSchema = z.optional(z.int().check(z.positive()));

/** The parts of a Chat Completions body the conversion reads; the rest are kept as they are. */
const chatBodySchema = z.looseObject({
	model: z.string(),
	messages: z.array(messageSchema),
	tools: z.optional(
		z.array(
			z.looseObject({
				type: z.literal('function'),
				function: z.looseObject({
					name: z.string(),
					description: z.optional(z.string()),
					parameters: z.optional(z.record(z.string(), z.unknown())),
				}),
			}),
		),
	),
	max_tokens: maxTokensSchema,
	max_completion_tokens: maxTokensSchema,
});

/**
 * A Chat Completions request (`…/chat/completions`, the body the openai
 * adapter prepared, possibly changed by earlier hooks) as the Responses
 * request the native `responses` adapter would prepare for the same history:
 * the same URL base with `/responses`, and a body built by the adapter's own
 * `responsesBody`. Chat-only fields (`stream_options`, the output cap's Chat
 * name) go; every other field stays as it is, so `extra_body` reaches the
 * server unchanged and must be written the Responses way. Assistant messages
 * that are replies this worker saw replay their output items verbatim.
 */
export function toResponsesRequest(url: string, chatBody: Record<string, unknown>, memory: ReplayMemory): {url: string; body: Record<string, unknown>} {
	if (!url.endsWith(CHAT_PATH)) {
		throw new Error(`responses module: the request URL ${JSON.stringify(url)} does not end in ${CHAT_PATH}; it converts Chat Completions requests (protocol "openai")`);
	}

	const parsed = chatBodySchema.safeParse(chatBody);
	if (!parsed.success) throw new Error(`responses module: the Chat Completions body cannot be converted: ${describeIssues(parsed.error.issues, chatBody)}`);
	const chat = parsed.data;
	const rest = Object.fromEntries(Object.entries(chatBody).filter(([key]) => !reservedBodyFields.openai.includes(key)));
	const clashes = Object.keys(rest).filter(key => reservedBodyFields.responses.includes(key));
	if (clashes.length > 0) {
		throw new Error(`responses module: the request body already has ${clashes.map(key => `"${key}"`).join(', ')}, which the Responses conversion builds; remove it from extra_body or the hook that set it`);
	}

	const messages = chat.messages.map(message => (message.role === 'assistant' ? withReplay(message as AssistantMessage, memory) : (message as Message)));
	const tools: ToolSchema[] = (chat.tools ?? []).map(({function: tool}) => ({
		name: tool.name,
		description: tool.description ?? '',
		parameters: tool.parameters ?? {},
	}));
	const maxTokens = chat.max_completion_tokens ?? chat.max_tokens;
	const body = withReasoningInclude({...responsesBody(chat.model, messages, tools, maxTokens), ...rest});
	return {url: url.slice(0, -CHAT_PATH.length) + RESPONSES_PATH, body};
}

/** The Chat message as ours: text and tool calls, plus the output items when this reply was seen. */
function withReplay(chat: AssistantMessage, memory: ReplayMemory): AssistantMessage {
	const message: AssistantMessage = {role: 'assistant', content: chat.content};
	if (chat.tool_calls && chat.tool_calls.length > 0) message.tool_calls = chat.tool_calls;
	const items = memory.recall(message);
	if (items) message._responses_output = items;
	return message;
}
