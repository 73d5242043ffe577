/**
 * One streamed reply: each `data:` payload in, the host's frames out (text,
 * thinking, tool-call fragments, usage), and the complete message
 * assembled for the final answer, also after a cancel (what came so far).
 */
import type {ProviderFrame, ProviderMessage, ProviderToolCall, ProviderUsage} from 'i-agent/extension';
import type {Quirks} from '../modules/module.js';

interface ChunkToolCall {
	index?: number;
	id?: string;
	function?: {name?: string; arguments?: string};
}

interface Chunk {
	choices?: Array<{delta?: {content?: string | null; reasoning_content?: string | null; reasoning?: string | null; tool_calls?: ChunkToolCall[]}; finish_reason?: string | null}>;
	usage?: {prompt_tokens?: number; completion_tokens?: number; prompt_cache_hit_tokens?: number; prompt_tokens_details?: {cached_tokens?: number} | null} | null;
	error?: {message?: string};
}

export class ChunkAssembler {
	readonly #quirks: Quirks;
	#text = '';
	#thinking = '';
	#finish: string | undefined;
	#usage: ProviderUsage | undefined;
	readonly #calls: Array<{id: string; name: string; arguments: string}> = [];
	#textIndex: number | undefined;
	#thinkingIndex: number | undefined;
	readonly #callIndex = new Map<number, number>();
	#next = 0;
	#done = false;

	constructor(quirks: Quirks) {
		this.#quirks = quirks;
	}

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

		if (chunk === null || typeof chunk !== 'object') throw new Error(`the server sent a data line that is not an object: ${data.slice(0, 120)}`);
		if (chunk.error) throw new Error(`the server reported an error in the stream: ${chunk.error.message ?? 'no message'}`);
		const frames: ProviderFrame[] = [];
		const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
		const delta = choice?.delta;
		const thinking = delta?.[this.#quirks.reasoningField];
		if (typeof thinking === 'string' && thinking !== '') {
			if (this.#thinkingIndex === undefined) {
				this.#thinkingIndex = this.#next++;
				frames.push({type: 'thinking_start', contentIndex: this.#thinkingIndex});
			}

			this.#thinking += thinking;
			frames.push({type: 'thinking_delta', contentIndex: this.#thinkingIndex, delta: thinking});
		}

		if (typeof delta?.content === 'string' && delta.content !== '') {
			if (this.#textIndex === undefined) {
				this.#textIndex = this.#next++;
				frames.push({type: 'text_start', contentIndex: this.#textIndex});
			}

			this.#text += delta.content;
			frames.push({type: 'text_delta', contentIndex: this.#textIndex, delta: delta.content});
		}

		for (const part of Array.isArray(delta?.tool_calls) ? delta.tool_calls : []) {
			const wire = typeof part.index === 'number' ? part.index : 0;
			let contentIndex = this.#callIndex.get(wire);
			if (contentIndex === undefined) {
				contentIndex = this.#next++;
				this.#callIndex.set(wire, contentIndex);
				this.#calls[wire] = {id: part.id ?? `call_${wire}`, name: part.function?.name ?? '', arguments: ''};
				frames.push({type: 'toolcall_start', contentIndex, id: this.#calls[wire].id, name: this.#calls[wire].name});
			}

			const call = this.#calls[wire]!;
			if (part.function?.name && call.name === '') call.name = part.function.name;
			if (typeof part.function?.arguments === 'string' && part.function.arguments !== '') {
				call.arguments += part.function.arguments;
				frames.push({type: 'toolcall_delta', contentIndex, delta: part.function.arguments});
			}
		}

		if (choice?.finish_reason) this.#finish = choice.finish_reason;
		if (chunk.usage) {
			const {usage} = chunk;
			// DeepSeek says its cache hit in prompt_cache_hit_tokens, the others in prompt_tokens_details; prompt_tokens counts both.
			this.#usage = {input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0, cacheRead: usage.prompt_cache_hit_tokens ?? usage.prompt_tokens_details?.cached_tokens ?? 0, cacheWrite: 0};
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
			// Kept whichever field it came in: the host stores it, and the DeepSeek module sends it back where it must.
			...(this.#thinking === '' ? {} : {reasoning_content: this.#thinking}),
			...(this.#finish === undefined ? {} : {finish_reason: this.#finish}),
			...(this.#usage === undefined ? {} : {usage: this.#usage}),
		};
	}

	#closeAll(): ProviderFrame[] {
		const ends: Array<{type: 'thinking_end' | 'text_end' | 'toolcall_end'; contentIndex: number}> = [];
		if (this.#thinkingIndex !== undefined) ends.push({type: 'thinking_end', contentIndex: this.#thinkingIndex});
		if (this.#textIndex !== undefined) ends.push({type: 'text_end', contentIndex: this.#textIndex});
		for (const contentIndex of this.#callIndex.values()) ends.push({type: 'toolcall_end', contentIndex});
		return ends.sort((a, b) => a.contentIndex - b.contentIndex);
	}
}
