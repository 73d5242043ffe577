import {errorMessage} from '../errors.js';
import type {Message} from '../messages.js';
import {ANTHROPIC_BASE_URL, createAnthropicAdapter} from './anthropic.js';
import {createAnthropicAssembler} from './anthropic-stream.js';
import {DEEPSEEK_BASE_URL, createDeepSeekAdapter, createDeepSeekAssembler} from './deepseek.js';
import {ProviderError, redact, secretsOf} from './errors.js';
import {postStream, type HttpOptions, type StreamResponse} from './http.js';
import {OPENAI_BASE_URL, createOpenAiAdapter, createOpenAiAssembler} from './openai.js';
import {RESPONSES_BASE_URL, createResponsesAdapter} from './responses.js';
import {createResponsesAssembler} from './responses-stream.js';
import {createRetrier, type RetryNotice} from './retry.js';
import {requestHeaders, type HeadersHook} from './request-headers.js';
import {readSse} from './sse.js';
import type {Adapter, AdapterOptions, ModelReply, PreparedRequest, Protocol, StreamAssembler, StreamEvent, ToolSchema} from './types.js';

export {ProviderError, StreamProtocolError} from './errors.js';
export type {HttpOptions} from './http.js';
export type {RetryNotice} from './retry.js';
export type {HeadersHook} from './request-headers.js';

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

/** Each built-in protocol's stream assembler, for a reply whose wire a `before_request` hook changed. */
const assemblers: Record<Protocol, (emit: (event: StreamEvent) => void) => StreamAssembler> = {
	openai: createOpenAiAssembler,
	deepseek: createDeepSeekAssembler,
	anthropic: createAnthropicAssembler,
	responses: createResponsesAssembler,
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
	onRetry?: (notice: RetryNotice) => void | Promise<void>;
	httpOptions?: HttpOptions;
	/**
	 * The built-in protocol the reply streams in, when a `before_request` hook
	 * turned the request into another wire (the responses module); headers
	 * and authentication stay the adapter's.
	 */
	wire?: Protocol;
	/**
	 * Sees the request's headers but the credentials, once before the first
	 * attempt, and answers the set to send (request-headers.ts says what it
	 * may change); retries send the same.
	 */
	transformHeaders?: HeadersHook;
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
 * between `adapter.prepare` and here) and assembles the streamed reply. A
 * retryable failure inside the stream (a dropped connection, Anthropic's
 * `overloaded_error` event) sends the request again while nothing has been
 * shown, against the same retry budget as the HTTP layer; once text or
 * thinking went out, the failure ends the call.
 */
export async function sendRequest(args: SendArgs, request: PreparedRequest): Promise<ModelReply> {
	const {adapter, signal} = args;
	const provider = adapter.protocol;
	const headers = await requestHeaders(adapter.headers(args.apiKey), request.url, args.transformHeaders, adapter.secretHeaders);
	// The secrets the HTTP layer hides: a stream event or a quoted data line may repeat the key or a secret header too.
	const secrets = secretsOf(headers, adapter.secretHeaders);
	const retrier = createRetrier({provider, options: args.httpOptions, signal, onRetry: args.onRetry});
	let shown = false;
	const emit = (event: StreamEvent) => {
		shown = true;
		args.emit(event);
	};

	const fail = (error: unknown, assembler: StreamAssembler): ProviderError => {
		const failure = asProviderError(error, provider, signal);
		failure.message = redact(failure.message, secrets);
		if (failure.stack) failure.stack = redact(failure.stack, secrets);
		failure.partialText = assembler.partialText();
		return failure;
	};

	for (;;) {
		const assembler = args.wire === undefined ? adapter.createAssembler(emit) : assemblers[args.wire](emit);
		let response: StreamResponse;
		try {
			response = await postStream({
				provider,
				request,
				headers,
				secrets,
				retrier,
				...(signal ? {signal} : {}),
				...(args.httpOptions ? {options: args.httpOptions} : {}),
			});
		} catch (error) {
			// postStream already retried what it could.
			throw fail(error, assembler);
		}

		try {
			return await readReply(response, assembler, provider, signal);
		} catch (error) {
			const failure = fail(error, assembler);
			if (!failure.retryable || shown) throw failure;
			const prefix = `${provider}: `;
			const reason = failure.message.startsWith(prefix) ? failure.message.slice(prefix.length) : failure.message;
			try {
				await retrier.wait(failure, reason);
			} catch (last) {
				throw fail(last, assembler);
			}
		}
	}
}

/** Reads events until the assembler has the whole reply; the rest of the body (trailing bytes, a reset) is discarded. */
async function readReply(response: StreamResponse, assembler: StreamAssembler, provider: string, signal: AbortSignal | undefined): Promise<ModelReply> {
	for await (const event of readSse(response.body, {label: `${provider} stream`})) {
		// Events already read from the socket are not shown once the person cancelled.
		if (signal?.aborted) throw new ProviderError(`${provider}: request cancelled`, {kind: 'aborted'});
		assembler.push(event);
		if (assembler.complete()) {
			response.release();
			break;
		}
	}

	return assembler.finish();
}

function asProviderError(error: unknown, protocol: string, signal: AbortSignal | undefined): ProviderError {
	if (error instanceof ProviderError) return error;
	if (signal?.aborted) return new ProviderError(`${protocol}: request cancelled`, {kind: 'aborted'});
	return new ProviderError(`${protocol}: ${errorMessage(error)}`, {kind: 'stream'});
}
