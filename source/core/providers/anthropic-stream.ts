/** Assembles an Anthropic Messages event stream into a reply. */
import * as z from 'zod/mini';
import type {AssistantMessage, ToolCall} from '../messages.js';
import type {Usage} from '../usage.js';
import {ProviderError, StreamProtocolError, quote} from './errors.js';
import type {FinishReason, ModelReply, SseEvent, StreamAssembler, StreamEvent} from './types.js';
import {checkEvent, parseEventJson} from './wire.js';

const LABEL = 'anthropic stream';

type Block = Record<string, unknown> & {type: string};

const eventSchema = z.looseObject({type: z.string()});
const usageFields = z.record(z.string(), z.unknown());
const messageStart = z.looseObject({message: z.looseObject({usage: z.nullish(usageFields)})});
const blockStart = z.looseObject({index: z.int().check(z.nonnegative()), content_block: z.looseObject({type: z.string()})});
const blockDelta = z.looseObject({
	index: z.int().check(z.nonnegative()),
	delta: z.looseObject({
		type: z.string(),
		text: z.optional(z.string()),
		thinking: z.optional(z.string()),
		signature: z.optional(z.string()),
		partial_json: z.optional(z.string()),
		citation: z.optional(z.unknown()),
	}),
});
const blockStop = z.looseObject({index: z.int().check(z.nonnegative())});
const messageDelta = z.looseObject({
	delta: z.nullish(z.looseObject({stop_reason: z.nullish(z.string())})),
	usage: z.nullish(usageFields),
});
const errorEvent = z.looseObject({
	error: z.nullish(z.looseObject({type: z.optional(z.string()), message: z.optional(z.string())})),
});

const count = z.int().check(z.nonnegative());
const usageSchema = z.looseObject({
	input_tokens: count,
	output_tokens: count,
	cache_read_input_tokens: z.nullish(count),
	cache_creation_input_tokens: z.nullish(count),
});

export function createAnthropicAssembler(emit: (event: StreamEvent) => void): StreamAssembler {
	const blocks = new Map<number, Block>();
	/** Tool input JSON as it streams, per block. */
	const inputs = new Map<number, string>();
	const stopped = new Set<number>();
	let text = '';
	let done = false;
	let stopReason: string | null = null;
	let usageRaw: Record<string, unknown> | null = null;

	const block = (index: number): Block => {
		const found = blocks.get(index);
		if (!found || stopped.has(index)) throw new StreamProtocolError(`${LABEL}: delta for content block ${index}, which is not open`);
		return found;
	};

	/** message_delta carries final counts; fields it leaves out keep message_start's. */
	const mergeUsage = (raw: Record<string, unknown>) => {
		const defined = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== null && value !== undefined));
		usageRaw = {...usageRaw, ...defined};
	};

	return {
		push(event: SseEvent): void {
			if (done) return;
			const json = parseEventJson(event.data, LABEL);
			const {type} = checkEvent(eventSchema, json, LABEL, 'event');
			switch (type) {
				case 'message_start': {
					const usage = checkEvent(messageStart, json, LABEL, 'message_start').message.usage;
					if (usage) mergeUsage(usage);
					break;
				}

				case 'content_block_start': {
					const {index, content_block} = checkEvent(blockStart, json, LABEL, 'content_block_start');
					if (blocks.has(index)) throw new StreamProtocolError(`${LABEL}: content block ${index} started twice`);
					const started = {...content_block} as Block;
					blocks.set(index, started);
					if (started.type === 'text' && typeof started.text === 'string' && started.text !== '') {
						text += started.text;
						emit({type: 'text_delta', text: started.text});
					}

					break;
				}

				case 'content_block_delta': {
					const {index, delta} = checkEvent(blockDelta, json, LABEL, 'content_block_delta');
					const shown = applyDelta(block(index), delta, index, inputs);
					if (shown?.type === 'text_delta') text += shown.text;
					if (shown) emit(shown);
					break;
				}

				case 'content_block_stop': {
					const {index} = checkEvent(blockStop, json, LABEL, 'content_block_stop');
					const target = block(index);
					const input = inputs.get(index);
					if (input !== undefined) target.input = parseInput(input, index);
					stopped.add(index);
					break;
				}

				case 'message_delta': {
					const {delta, usage} = checkEvent(messageDelta, json, LABEL, 'message_delta');
					if (delta?.stop_reason) stopReason = delta.stop_reason;
					if (usage) mergeUsage(usage);
					break;
				}

				case 'message_stop':
					done = true;
					break;
				case 'error': {
					const error = checkEvent(errorEvent, json, LABEL, 'error event').error;
					const kind = error?.type ? `${error.type}: ` : '';
					throw new ProviderError(`anthropic: error in stream: ${kind}${quote(error?.message ?? 'no message')}`, {
						kind: 'stream',
						retryable: error?.type === 'overloaded_error' || error?.type === 'api_error',
					});
				}

				default:
					// ping, and event types added later (the API's versioning policy allows them).
					break;
			}
		},

		complete: () => done,

		finish(): ModelReply {
			if (!done) throw new StreamProtocolError(`${LABEL} ended before message_stop (truncated response)`);
			const content = stoppedBlocks(blocks, stopped);
			const toolCalls: ToolCall[] = [];
			content.forEach((found, index) => {
				if (found.type === 'tool_use') toolCalls.push(toolCall(found, inputs.get(index), index));
			});
			const message: AssistantMessage = {role: 'assistant', content: text === '' ? null : text, _anthropic_content: content};
			if (toolCalls.length > 0) message.tool_calls = toolCalls;
			return {message, finishReason: finishReason(stopReason), rawFinishReason: stopReason, usage: normalise(usageRaw)};
		},

		partialText: () => text,
	};
}

/**
 * Adds a content_block_delta to its block (tool input JSON to `inputs`, parsed
 * at the block's stop) and returns what it shows: text or thinking. Other
 * delta types are new API features; the block still replays as started.
 */
function applyDelta(target: Block, delta: z.infer<typeof blockDelta>['delta'], index: number, inputs: Map<number, string>): StreamEvent | undefined {
	if (delta.type === 'text_delta' && delta.text !== undefined) {
		target.text = String(target.text ?? '') + delta.text;
		return {type: 'text_delta', text: delta.text};
	}

	if (delta.type === 'thinking_delta' && delta.thinking !== undefined) {
		target.thinking = String(target.thinking ?? '') + delta.thinking;
		return {type: 'thinking_delta', text: delta.thinking};
	}

	if (delta.type === 'signature_delta' && delta.signature !== undefined) {
		target.signature = String(target.signature ?? '') + delta.signature;
	} else if (delta.type === 'input_json_delta' && delta.partial_json !== undefined) {
		inputs.set(index, (inputs.get(index) ?? '') + delta.partial_json);
	} else if (delta.type === 'citations_delta' && delta.citation !== undefined) {
		target.citations = [...(Array.isArray(target.citations) ? target.citations : []), delta.citation];
	}

	return undefined;
}

/** The reply's content blocks in order: each one started, none missing, every one stopped. */
function stoppedBlocks(blocks: ReadonlyMap<number, Block>, stopped: ReadonlySet<number>): Block[] {
	const content: Block[] = [];
	for (let index = 0; index < blocks.size; index++) {
		const found = blocks.get(index);
		if (!found) throw new StreamProtocolError(`${LABEL}: content block ${index} is missing`);
		if (!stopped.has(index)) throw new StreamProtocolError(`${LABEL}: content block ${index} never stopped`);
		content.push(found);
	}

	return content;
}

function parseInput(json: string, index: number): unknown {
	if (json.trim() === '') return {};
	try {
		return JSON.parse(json);
	} catch {
		throw new StreamProtocolError(`${LABEL}: tool input of content block ${index} is not valid JSON: ${quote(json)}`);
	}
}

function toolCall(block: Block, streamedInput: string | undefined, index: number): ToolCall {
	if (typeof block.id !== 'string' || block.id === '') throw new StreamProtocolError(`${LABEL}: tool_use block ${index} has no id`);
	if (typeof block.name !== 'string' || block.name === '') throw new StreamProtocolError(`${LABEL}: tool_use block ${index} has no name`);
	const args = streamedInput !== undefined && streamedInput.trim() !== '' ? streamedInput : JSON.stringify(block.input ?? {});
	return {id: block.id, type: 'function', function: {name: block.name, arguments: args}};
}

function finishReason(raw: string | null): FinishReason {
	switch (raw) {
		case 'end_turn':
		case 'stop_sequence':
			return 'stop';
		case 'tool_use':
			return 'tool_calls';
		case 'max_tokens':
		case 'model_context_window_exceeded':
			return 'length';
		case 'refusal':
			return 'content_filter';
		default:
			return 'other';
	}
}

/** Input counts all three parts: uncached, read from cache, written to cache. */
function normalise(raw: Record<string, unknown> | null): Usage | null {
	if (!raw) return null;
	const parsed = usageSchema.safeParse(raw);
	if (!parsed.success) return null;
	const usage = parsed.data;
	const cacheRead = usage.cache_read_input_tokens ?? 0;
	const cacheWrite = usage.cache_creation_input_tokens ?? 0;
	return {input: usage.input_tokens + cacheRead + cacheWrite, output: usage.output_tokens, cacheRead, cacheWrite, raw};
}
