/**
 * The extension contract's model providers (spec/extensions.md §5, §11): what
 * `api.registerProvider` and `api.registerStreamingProvider` take, what a
 * request gets and answers, and the catalogue `api.declare` lists them in.
 */

/** Dollars per million tokens; a price left out is unknown (shown as "unknown", never as 0). */
export interface DeclaredModelCost {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
}

/** One model of a declared provider. */
export interface DeclaredModel {
	/** What the server is sent as `model`: 1–256 printable characters, `/` allowed. */
	id: string;
	/** For people, one line of at most 200 characters. */
	name: string;
	/** The provider's id: the same as the entry's, else a load error. */
	provider: string;
	/** The wire, a label: `openai-completions`. */
	api: string;
	contextWindow?: number;
	/** The most output tokens of one reply. */
	maxTokens?: number;
	/** Default `['text']`. */
	input?: Array<'text' | 'image'>;
	/** Default false. */
	reasoning?: boolean;
	/** Default `{}`: every price unknown. */
	cost?: DeclaredModelCost;
}

/** One provider of the catalogue, as `declare({providers})` takes it. */
export interface DeclaredProvider {
	/** The id the extension registers (registerStreamingProvider / registerProvider); another id is a load error. */
	id: string;
	/** At most 1024. */
	models: DeclaredModel[];
	/** The NAME of the environment variable that holds its key: the host reads it and passes the key in `req.apiKey`. */
	apiKeyEnv?: string;
	/** Default true; false for an anonymous service, whose requests then get `req.apiKey` null. */
	requiresAuth?: boolean;
	/** Its default endpoint, shown in lists; models.json may move it (the request then says so in `req.baseUrl`). */
	baseUrl?: string;
}

/** What a provider's `request` gets (spec/extensions.md §5): the request in the core's provider-neutral shape, a copy. */
export interface ProviderRequest {
	model: string;
	/** Chat-Completions-like: `{role, content, tool_calls?}`, tool results as `{role: 'tool', tool_call_id, content}`. */
	messages: Array<Record<string, unknown>>;
	tools: Array<{name: string; description: string; parameters: Record<string, unknown>}>;
	/** The config's max_tokens; null when it sets none. */
	maxTokens: number | null;
	/** Any other top-level field of the prepared body: the config's `extra_body` and what a request hook added. */
	extra: Record<string, unknown>;
	/**
	 * The credential the host resolved for this provider (authoring guide "Credentials"), or null when
	 * the provider is anonymous (`requiresAuth: false`) or was selected without the catalogue. Use it
	 * for this request only; never read a key from `process.env` yourself. Always set by this host
	 * (optional in the type: an older host has none of the three).
	 */
	apiKey?: string | null;
	/** Where this request goes: the catalogue's `baseUrl` or the models.json override; null: the provider's own default. */
	baseUrl?: string | null;
	/** Extra request headers from models.json (never shown anywhere else); `{}` when none. */
	headers?: Record<string, string>;
}

/** A tool call of the final message, Chat Completions' shape. */
export interface ProviderToolCall {
	id: string;
	type: 'function';
	function: {name: string; arguments: string};
}

/** A token count as a `usage` frame (or the final message) reports it. */
export interface ProviderUsage {
	input: number;
	output: number;
	cacheRead?: number;
	cacheWrite?: number;
}

/** What both kinds resolve with: the complete answer, which is what the session keeps. */
export interface ProviderMessage {
	role: 'assistant';
	content: string | null;
	tool_calls?: ProviderToolCall[];
	/** Reasoning text, replayed where the API wants it. */
	reasoning_content?: string;
	/** `stop`, `tool_calls`, `length`, `content_filter`; absent: `tool_calls` when there are any, else `stop`. */
	finish_reason?: string;
	/** The request's usage, when no `usage` frame reported it (a one-shot provider has no frames). */
	usage?: ProviderUsage;
}

/**
 * One streamed frame (spec/extensions.md §5). `text_delta`, `thinking_delta` and
 * `toolcall_delta` are content (kind 0); `start`, `*_start`, `*_end` and
 * `usage` are structural (kind 1). Unknown types are ignored.
 */
export type ProviderFrame =
	| {type: 'start'}
	| {type: 'text_start' | 'text_end' | 'thinking_start' | 'thinking_end' | 'toolcall_end'; contentIndex: number}
	| {type: 'text_delta' | 'thinking_delta' | 'toolcall_delta'; contentIndex: number; delta: string}
	| {type: 'toolcall_start'; contentIndex: number; id?: string; name?: string}
	| {type: 'usage'; usage: ProviderUsage};

/** `control.isCancelled`'s kinds. */
export const CHUNK_CONTENT = 0;
export const CHUNK_STRUCTURAL = 1;

/** The control plane a streaming request polls (spec/extensions.md §5). */
export interface ProviderControl {
	/** Non-blocking: true once the request is cancelled (Esc, Ctrl-C, SIGINT, the turn ending, an idle limit). */
	isCancelled(kind?: typeof CHUNK_CONTENT | typeof CHUNK_STRUCTURAL): boolean;
	/** True at once when already cancelled, else true on cancel or false after `ms` (or when the request ended). */
	waitCancelled(ms: number): Promise<boolean>;
}

/** What `io.fetch` takes besides the URL: a subset of fetch's. */
export interface ProviderFetchInit {
	/** GET by default, as fetch; POST or DELETE. */
	method?: string;
	headers?: Record<string, string> | Headers | Array<[string, string]>;
	body?: string | Uint8Array | null;
	signal?: AbortSignal | null;
}

/**
 * The host's HTTP layer for model calls, shaped like `fetch`: the proxy
 * variables, `NODE_EXTRA_CA_CERTS`, the header and silence timeouts of the
 * built-in adapters, no redirect followed. A host older than this one has none: fall back to `fetch`.
 */
export type ProviderFetch = (url: string | URL, init?: ProviderFetchInit) => Promise<Response>;

/**
 * What `io.completions` is told of the wire besides the request: which of
 * the host's built-in adapters sends it, and the small ways an
 * OpenAI-compatible server differs from OpenAI's Chat Completions. Every
 * field is optional; the defaults are OpenAI's Chat Completions as most
 * compatible servers take it.
 */
export interface CompletionsWire {
	/**
	 * The host adapter: `openai` (Chat Completions, the default), `deepseek` (Chat Completions with DeepSeek's
	 * rule: the `reasoning_content` of a span that called tools goes back, its cache-hit usage), `anthropic`
	 * (Messages) or `responses` (OpenAI Responses), as a config's `protocol` names them.
	 */
	protocol?: 'openai' | 'deepseek' | 'anthropic' | 'responses';
	/** The endpoint when the request has none (`req.baseUrl` null): the provider's default, as its SDK spells it (`https://api.groq.com/openai/v1`). */
	baseUrl?: string;
	/** Chat wires: the output cap's body field, `max_tokens` (the default; most compatible servers) or OpenAI's newer `max_completion_tokens`. */
	outputTokenField?: 'max_tokens' | 'max_completion_tokens';
	/** Chat wires: the system prompt's role, `system` (the default) or OpenAI's newer `developer`. */
	systemRole?: 'system' | 'developer';
	/** Chat wires: where a streamed delta carries thinking, `reasoning_content` (the default; DeepSeek, llama.cpp) or `reasoning` (OpenRouter, Groq). */
	reasoningField?: 'reasoning_content' | 'reasoning';
	/** Chat wires: tool results carry the tool's `name` beside `tool_call_id` (gateways in front of Gemini want it). Default false. */
	toolResultName?: boolean;
	/** Chat wires: ask for usage with `stream_options: {include_usage: true}` (the default); false for a server that refuses the field and reports usage anyway (Mistral). */
	streamUsage?: boolean;
}

/**
 * `io.completions`: runs a request on the host's own adapter of the wire,
 * its SSE reader and stream assembler, and its HTTP layer (retries of 429
 * and 5xx with `Retry-After`, limits, proxies, the redaction of the key and
 * of models.json's headers, a cut stream failing as truncated). Its frames
 * reach the person as they come, so a provider that uses it emits none of
 * its own; it resolves with the complete message, to be returned from
 * `request`, and rejects with the host's error, to be thrown as it is.
 * The key, endpoint and headers are the request's (`req.apiKey`,
 * `req.baseUrl`, `req.headers`); a null key sends no credential header.
 */
export type ProviderCompletions = (req: ProviderRequest, wire?: CompletionsWire) => Promise<ProviderMessage>;

export interface StreamingProviderIo {
	/** Sends one frame; false for content after a cancel (stop generating), and for anything after the request ended. */
	emit(frame: ProviderFrame): boolean;
	control: ProviderControl;
	/** Aborts on cancel, like the control plane. */
	signal: AbortSignal;
	/** The host's HTTP layer (ProviderFetch); use it rather than the global fetch, which reads no proxy variable. */
	fetch?: ProviderFetch;
	/** The host's own client for a provider that speaks one of its wires (ProviderCompletions); a host older than this one has none. */
	completions?: ProviderCompletions;
}

/** A one-shot provider's: the signal, and the host's HTTP layer. */
export interface ProviderIo {
	signal: AbortSignal;
	fetch?: ProviderFetch;
}

export interface ProviderRegistration<Io> {
	/** Lower-case `[a-z0-9][a-z0-9._-]{0,63}`, never a built-in provider's (openai, anthropic, responses); a model config names it in `provider` (catalogue) or `protocol`. The first extension to register an id has it. */
	id: string;
	/** The provider's endpoint, for display (http:// or https://); absent for one that has none. */
	baseUrl?: string;
	/** The wire it speaks, for display (`openai-completions`, say): 1–64 printable characters. */
	apiStyle: string;
	request(req: ProviderRequest, io: Io): ProviderMessage | Promise<ProviderMessage>;
}

export type ExtensionProvider = ProviderRegistration<ProviderIo>;
export type ExtensionStreamingProvider = ProviderRegistration<StreamingProviderIo>;
