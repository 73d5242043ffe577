/** Assembles an OpenAI Responses event stream into a reply. */
import * as z from 'zod/mini';
import type {AssistantMessage, ToolCall} from '../messages.js';
import type {Usage} from '../usage.js';
import {ProviderError, StreamProtocolError, isRecord, quote} from './errors.js';
import type {FinishReason, ModelReply, SseEvent, StreamAssembler, StreamEvent} from './types.js';
import {checkEvent, parseEventJson} from './wire.js';

const LABEL = 'responses stream';

type Item = Record<string, unknown>;

const eventSchema = z.looseObject({type: z.string()});
const textDelta = z.looseObject({delta: z.string()});
const itemEvent = z.looseObject({output_index: z.int().check(z.nonnegative()), item: z.looseObject({type: z.string()})});
const argumentsDelta = z.looseObject({output_index: z.int().check(z.nonnegative()), delta: z.string()});
const argumentsDone = z.looseObject({output_index: z.int().check(z.nonnegative()), arguments: z.string()});
const finalEvent = z.looseObject({
	response: z.looseObject({
		status: z.nullish(z.string()),
		output: z.nullish(z.array(z.looseObject({type: z.string()}))),
		incomplete_details: z.nullish(z.looseObject({reason: z.nullish(z.string())})),
		usage: z.nullish(z.record(z.string(), z.unknown())),
	}),
});
const failedEvent = z.looseObject({
	response: z.nullish(z.looseObject({error: z.nullish(z.looseObject({code: z.nullish(z.string()), message: z.nullish(z.string())}))})),
});
const errorEvent = z.looseObject({
	code: z.nullish(z.string()),
	message: z.nullish(z.string()),
	error: z.nullish(z.looseObject({code: z.nullish(z.string()), message: z.nullish(z.string())})),
});

const count = z.int().check(z.nonnegative());
const usageSchema = z.looseObject({
	input_tokens: count,
	output_tokens: count,
	input_tokens_details: z.nullish(z.looseObject({cached_tokens: z.nullish(count)})),
});

export function createResponsesAssembler(emit: (event: StreamEvent) => void): StreamAssembler {
	/** Output items by output_index, as they are added and completed. */
	const items = new Map<number, Item>();
	let text = '';
	let final: z.infer<typeof finalEvent>['response'] | null = null;

	const emitText = (delta: string) => {
		text += delta;
		emit({type: 'text_delta', text: delta});
	};

	const functionCall = (index: number): Item => {
		const item = items.get(index);
		if (item?.type !== 'function_call') throw new StreamProtocolError(`${LABEL}: arguments for output item ${index}, which is not a function call`);
		return item;
	};

	return {
		push(event: SseEvent): void {
			if (final) return;
			const json = parseEventJson(event.data, LABEL);
			const {type} = checkEvent(eventSchema, json, LABEL, 'event');
			switch (type) {
				case 'response.output_text.delta':
				case 'response.refusal.delta':
					emitText(checkEvent(textDelta, json, LABEL, type).delta);
					break;
				case 'response.reasoning_summary_text.delta':
				case 'response.reasoning_text.delta':
					emit({type: 'thinking_delta', text: checkEvent(textDelta, json, LABEL, type).delta});
					break;
				case 'response.output_item.added':
				case 'response.output_item.done': {
					const {output_index, item} = checkEvent(itemEvent, json, LABEL, type);
					items.set(output_index, {...item});
					break;
				}

				case 'response.function_call_arguments.delta': {
					const {output_index, delta} = checkEvent(argumentsDelta, json, LABEL, type);
					const item = functionCall(output_index);
					item.arguments = String(item.arguments ?? '') + delta;
					break;
				}

				case 'response.function_call_arguments.done': {
					const {output_index, arguments: args} = checkEvent(argumentsDone, json, LABEL, type);
					functionCall(output_index).arguments = args;
					break;
				}

				case 'response.completed':
				case 'response.incomplete':
					final = checkEvent(finalEvent, json, LABEL, type).response;
					break;
				case 'response.failed': {
					const error = checkEvent(failedEvent, json, LABEL, type).response?.error;
					throw new ProviderError(`responses: response failed: ${describe(error?.code, error?.message)}`, {kind: 'stream'});
				}

				case 'error': {
					const error = checkEvent(errorEvent, json, LABEL, type);
					const code = error.code ?? error.error?.code;
					const message = error.message ?? error.error?.message;
					throw new ProviderError(`responses: error in stream: ${describe(code, message)}`, {kind: 'stream'});
				}

				default:
					// Lifecycle events (created, in_progress, *.done, content parts) and later additions.
					break;
			}
		},

		complete: () => final !== null,

		finish(): ModelReply {
			if (!final) throw new StreamProtocolError(`${LABEL} ended before response.completed (truncated response)`);
			const collected = [...items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
			const output: Item[] = final.output && final.output.length > 0 ? final.output : collected;
			const toolCalls = output.filter(item => item.type === 'function_call').map(toToolCall);
			const answer = output
				.filter(item => item.type === 'message')
				.map(messageText)
				.join('');
			const message: AssistantMessage = {role: 'assistant', content: answer === '' ? null : answer, _responses_output: output};
			if (toolCalls.length > 0) message.tool_calls = toolCalls;
			const incomplete = final.status === 'incomplete';
			const reason = final.incomplete_details?.reason ?? null;
			return {
				message,
				finishReason: incomplete ? incompleteReason(reason) : toolCalls.length > 0 ? 'tool_calls' : 'stop',
				rawFinishReason: incomplete ? (reason ?? 'incomplete') : (final.status ?? null),
				usage: normalise(final.usage),
			};
		},

		partialText: () => text,
	};
}

function toToolCall(item: Item, index: number): ToolCall {
	if (typeof item.call_id !== 'string' || item.call_id === '') throw new StreamProtocolError(`${LABEL}: function call ${index} has no call_id`);
	if (typeof item.name !== 'string' || item.name === '') throw new StreamProtocolError(`${LABEL}: function call ${index} has no name`);
	const args = typeof item.arguments === 'string' ? item.arguments : '';
	return {id: item.call_id, type: 'function', function: {name: item.name, arguments: args}};
}

/** The visible text of a message item: its output_text parts (and a refusal, which the person should see). */
function messageText(item: Item): string {
	if (!Array.isArray(item.content)) return '';
	return item.content
		.map(part => {
			if (!isRecord(part)) return '';
			if (part.type === 'output_text' && typeof part.text === 'string') return part.text;
			if (part.type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
			return '';
		})
		.join('');
}

function incompleteReason(reason: string | null): FinishReason {
	if (reason === 'max_output_tokens') return 'length';
	if (reason === 'content_filter') return 'content_filter';
	return 'other';
}

function describe(code: string | null | undefined, message: string | null | undefined): string {
	return quote(`${code ? `${code}: ` : ''}${message ?? 'no message'}`);
}

function normalise(raw: Record<string, unknown> | null | undefined): Usage | null {
	if (!raw) return null;
	const parsed = usageSchema.safeParse(raw);
	if (!parsed.success) return null;
	const usage = parsed.data;
	return {
		input: usage.input_tokens,
		output: usage.output_tokens,
		cacheRead: usage.input_tokens_details?.cached_tokens ?? 0,
		cacheWrite: 0,
		raw,
	};
}
