import {errorMessage} from '../errors.js';
import type {Message} from '../messages.js';
import {ANTHROPIC_BASE_URL, createAnthropicAdapter} from './anthropic.js';
import {DEEPSEEK_BASE_URL, createDeepSeekAdapter} from './deepseek.js';
import {ProviderError} from './errors.js';
import {postStream, type HttpOptions, type RetryNotice} from './http.js';
import {OPENAI_BASE_URL, createOpenAiAdapter} from './openai.js';
import {RESPONSES_BASE_URL, createResponsesAdapter} from './responses.js';
import {readSse} from './sse.js';
import type {Adapter, AdapterOptions, ModelReply, PreparedRequest, Protocol, StreamEvent, ToolSchema} from './types.js';

export {ProviderError, StreamProtocolError} from './errors.js';
export type {HttpOptions, RetryNotice} from './http.js';

/** Where each protocol goes when the config names no `base_url`. */
export const defaultBaseUrls: Record<Protocol, string> = {
	openai: OPENAI_BASE_URL,
	deepseek: DEEPSEEK_BASE_URL,
	anthropic: ANTHROPIC_BASE_URL,
	responses: RESPONSES_BASE_URL,
};

const factories: Record<Protocol, (options: AdapterOptions) => Adapter> = {
	openai: createOpenAiAdapter,
	deepseek: createDeepSeekAdapter,
	anthropic: createAnthropicAdapter,
	responses: createResponsesAdapter,
};

/** The adapter for a protocol. An empty `baseUrl` means the protocol's default. */
export function createAdapter(protocol: Protocol, options: AdapterOptions): Adapter {
	return factories[protocol](options);
}

export interface SendArgs {
	adapter: Adapter;
	apiKey: string;
	signal?: AbortSignal;
	/** Live text and thinking deltas, as they arrive. */
	emit: (event: StreamEvent) => void;
	onRetry?: (notice: RetryNotice) => void;
	httpOptions?: HttpOptions;
}

export interface CallModelArgs extends SendArgs {
	messages: Message[];
	tools: ToolSchema[];
}

/** Prepares and sends one model request. Failures throw `ProviderError` carrying the text already streamed. */
export async function callModel(args: CallModelArgs): Promise<ModelReply> {
	return sendRequest(args, args.adapter.prepare(args.messages, args.tools));
}

/**
 * Sends a prepared request (which a `before_request` hook may have changed
 * between `adapter.prepare` and here) and assembles the streamed reply.
 */
export async function sendRequest(args: SendArgs, request: PreparedRequest): Promise<ModelReply> {
	const {adapter, signal} = args;
	const assembler = adapter.createAssembler(args.emit);
	try {
		const response = await postStream({
			provider: adapter.protocol,
			request,
			headers: adapter.headers(args.apiKey),
			...(signal ? {signal} : {}),
			...(args.onRetry ? {onRetry: args.onRetry} : {}),
			...(args.httpOptions ? {options: args.httpOptions} : {}),
		});
		for await (const event of readSse(response.body, {label: `${adapter.protocol} stream`})) {
			// Events already read from the socket are not shown once the person cancelled.
			if (signal?.aborted) throw new ProviderError(`${adapter.protocol}: request cancelled`, {kind: 'aborted'});
			assembler.push(event);
		}

		return assembler.finish();
	} catch (error) {
		const failure = asProviderError(error, adapter.protocol, signal);
		failure.partialText = assembler.partialText();
		throw failure;
	}
}

function asProviderError(error: unknown, protocol: string, signal: AbortSignal | undefined): ProviderError {
	if (error instanceof ProviderError) return error;
	if (signal?.aborted) return new ProviderError(`${protocol}: request cancelled`, {kind: 'aborted'});
	return new ProviderError(`${protocol}: ${errorMessage(error)}`, {kind: 'stream'});
}
