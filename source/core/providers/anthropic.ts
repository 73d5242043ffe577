import {TurnError} from '../errors.js';
import type {AssistantMessage, ImagePart, Message, TextPart, UserContent} from '../messages.js';
import {createAnthropicAssembler} from './anthropic-stream.js';
import {isRecord} from './errors.js';
import {reservedBodyFields} from '../config/reserved-fields.js';
import type {Adapter, AdapterOptions, ToolSchema} from './types.js';
import {argumentsObject, endpoint, withExtraBody} from './wire.js';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
/** The Messages API requires max_tokens; this is used when the config sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

type Block = Record<string, unknown>;
interface Turn {
	role: 'user' | 'assistant';
	content: unknown[];
}

/** Anthropic Messages (`/v1/messages`). */
export function createAnthropicAdapter(options: AdapterOptions): Adapter {
	const reserved = reservedBodyFields.anthropic;
	return {
		protocol: 'anthropic',
		defaultBaseUrl: ANTHROPIC_BASE_URL,
		reservedBodyFields: reserved,
		prepare(messages, tools) {
			const {system, turns} = anthropicMessages(messages);
			const body: Record<string, unknown> = {
				model: options.model,
				max_tokens: options.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
				messages: turns,
				stream: true,
			};
			if (system !== undefined) body.system = system;
			if (tools.length > 0) body.tools = anthropicTools(tools);
			return {url: endpoint(options, ANTHROPIC_BASE_URL, '/v1/messages'), body: withExtraBody('anthropic', body, options, reserved)};
		},
		headers: apiKey => ({'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION}),
		createAssembler: createAnthropicAssembler,
	};
}

function anthropicTools(tools: ToolSchema[]): Block[] {
	return tools.map(tool => ({name: tool.name, description: tool.description, input_schema: tool.parameters}));
}

/**
 * System messages become the top-level `system`; tool results become
 * `tool_result` blocks in a user turn; consecutive turns of one role merge,
 * because the API wants user and assistant to alternate (so tool results and
 * the image message a tool produced form one user turn).
 */
function anthropicMessages(messages: Message[]): {system: string | undefined; turns: Turn[]} {
	const system: string[] = [];
	const turns: Turn[] = [];
	const add = (role: Turn['role'], content: unknown[]) => {
		if (content.length === 0) return;
		const last = turns.at(-1);
		if (last?.role === role) last.content.push(...content);
		else turns.push({role, content: [...content]});
	};

	for (const message of messages) {
		switch (message.role) {
			case 'system':
				system.push(message.content);
				break;
			case 'user':
				add('user', userBlocks(message.content));
				break;
			case 'tool': {
				const failed = message._is_error === true ? {is_error: true} : {};
				add('user', [{type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content, ...failed}]);
				break;
			}
			case 'assistant':
				add('assistant', replayBlocks(message));
				break;
		}
	}

	return {system: system.length > 0 ? system.join('\n\n') : undefined, turns};
}

function userBlocks(content: UserContent): Block[] {
	const parts: Array<TextPart | ImagePart> = typeof content === 'string' ? [{type: 'text', text: content}] : content;
	// The API refuses empty text blocks.
	return parts.flatMap(part => (part.type === 'text' ? (part.text === '' ? [] : [{type: 'text', text: part.text}]) : [imageBlock(part)]));
}

/**
 * An assistant turn's own blocks, verbatim, except empty text blocks: a reply
 * may hold one, and the API refuses them on input. When nothing is left, the
 * message is rebuilt as from another provider (often to nothing, a turn `add` skips).
 */
function replayBlocks(message: AssistantMessage): unknown[] {
	const blocks = (message._anthropic_content ?? []).filter(block => !isEmptyText(block));
	return blocks.length > 0 ? blocks : assistantBlocks(message);
}

/** Whitespace-only text is refused too ("text content blocks must contain non-whitespace text"). */
function isEmptyText(block: unknown): boolean {
	return isRecord(block) && block.type === 'text' && (typeof block.text !== 'string' || block.text.trim() === '');
}

/** An assistant message from another provider (or an old session): text, then tool_use blocks. */
function assistantBlocks(message: AssistantMessage): Block[] {
	const blocks: Block[] = [];
	if (message.content) blocks.push({type: 'text', text: message.content});
	for (const call of message.tool_calls ?? []) {
		blocks.push({type: 'tool_use', id: call.id, name: call.function.name, input: argumentsObject(call.function.arguments)});
	}

	return blocks;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function imageBlock(part: ImagePart): Block {
	const url = part.image_url.url;
	const data = DATA_URL.exec(url);
	if (data) return {type: 'image', source: {type: 'base64', media_type: data[1], data: data[2]}};
	if (/^https?:\/\//i.test(url)) return {type: 'image', source: {type: 'url', url}};
	throw new TurnError(`anthropic: an image in the history is neither a base64 data URL nor an http(s) URL (${url.slice(0, 40)}…)`);
}
