/**
 * The OpenAI Chat Completions wire, streamed: the host's provider-neutral
 * request becomes a `stream: true` body, and each SSE chunk becomes the
 * host's frames (text, thinking, tool-call fragments, usage) while the
 * complete message is assembled for the final answer.
 */
import type {ProviderFrame, ProviderMessage, ProviderRequest, ProviderToolCall, ProviderUsage} from 'i-agent/extension';

/** The body POSTed to `<baseUrl>/chat/completions`. */
export function chatBody(req: ProviderRequest): Record<string, unknown> {
	return {
		// The config's extra_body (reasoning_effort, temperature…) goes first: the fields this wire needs win.
		...req.extra,
		model: req.model,
		// The host's history is Chat-Completions-like; its own bookkeeping fields (those starting with "_") stay home.
		messages: req.messages.map(message => Object.fromEntries(Object.entries(message).filter(([key]) => !key.startsWith('_')))),
		...(req.tools.length > 0 ? {tools: req.tools.map(tool => ({type: 'function', function: tool}))} : {}),
		...(req.maxTokens === null ? {} : {max_tokens: req.maxTokens}),
		stream: true,
		stream_options: {include_usage: true},
	};
}

interface ChunkToolCall {
	index?: number;
	id?: string;
	function?: {name?: string; arguments?: string};
}

interface Chunk {
	choices?: Array<{delta?: {content?: string | null; reasoning_content?: string | null; tool_calls?: ChunkToolCall[]}; finish_reason?: string | null}>;
	usage?: {prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: {cached_tokens?: number}} | null;
	error?: {message?: string};
}

/**
 * One response's state: feed it each `data:` payload, it answers the frames
 * to emit; `message()` is the complete answer so far (also after a cancel:
 * what was generated until then).
 */
export class ChatAssembler {
	#text = '';
	#thinking = '';
	#finish: string | undefined;
	#usage: ProviderUsage | undefined;
	readonly #calls: Array<{id: string; name: string; arguments: string}> = [];
	/** Content index of the text block, the thinking block, and each tool call (by the wire's index), in the order they started. */
	#textIndex: number | undefined;
	#thinkingIndex: number | undefined;
	readonly #callIndex = new Map<number, number>();
	#next = 0;
	#done = false;

	/** `[DONE]` came: the reply is complete. */
	get done(): boolean {
		return this.#done;
	}

	push(data: string): ProviderFrame[] {
		if (data.trim() === '[DONE]') {
			this.#done = true;
			return this.#closeAll();
		}

		let chunk: Chunk;
		try {
			chunk = JSON.parse(data) as Chunk;
		} catch {
			throw new Error(`the server sent a data line that is not JSON: ${data.slice(0, 120)}`);
		}

		if (chunk.error) throw new Error(`the server reported an error in the stream: ${chunk.error.message ?? 'no message'}`);
		const frames: ProviderFrame[] = [];
		const choice = chunk.choices?.[0];
		const delta = choice?.delta;
		if (delta?.reasoning_content) {
			if (this.#thinkingIndex === undefined) {
				this.#thinkingIndex = this.#next++;
				frames.push({type: 'thinking_start', contentIndex: this.#thinkingIndex});
			}

			this.#thinking += delta.reasoning_content;
			frames.push({type: 'thinking_delta', contentIndex: this.#thinkingIndex, delta: delta.reasoning_content});
		}

		if (delta?.content) {
			if (this.#textIndex === undefined) {
				this.#textIndex = this.#next++;
				frames.push({type: 'text_start', contentIndex: this.#textIndex});
			}

			this.#text += delta.content;
			frames.push({type: 'text_delta', contentIndex: this.#textIndex, delta: delta.content});
		}

		for (const part of delta?.tool_calls ?? []) {
			const wire = part.index ?? 0;
			let contentIndex = this.#callIndex.get(wire);
			if (contentIndex === undefined) {
				contentIndex = this.#next++;
				this.#callIndex.set(wire, contentIndex);
				this.#calls[wire] = {id: part.id ?? `call_${wire}`, name: part.function?.name ?? '', arguments: ''};
				frames.push({type: 'toolcall_start', contentIndex, id: this.#calls[wire].id, name: this.#calls[wire].name});
			}

			const call = this.#calls[wire]!;
			if (part.function?.name && call.name === '') call.name = part.function.name;
			if (part.function?.arguments) {
				call.arguments += part.function.arguments;
				frames.push({type: 'toolcall_delta', contentIndex, delta: part.function.arguments});
			}
		}

		if (choice?.finish_reason) this.#finish = choice.finish_reason;
		if (chunk.usage) {
			this.#usage = {input: chunk.usage.prompt_tokens ?? 0, output: chunk.usage.completion_tokens ?? 0, cacheRead: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0};
			frames.push({type: 'usage', usage: this.#usage});
		}

		return frames;
	}

	message(): ProviderMessage {
		const calls: ProviderToolCall[] = this.#calls.filter(Boolean).map(call => ({id: call.id, type: 'function', function: {name: call.name, arguments: call.arguments}}));
		return {
			role: 'assistant',
			content: this.#text === '' && calls.length > 0 ? null : this.#text,
			...(calls.length > 0 ? {tool_calls: calls} : {}),
			...(this.#thinking === '' ? {} : {reasoning_content: this.#thinking}),
			...(this.#finish === undefined ? {} : {finish_reason: this.#finish}),
			...(this.#usage === undefined ? {} : {usage: this.#usage}),
		};
	}

	/** The `*_end` frames of every block still open, in content order. */
	#closeAll(): ProviderFrame[] {
		const frames: ProviderFrame[] = [];
		if (this.#thinkingIndex !== undefined) frames.push({type: 'thinking_end', contentIndex: this.#thinkingIndex});
		if (this.#textIndex !== undefined) frames.push({type: 'text_end', contentIndex: this.#textIndex});
		for (const contentIndex of this.#callIndex.values()) frames.push({type: 'toolcall_end', contentIndex});
		return frames.sort((a, b) => ('contentIndex' in a && 'contentIndex' in b ? a.contentIndex - b.contentIndex : 0));
	}
}
