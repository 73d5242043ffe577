/**
 * The host's provider-neutral request as an OpenAI-compatible Chat
 * Completions body, with the module's quirks: the output cap's field, the
 * system prompt's role, tool results' `name`, and which assistant messages
 * keep their `reasoning_content` (DeepSeek's thinking mode).
 */
import type {ProviderRequest} from 'i-agent/extension';
import type {Quirks} from '../modules/module.js';

type Message = Record<string, unknown>;

export function chatBody(req: ProviderRequest, quirks: Quirks): Record<string, unknown> {
	const replay = quirks.requiresReasoningContent ? reasoningToReplay(req.messages) : new Set<number>();
	const names = quirks.toolResultName ? toolNames(req.messages) : new Map<string, string>();
	const messages = req.messages.map((message, index) => {
		// The host's own bookkeeping (keys starting with "_") never leaves.
		const wire: Message = Object.fromEntries(Object.entries(message).filter(([key]) => !key.startsWith('_')));
		if (wire.role === 'system') wire.role = quirks.systemRole;
		if (wire.role === 'assistant' && !replay.has(index)) delete wire.reasoning_content;
		if (wire.role === 'tool' && quirks.toolResultName) {
			const name = names.get(String(wire.tool_call_id));
			if (name !== undefined) wire.name = name;
		}

		return wire;
	});
	return {
		// The config's extra_body (temperature, thinking…) first: the fields this wire needs win.
		...req.extra,
		model: req.model,
		messages,
		...(req.tools.length > 0 ? {tools: req.tools.map(tool => ({type: 'function', function: tool}))} : {}),
		...(req.maxTokens === null ? {} : {[quirks.outputTokenField]: req.maxTokens}),
		stream: true,
		stream_options: {include_usage: true},
	};
}

/**
 * Indexes of the assistant messages whose reasoning goes back: every one in
 * a span between two user messages where a tool was called (DeepSeek
 * answers 400 without them). An image message a tool produced
 * (`_tool_call_id`) does not start a new span.
 */
export function reasoningToReplay(messages: readonly Message[]): Set<number> {
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
		if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) calledTools = true;
	});
	close();
	return replay;
}

/** Each tool call's function name, by its id, from the assistant messages. */
function toolNames(messages: readonly Message[]): Map<string, string> {
	const names = new Map<string, string>();
	for (const message of messages) {
		if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
		for (const call of message.tool_calls as Array<{id?: unknown; function?: {name?: unknown}}>) {
			if (typeof call.id === 'string' && typeof call.function?.name === 'string') names.set(call.id, call.function.name);
		}
	}

	return names;
}
