import type {ToolCall} from '../messages.js';
import type {ModelReply} from '../providers/types.js';
import {TurnError} from '../errors.js';

/** Tool call IDs travel back to the provider; anything longer is not a real ID. */
const MAX_TOOL_CALL_ID_LENGTH = 256;

/**
 * Checks a reply's whole batch of tool calls before any of them runs: IDs
 * present and unique, `function` type, names present, arguments as strings,
 * and a finish reason that says the batch is complete. A batch that fails
 * cannot be answered call by call, so the turn fails and nothing is saved.
 * Whether each argument string is a JSON object is the call's own business:
 * a bad one goes back to the model as a tool error.
 */
export function validateBatch(reply: ModelReply): ToolCall[] {
	const calls: unknown = reply.message.tool_calls ?? [];
	if (!Array.isArray(calls)) throw new TurnError('the model reply has tool_calls that are not a list');
	if (calls.length === 0) return [];

	if (reply.finishReason === 'length') {
		throw new TurnError(`the model reply was cut off (finish reason ${reply.rawFinishReason ?? 'length'}) in the middle of ${calls.length} tool call(s); raise max_tokens in the config`);
	}

	if (reply.finishReason === 'content_filter') {
		throw new TurnError('the provider stopped the reply with a content filter in the middle of tool calls');
	}

	const seen = new Set<string>();
	calls.forEach((call: unknown, index) => {
		const where = `tool call #${index + 1}`;
		if (typeof call !== 'object' || call === null) throw new TurnError(`${where} is not an object`);
		const {id, type, function: fn} = call as Partial<ToolCall>;
		if (typeof id !== 'string' || id.length === 0) throw new TurnError(`${where} has no ID`);
		if (id.length > MAX_TOOL_CALL_ID_LENGTH) throw new TurnError(`${where} has an ID longer than ${MAX_TOOL_CALL_ID_LENGTH} characters`);
		if (seen.has(id)) throw new TurnError(`${where} repeats the ID ${JSON.stringify(id)}`);
		seen.add(id);
		if (type !== 'function') throw new TurnError(`${where} (${id}) has type ${JSON.stringify(type)}, not "function"`);
		if (typeof fn !== 'object' || fn === null) throw new TurnError(`${where} (${id}) has no function`);
		if (typeof fn.name !== 'string' || fn.name.length === 0) throw new TurnError(`${where} (${id}) has no tool name`);
		if (typeof fn.arguments !== 'string') throw new TurnError(`${where} (${id}) has arguments that are not a JSON string`);
	});

	return calls as ToolCall[];
}

/** Parses one call's argument string; the error message is meant for the model. */
export function parseArguments(text: string): {ok: true; value: Record<string, unknown>} | {ok: false; message: string} {
	let value: unknown;
	try {
		value = JSON.parse(text.trim() === '' ? '{}' : text);
	} catch (error) {
		return {ok: false, message: `arguments are not valid JSON (${(error as Error).message}); send a JSON object`};
	}

	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return {ok: false, message: 'arguments must be a JSON object'};
	}

	return {ok: true, value: value as Record<string, unknown>};
}
