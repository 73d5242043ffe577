import type {Message} from '../messages.js';
import {createAdapter, sendRequest, type HeadersHook, type HttpOptions, type RetryNotice} from '../providers/index.js';
import {ProviderError} from '../providers/errors.js';
import type {Adapter, ModelReply, PreparedRequest, StreamEvent} from '../providers/types.js';
import type {CompletionsWire, ProviderCompletions, ProviderMessage, ProviderRequest} from './api.js';

const protocols = ['openai', 'deepseek', 'anthropic', 'responses'] as const;
const chatProtocols: ReadonlySet<string> = new Set(['openai', 'deepseek']);
/** The credential headers of the four adapters: none goes to an anonymous provider (a null key). */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key'];

export interface CompletionsContext {
	/** Names the provider in errors: `extension i-providers provider "deepseek"`. */
	label: string;
	/** The registration's own endpoint, when neither the request nor the wire names one. */
	baseUrl: string | undefined;
	signal: AbortSignal;
	/** Each live delta, as a frame of the run (provider-run.ts counts and shows it). */
	emit: (event: StreamEvent) => void;
	onRetry: (notice: RetryNotice) => Promise<void>;
	http?: HttpOptions;
	transformHeaders?: HeadersHook;
}

/**
 * `io.completions` of one request (api-providers.ts ProviderCompletions):
 * the extension's request in the provider-neutral shape goes out through
 * the built-in adapter of `wire.protocol` and `sendRequest`, so an extension
 * provider of an OpenAI-compatible, DeepSeek, Anthropic or Responses wire
 * has the same SSE reader, assembler, retries, limits, proxies, redaction
 * and truncation check as a config's `protocol`.
 */
export function createCompletions(context: CompletionsContext): ProviderCompletions {
	return async (req, wire = {}) => {
		const protocol = wire.protocol ?? 'openai';
		if (!(protocols as readonly string[]).includes(protocol)) throw new TypeError(`io.completions: wire.protocol ${JSON.stringify(protocol)} is not one of ${protocols.join(', ')}`);
		const base = req.baseUrl ?? wire.baseUrl ?? context.baseUrl;
		if (base === undefined || base === '') throw new ProviderError(`${context.label}: no endpoint: set "baseUrl" under this provider in models.json`, {kind: 'request'});
		const adapter = createAdapter(protocol, {
			model: req.model,
			baseUrl: base,
			...(req.maxTokens === null ? {} : {maxTokens: req.maxTokens}),
			useMaxTokens: (wire.outputTokenField ?? 'max_tokens') === 'max_tokens',
			...(wire.reasoningField === undefined ? {} : {reasoningField: wire.reasoningField}),
			extraBody: {},
		});
		const request = prepare(adapter, req, wire);
		const reply = await sendRequest(
			{
				adapter: withCredentials(adapter, req),
				apiKey: req.apiKey ?? '',
				signal: context.signal,
				emit: context.emit,
				onRetry: context.onRetry,
				...(context.http ? {httpOptions: context.http} : {}),
				...(context.transformHeaders ? {transformHeaders: context.transformHeaders} : {}),
			},
			request,
		).catch((error: unknown) => {
			// The URL is named: the endpoint a module or models.json chose is the first thing to check.
			if (error instanceof ProviderError && error.kind === 'http') error.message = `${error.message} (POST ${request.url})`;
			throw error;
		});
		return providerMessage(reply);
	};
}

/** The adapter's body for the request's messages and tools, with the extra fields under the adapter's own and the wire's quirks applied. */
function prepare(adapter: Adapter, req: ProviderRequest, wire: CompletionsWire): PreparedRequest {
	const prepared = adapter.prepare(req.messages as unknown as Message[], req.tools);
	// The config's extra_body and a hook's fields first: the fields the wire needs win, as the adapter's own do.
	const body: Record<string, unknown> = {...req.extra, ...prepared.body};
	if (chatProtocols.has(adapter.protocol) && Array.isArray(body.messages)) body.messages = chatQuirks(body.messages as Array<Record<string, unknown>>, wire);
	if (chatProtocols.has(adapter.protocol) && wire.streamUsage === false) delete body.stream_options;
	return {url: prepared.url, body};
}

function chatQuirks(messages: Array<Record<string, unknown>>, wire: CompletionsWire): Array<Record<string, unknown>> {
	const names = new Map<string, string>();
	return messages.map(message => {
		if (message.role === 'system' && wire.systemRole === 'developer') return {...message, role: 'developer'};
		if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
			for (const call of message.tool_calls as Array<{id?: unknown; function?: {name?: unknown}}>) {
				if (typeof call.id === 'string' && typeof call.function?.name === 'string') names.set(call.id, call.function.name);
			}
		}

		const name = message.role === 'tool' && wire.toolResultName ? names.get(String(message.tool_call_id)) : undefined;
		return name === undefined ? message : {...message, name};
	});
}

/** The request's headers from models.json under the adapter's own (secrets like the key), and no credential header without a key. */
function withCredentials(adapter: Adapter, req: ProviderRequest): Adapter {
	const headers = req.headers ?? {};
	const anonymous = req.apiKey === null || req.apiKey === undefined;
	return {
		...adapter,
		secretHeaders: Object.keys(headers),
		headers(apiKey) {
			const own = adapter.headers(apiKey);
			if (anonymous) for (const name of CREDENTIAL_HEADERS) delete own[name];
			return {...headers, ...own};
		},
	};
}

function providerMessage(reply: ModelReply): ProviderMessage {
	const {message, usage} = reply;
	return {
		role: 'assistant',
		content: message.content,
		...(message.tool_calls ? {tool_calls: message.tool_calls.map(call => ({id: call.id, type: 'function' as const, function: {...call.function}}))} : {}),
		...(message.reasoning_content === undefined ? {} : {reasoning_content: message.reasoning_content}),
		...(reply.rawFinishReason === null ? {} : {finish_reason: reply.finishReason === 'other' ? reply.rawFinishReason : reply.finishReason}),
		...(usage ? {usage: {input: usage.input, output: usage.output, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite}} : {}),
	};
}
