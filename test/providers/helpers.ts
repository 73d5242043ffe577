import type {Adapter, AdapterOptions, ModelReply, StreamEvent} from '../../source/core/providers/types.js';
import assert from 'node:assert/strict';
import {readSse} from '../../source/core/providers/sse.js';
import {ProviderError} from '../../source/core/providers/errors.js';

/** The ProviderError a promise rejects with; fails the test when it resolves or throws anything else. */
export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
	try {
		await promise;
	} catch (error) {
		assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
		return error;
	}

	assert.fail('no error');
}

export function adapterOptions(overrides: Partial<AdapterOptions> = {}): AdapterOptions {
	return {model: 'test-model', baseUrl: '', useMaxTokens: false, extraBody: {}, ...overrides};
}

/** Bytes of `text`, delivered in chunks of `size` bytes (small sizes split characters and lines). */
export async function* chunked(text: string, size = 7): AsyncGenerator<Uint8Array> {
	const bytes = new TextEncoder().encode(text);
	for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

export interface Assembled {
	reply?: ModelReply;
	error?: Error;
	events: StreamEvent[];
	partialText: string;
}

/** Runs an SSE body through the adapter's assembler, the way `sendRequest` does. */
export async function assemble(adapter: Adapter, sse: string): Promise<Assembled> {
	const events: StreamEvent[] = [];
	const assembler = adapter.createAssembler(event => events.push(event));
	try {
		for await (const event of readSse(chunked(sse), {label: `${adapter.protocol} stream`})) {
			assembler.push(event);
			if (assembler.complete()) break;
		}
		return {reply: assembler.finish(), events, partialText: assembler.partialText()};
	} catch (error) {
		return {error: error as Error, events, partialText: assembler.partialText()};
	}
}

export function texts(events: StreamEvent[], type: StreamEvent['type']): string {
	return events
		.filter(event => event.type === type)
		.map(event => event.text)
		.join('');
}

/** An SSE event line pair; `event` adds the named-event line Anthropic and Responses use. */
export function sse(data: unknown, event?: string): string {
	const line = typeof data === 'string' ? data : JSON.stringify(data);
	return `${event ? `event: ${event}\n` : ''}data: ${line}\n\n`;
}
