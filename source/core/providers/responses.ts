import type {Message, UserContent} from '../messages.js';
import {reservedBodyFields} from '../config/reserved-fields.js';
import {createResponsesAssembler} from './responses-stream.js';
import type {Adapter, AdapterOptions, ToolSchema} from './types.js';
import {endpoint, withExtraBody} from './wire.js';

export const RESPONSES_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI Responses (`/responses`). */
export function createResponsesAdapter(options: AdapterOptions): Adapter {
	const reserved = reservedBodyFields.responses;
	return {
		protocol: 'responses',
		defaultBaseUrl: RESPONSES_BASE_URL,
		reservedBodyFields: reserved,
		prepare(messages, tools) {
			const body = withReasoningInclude(withExtraBody('responses', responsesBody(options.model, messages, tools, options.maxTokens), options, reserved));
			return {url: endpoint(options, RESPONSES_BASE_URL, '/responses'), body};
		},
		headers: apiKey => ({authorization: `Bearer ${apiKey}`}),
		createAssembler: createResponsesAssembler,
	};
}

/**
 * The Responses body a history makes, before `extra_body`: `model`, `input`,
 * `stream`, `instructions` (the system messages), `tools`, `max_output_tokens`.
 * The adapter and the responses module (workers/responses/responses.ts) both build it
 * here, so their requests stay byte-for-byte alike.
 */
export function responsesBody(model: string, messages: Message[], tools: ToolSchema[], maxTokens: number | undefined): Record<string, unknown> {
	const instructions = messages.flatMap(message => (message.role === 'system' ? [message.content] : []));
	const body: Record<string, unknown> = {model, input: responsesInput(messages), stream: true};
	if (instructions.length > 0) body.instructions = instructions.join('\n\n');
	if (tools.length > 0) {
		// An omitted `strict` means true here, which would make every optional parameter required.
		body.tools = tools.map(tool => ({
			type: 'function',
			name: tool.name,
			description: tool.description,
			parameters: tool.parameters,
			strict: false,
		}));
	}

	if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
	return body;
}

/** Without storage the server cannot look up replayed reasoning items by ID; their encrypted content must come back with them. */
export function withReasoningInclude(body: Record<string, unknown>): Record<string, unknown> {
	return body.store === false && body.include === undefined ? {...body, include: ['reasoning.encrypted_content']} : body;
}

/** Our history as input items; an assistant's own output items replay verbatim (reasoning stays attached). */
function responsesInput(messages: Message[]): unknown[] {
	// biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every role, and tsc checks that it is exhaustive.
	return messages.flatMap((message): unknown[] => {
		switch (message.role) {
			case 'system':
				return [];
			case 'user':
				return [{role: 'user', content: userContent(message.content)}];
			case 'tool':
				return [{type: 'function_call_output', call_id: message.tool_call_id, output: message.content}];
			case 'assistant': {
				if (message._responses_output) return message._responses_output;
				const items: unknown[] = [];
				if (message.content) items.push({role: 'assistant', content: message.content});
				for (const call of message.tool_calls ?? []) {
					items.push({type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments});
				}

				return items;
			}
		}
	});
}

function userContent(content: UserContent): unknown {
	if (typeof content === 'string') return content;
	return content.map(part => (part.type === 'text' ? {type: 'input_text', text: part.text} : {type: 'input_image', image_url: part.image_url.url, detail: 'auto'}));
}
