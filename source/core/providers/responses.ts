import type {Message, UserContent} from '../messages.js';
import {reservedBodyFields} from './reserved-fields.js';
import {createResponsesAssembler} from './responses-stream.js';
import type {Adapter, AdapterOptions} from './types.js';
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
			const instructions = messages.flatMap(message => (message.role === 'system' ? [message.content] : []));
			const body: Record<string, unknown> = {model: options.model, input: responsesInput(messages), stream: true};
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

			if (options.maxTokens !== undefined) body.max_output_tokens = options.maxTokens;
			const merged = withExtraBody('responses', body, options, reserved);
			// Without storage the server cannot look up replayed reasoning items by ID; their encrypted content must come back with them.
			if (merged.store === false && merged.include === undefined) merged.include = ['reasoning.encrypted_content'];
			return {url: endpoint(options, RESPONSES_BASE_URL, '/responses'), body: merged};
		},
		headers: apiKey => ({authorization: `Bearer ${apiKey}`}),
		createAssembler: createResponsesAssembler,
	};
}

/** Our history as input items; an assistant's own output items replay verbatim (reasoning stays attached). */
function responsesInput(messages: Message[]): unknown[] {
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
	return content.map(part =>
		part.type === 'text' ? {type: 'input_text', text: part.text} : {type: 'input_image', image_url: part.image_url.url, detail: 'auto'},
	);
}
