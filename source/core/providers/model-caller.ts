import type {ModelPrices} from '../usage-cost.js';
import type {Message} from '../messages.js';
import type {Adapter, FileReferences, ModelReply, PreparedRequest, Protocol, StreamEvent, ToolSchema} from './types.js';
import {warmTransport} from './http-request.js';
import {sendRequest, type HeadersHook, type HttpOptions, type RetryNotice} from './index.js';

export interface SendIo {
	signal: AbortSignal;
	emit: (event: StreamEvent) => void;
	/** A problem the person should hear of that does not fail the request (an extension provider's malformed frame). */
	warn?: (message: string) => void;
	/** Awaited before each physical retry. */
	onRetry: (notice: RetryNotice) => Promise<void>;
	/** A `before_request` hook turned the request into this built-in protocol's wire: its assembler reads the reply. */
	wire?: Protocol;
	/** The extensions' `BeforeProviderHeaders`; a provider without HTTP headers of its own (a worker) never calls it. */
	transformHeaders?: HeadersHook;
}

/**
 * How a turn reaches the model: `prepare` builds the request a
 * `before_request` hook may change, `send` delivers it and returns the
 * assembled reply. The built-in adapters speak HTTP; a provider worker
 * speaks NDJSON (providers/worker-provider.ts).
 */
export interface ModelCaller {
	/** The wire hooks see (`openai`, an extension provider's id). */
	readonly protocol: string;
	/** The catalogue provider, when the model was chosen by catalogue (a models.json provider speaks `openai`'s wire under its own id). */
	readonly provider?: string;
	readonly model: string;
	/** The model's prices from the catalogue (dollars per million tokens); absent when the catalogue has no such model: its cost is unknown. */
	readonly prices?: ModelPrices | undefined;
	/**
	 * Uploads the request's images through the provider's Files channel
	 * (DeepSeek with `"images": "files"`) and says which go by file ID;
	 * before `prepare`, so the hooks see the body that is sent. Absent: every
	 * image goes inline.
	 */
	referenceFiles?(messages: Message[], signal: AbortSignal): Promise<FileReferences>;
	prepare(messages: Message[], tools: ToolSchema[], references?: FileReferences): PreparedRequest;
	send(request: PreparedRequest, io: SendIo): Promise<ModelReply>;
	/** Starts loading what `send` will need, without waiting; a turn calls it before its hooks run. Absent: nothing to load. */
	warmUp?(): void;
}

/** What the HTTP caller asks of a Files channel. */
export interface FilesChannel {
	reference(messages: readonly Message[], signal: AbortSignal | undefined): Promise<FileReferences>;
}

/** Where a Files channel uploads: DeepSeek's endpoint, the headers with the key, and the key's variable (for the account scope, never the key). */
export interface FilesEndpoint {
	baseUrl: string;
	headers: Record<string, string>;
	keyName: string | undefined;
	maxRetries: number;
}

export function createHttpCaller(options: {adapter: Adapter; apiKey: string; model: string; http?: HttpOptions; files?: FilesChannel}): ModelCaller {
	const {adapter, files} = options;
	return {
		protocol: adapter.protocol,
		model: options.model,
		...(files ? {referenceFiles: async (messages: Message[], signal: AbortSignal) => files.reference(messages, signal)} : {}),
		prepare: (messages, tools, references) => adapter.prepare(messages, tools, references),
		warmUp: warmTransport,
		send: async (request, io) =>
			sendRequest(
				{
					adapter,
					apiKey: options.apiKey,
					signal: io.signal,
					emit: io.emit,
					onRetry: io.onRetry,
					...(io.wire === undefined ? {} : {wire: io.wire}),
					...(io.transformHeaders === undefined ? {} : {transformHeaders: io.transformHeaders}),
					...(options.http ? {httpOptions: options.http} : {}),
				},
				request,
			),
	};
}
