/**
 * What an extension sees: the `api` its `register(api)` receives and the
 * shapes it passes back (../shared/EXTENSIONS.md). Every slot is optional on
 * purpose (seed 004 §3 capability detection): a host that lacks one leaves it
 * undefined and the extension degrades with its own message. This host fills
 * the slots it implements; the rest of the contract (providers, the other
 * runtime actions) arrives slot by slot, each only once it works.
 */

/** `"1.N"`: an extension written for another major is refused at load. */
export const EXTENSION_API_VERSION = '1.0';
export const EXTENSION_API_MAJOR = '1';

export type Platform = 'linux' | 'macos' | 'windows';

export interface Declaration {
	/** Larger runs first; default 0; ties keep load order. */
	priority?: number;
	/** Where the extension's event handlers run; absent: everywhere. */
	platforms?: Platform[];
	/**
	 * The extension's part of the model catalogue (`i --list-models`): one entry per provider it
	 * registers, with the same id. It never holds headers or keys (authoring guide "The catalogue").
	 */
	providers?: DeclaredProvider[];
}

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

/** The reserved key the host adds to a tool's parameters after parsing; the model never sees or sets it. */
export const HOST_CONTEXT_KEY = '__i';

export interface HostContext {
	/** The workspace, when the host knows it. */
	cwd?: string;
	/** The session's ID, absent for an ephemeral session. */
	sessionId?: string;
}

/** Seed 000 §5's image part, checked like a native tool's: PNG, JPEG, GIF or WebP, at most 8 MiB, at most 8 a batch. */
export interface ExtensionImagePart {
	type: 'image_url';
	/** A base64 data URL: `data:image/png;base64,…`; links are refused. */
	image_url: {url: string};
}

/** Seed 000 §5's tool result, or a tool error the model sees. */
export type ExtensionToolResult = {output: string; images?: ExtensionImagePart[]} | {error: string};

export interface ExtensionToolContext {
	/** Aborts on cancel (Esc, Ctrl-C, the turn ending); a tool ignoring it gets 2 s, then the call ends as cancelled. */
	signal: AbortSignal;
	/** Partial progress shown while the tool runs; calls after the tool settled are dropped. */
	onUpdate(text: string): void;
}

export interface ExtensionTool {
	/** 1–64 of `A-Z a-z 0-9 _ -`; never a name another tool has. */
	name: string;
	description: string;
	/** JSON Schema of the arguments object; it must tolerate the unknown top-level key `__i`. */
	parameters: Record<string, unknown>;
	/** A short human name for the chat screen. */
	label?: string;
	execute(params: Record<string, unknown> & {[HOST_CONTEXT_KEY]?: HostContext}, ctx: ExtensionToolContext): ExtensionToolResult | Promise<ExtensionToolResult>;
}

/** What a handler gets besides the payload: its tag and whose handler it is. */
export interface EventContext {
	tag: EventTagName;
	extension: string;
}

/** The 36 tags of seed 004 §5 (event-tags.ts); an unknown one is a registration error. */
export type EventTagName = import('./event-tags.js').EventTag;

/** `api.ABORT`: a `BeforeTuiStart` handler returns it (or `{abort: true, reason}`) to stop the start. */
export interface AbortAnswer {
	readonly abort: true;
	readonly reason?: string;
}

/** A command-line flag an extension adds: `--name`, shown by `i extensions`. */
export interface ExtensionFlag {
	type: 'boolean' | 'string';
	/** Its value when the command line does not give it. */
	default?: boolean | string;
	description: string;
}

/**
 * How a runtime action refuses: a rejected promise (a throw for the
 * synchronous ones) with an `Error` carrying a stable `code` and the
 * `action`; the message names the field or the limit.
 */
export interface RuntimeError extends Error {
	name: 'RuntimeActionError';
	code: import('./runtime-link.js').RuntimeErrorCode;
	action: string;
}

/** `api.runtime.childAgent({op: 'start', …}, ctx)`: limits in the authoring guide's "Child agents". */
export interface ChildAgentStart {
	op: 'start';
	/** At most 20000 bytes (UTF-8). */
	task: string;
	/** One line of at most 64 characters, shown beside the child; `child` by default. */
	role?: string;
	/** Model requests, 1–32; 8 by default. */
	maxTurns?: number;
	/** 10–1800; 300 by default. Past it the child is cancelled and fails. */
	timeoutSeconds?: number;
	/** Names of the parent's active tools; all of them but `delegate_task` by default. */
	tools?: string[];
}

export interface ChildAgentStarted {
	childId: string;
	/** The child's own session (its file sits beside the parent's). */
	sessionId: string;
	status: 'running';
}

/** One piece of the child's text, or the marker that says the stream was cut. */
export type ChildAgentDelta = {type: 'text'; text: string} | {type: 'truncated'; text: string};

export interface ChildAgentPoll {
	childId: string;
	sessionId: string;
	status: 'running' | 'done' | 'failed';
	/** The deltas since the last poll. */
	deltas: ChildAgentDelta[];
	/** The deltas or the report were cut (4 MiB shared, 8192 deltas). */
	truncated: boolean;
	/** Model requests so far. */
	turns: number;
	/** Once it ended. */
	result?: {status: 'done' | 'failed'; text: string; turnLimited: boolean; truncated: boolean};
	/** Why it failed. */
	error?: string;
}

/**
 * What the host does for an extension at run time (EXTENSIONS.md "Runtime
 * actions"); an action it lacks is undefined. Actions need a running agent:
 * called from `register` they refuse with code `unavailable`, and after a
 * /reload the old generation's refuse with `stale`.
 */
export interface ExtensionRuntime {
	/** A flag's value in this run (`--name`, `--no-name`, `--name VALUE`, `--name=VALUE`, else its default); undefined for a flag no extension registered. */
	getCliFlag?(name: string): boolean | string | undefined;
	/** What the agent runs with now: model identity, thinking setting, active tools, cwd, session; never a credential, header or endpoint. */
	getExecutionContext?(): ExecutionContext;
	/**
	 * A child agent (seed 004 §3; the authoring guide's "Child agents"):
	 * `start` takes the `execute` ctx of the tool call the child belongs to
	 * and is refused without a live one; `poll`, `cancel` and `dispose` need
	 * only the extension that started it.
	 */
	childAgent?(request: ChildAgentStart, ctx: ExtensionToolContext): Promise<ChildAgentStarted>;
	childAgent?(request: {op: 'poll'; childId: string}): Promise<ChildAgentPoll>;
	childAgent?(request: {op: 'cancel'; childId: string}): Promise<{childId: string; status: ChildAgentPoll['status']}>;
	childAgent?(request: {op: 'dispose'; childId: string}): Promise<{childId: string; disposed: true}>;
	/** `{customType, data}`: extension data kept in the session, never in the model's context; `{message}`: context without a reply. Queued while a run is active, committed after the current tool batch. */
	appendEntry?(request: AppendEntryRequest): Promise<DeliveryResult>;
	/** A message for the conversation; `triggerTurn` and `deliverAs` decide when it joins and whether the model answers (authoring guide "sendMessage"). */
	sendMessage?(request: SendMessageRequest): Promise<DeliveryResult>;
	/**
	 * Asks the person on the chat screen (select, confirm, input); other heads refuse with `unavailable`.
	 * `ctx`, a tool's `execute` ctx (or anything with a `signal`), closes the dialog as cancelled when its call is cancelled.
	 */
	uiDialog?(request: DialogRequestInput, ctx?: ExtensionToolContext | {signal: AbortSignal}): Promise<DialogAnswer>;
}

/** A question `api.runtime.uiDialog` asks; the limits are in the authoring guide ("Dialogs"). `timeoutMs` closes it as `{cancelled: true, reason: 'timeout'}`. */
export type DialogRequestInput =
	| {type: 'select'; title: string; options: string[] | Array<{value: string; label: string; description?: string}>; default?: string; timeoutMs?: number}
	| {type: 'confirm'; title: string; message?: string; default?: boolean; timeoutMs?: number}
	| {type: 'input'; title: string; placeholder?: string; default?: string; secret?: boolean; timeoutMs?: number};

/**
 * A dialog's answer: select `{value}`, confirm `{confirmed}`, input `{value}`;
 * `{cancelled: true}` for Esc, with `reason` `timeout`, `exit` (the person
 * left) or `aborted` (the call or signal it was bound to was cancelled).
 */
export type DialogAnswer = import('./ui-dialog-request.js').DialogAnswer;

/** A block of a message's content: text, pi's image block (base64 `data` and `mimeType`), or i's `image_url` data URL. */
export type MessageContentBlock = {type: 'text'; text: string} | {type: 'image'; data: string; mimeType: string} | ExtensionImagePart;

/** pi's custom message: `customType` is 1–64 of `A-Z a-z 0-9 _ . : -`; `content` null or absent is `[]`; hidden unless `display`. */
export interface CustomMessage {
	role?: 'custom';
	customType: string;
	content?: string | MessageContentBlock[] | null;
	/** Shown in the chat screen (by the extension's message renderer) and line mode; default false. */
	display?: boolean;
	/** JSON data for the renderer; never sent to the model. At most 256 KiB as JSON. */
	details?: unknown;
}

/** A plain user message. */
export interface UserMessageInput {
	role: 'user';
	content: string | MessageContentBlock[];
}

/** When a message is delivered (seed 004 §3); the table is in the authoring guide. */
export interface DeliveryOptions {
	/** Absent: idle, context only; running, steering. true: idle, a run starts. false: context only, never a reply. */
	triggerTurn?: boolean;
	/** `steer` (default): after the current tool batch; `followUp`: after the task; `nextTurn`: before the next explicit run's input, winning over triggerTurn. */
	deliverAs?: 'steer' | 'followUp' | 'nextTurn';
}

type MessageShape = {message: CustomMessage | UserMessageInput} | {text: string} | CustomMessage;

/** The message and its options, either in `options` or at the top level, never both. */
export type SendMessageRequest = MessageShape & ({options?: DeliveryOptions} | DeliveryOptions);

export type AppendEntryRequest = {customType: string; data?: unknown} | {message: CustomMessage | UserMessageInput};

/** Where a delivery went; `entryId` is stable (an entry read while it is queued may not be there yet). */
export interface DeliveryResult {
	status: 'appended' | 'queued';
	entryId: string;
	/** On a queued message: how it is delivered. */
	deliverAs?: 'steer' | 'followUp' | 'nextTurn';
	/** A silent context update (triggerTurn: false, appendEntry's message): never a reply. */
	queue?: 'context';
}

/** What a message renderer gets: a committed custom message with `display: true`. */
export interface CustomMessageView {
	customType: string;
	/** Text, or text and image blocks (images as `image_url` data URLs). */
	content: string | Array<{type: 'text'; text: string} | ExtensionImagePart>;
	display: boolean;
	details?: unknown;
}

/** Draws a custom message in the chat screen (line mode and -p ignore it). Synchronous; a throw or another shape falls back to the default. */
export type MessageRenderer = (message: CustomMessageView) => RenderedText;

/** What an entry renderer gets: a committed `{customType, data}` entry. */
export interface EntryView {
	customType: string;
	data: unknown;
}

/** Draws an entry in the chat screen; an entry of a type without one is not shown. Synchronous; a throw or another shape falls back to the default. */
export type EntryRenderer = (entry: EntryView) => RenderedText;

/**
 * `runtime.getExecutionContext()`: a fresh copy on each call, read live
 * (after /reload the tools are the new generation's). It never holds a
 * credential, a header, a base URL or an endpoint.
 */
export interface ExecutionContext {
	/** `provider` is the config's `protocol` (a built-in one, a provider worker's, or an extension provider's id); `id` the model sent to it. */
	model: {provider: string; id: string};
	/** The config's thinking setting: `extra_body`'s `reasoning_effort`, `thinking` or `reasoning` (the first set, as written); null when none is. */
	thinking: unknown;
	/** The names of the tools the model is offered, in the order it sees them. */
	tools: string[];
	cwd: string;
	/** Absent for an ephemeral session. */
	sessionId?: string;
}

/** What a provider's `request` gets (EXTENSIONS.md "Providers"): the request in the core's provider-neutral shape, a copy. */
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
 * One streamed frame (seed 004 §5). `text_delta`, `thinking_delta` and
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

/** The control plane a streaming request polls (seed 004 §5 "取消"). */
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

export interface StreamingProviderIo {
	/** Sends one frame; false for content after a cancel (stop generating), and for anything after the request ended. */
	emit(frame: ProviderFrame): boolean;
	control: ProviderControl;
	/** Aborts on cancel, like the control plane. */
	signal: AbortSignal;
	/** The host's HTTP layer (ProviderFetch); use it rather than the global fetch, which reads no proxy variable. */
	fetch?: ProviderFetch;
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

/** What a command's handler gets besides the words after `/name`. */
export interface CommandContext {
	cwd: string;
	/** Absent for an ephemeral session. */
	sessionId?: string;
	/** Aborts when the person presses Esc while the command runs, or leaves. */
	signal: AbortSignal;
	/** Shows a line in the chat screen while the command runs. */
	notify(text: string): void;
}

/** What a command answers: text or lines shown in the chat screen; nothing shows nothing. */
export type RenderedText = string | {text: string} | {lines: string[]} | undefined;

export interface ExtensionCommand {
	/** One line, shown by /help and the completion list. */
	description: string;
	handler(args: string, ctx: CommandContext): RenderedText | Promise<RenderedText>;
}

/**
 * Rewrites an answer's Markdown before the chat screen shows it (line mode
 * and -p keep the model's text as it came). Synchronous: it runs as the
 * screen draws. `{}`, nothing, or a throw leaves the text as it was.
 */
export type MarkdownTransformer = (input: {text: string}) => {text: string} | {lines: string[]} | string | undefined;

/** What a `registerResourcesDiscover` handler gets, at start and at each reload. */
export interface ResourcesDiscoverEvent {
	reason: 'startup' | 'reload';
	/** The workspace. */
	cwd: string;
}

/** Its answer: folders of skills, of prompt templates and of themes; relative paths are against the extension's folder. */
export interface ResourcesDiscoverAnswer {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}

/** What a `registerBeforeAgentStart` transform gets, once per user prompt. */
export interface BeforeAgentStartEvent {
	/** The prompt's text (its text parts joined). */
	prompt: string;
	imageCount: number;
	sessionId: string;
	/** `"i"`. */
	host: string;
	/** The system prompt so far: the session's, or what the transform before this one made of it. */
	systemPrompt: string;
}

export interface ExtensionApi {
	readonly apiVersion: string;
	readonly ABORT?: AbortAnswer;
	declare?(declaration: Declaration): void;
	registerTool?(tool: ExtensionTool): void;
	/** Handlers run in priority order, each extension's in registration order; the tag's class decides what an answer does. */
	// biome-ignore lint/suspicious/noExplicitAny: each tag has its own payload (README "Extension events"); the author reads the fields of the one it registered for
	registerEventHandler?(tag: EventTagName, handler: (event: any, ctx: EventContext) => unknown): void;
	/** Called at start (and reload) with the others, each under 10 s; a failing one is reported and the others still count. */
	registerResourcesDiscover?(handler: (event: ResourcesDiscoverEvent, ctx: EventContext) => ResourcesDiscoverAnswer | undefined | Promise<ResourcesDiscoverAnswer | undefined>): void;
	/**
	 * The system prompt of one run (seed 004 §5): `{systemPrompt}` replaces it (to append, read `event.systemPrompt` and add to it),
	 * `{}` or nothing leaves it, `""` clears it. Chained in priority order, once per user prompt, never saved; a failing one keeps the value before it.
	 */
	registerBeforeAgentStart?(handler: (event: BeforeAgentStartEvent, ctx: EventContext) => {systemPrompt?: string} | undefined | Promise<{systemPrompt?: string} | undefined>): void;
	/** Adds `--name` to `i`'s command line (lower-case kebab name, never a built-in flag's or another extension's); read it with `runtime.getCliFlag`. */
	registerFlag?(name: string, flag: ExtensionFlag): void;
	/** Adds `/name` to the chat screen (listed by /help, completed with Tab); never a built-in command's name or another extension's. */
	registerCommand?(name: string, command: ExtensionCommand): void;
	/** A one-shot model provider: `request` resolves with the whole answer. */
	registerProvider?(provider: ExtensionProvider): void;
	/** A streaming model provider; registered after a one-shot one of the same id, it replaces it in place. */
	registerStreamingProvider?(provider: ExtensionStreamingProvider): void;
	/** Chained in priority order, each seeing the previous one's text. */
	registerMarkdownTransformer?(transform: MarkdownTransformer): void;
	/** Draws the custom messages of `customType` in the chat screen; one renderer per customType in a host (a second is a load error naming both). */
	registerMessageRenderer?(customType: string, render: MessageRenderer): void;
	/** Draws the entries of `customType` in the chat screen; one renderer per customType in a host. */
	registerEntryRenderer?(customType: string, render: EntryRenderer): void;
	readonly runtime?: ExtensionRuntime;
}

/** What an extension module exports: `default` (or `register`) is called once with the api. */
export interface ExtensionModule {
	default?: (api: ExtensionApi) => unknown;
	register?: (api: ExtensionApi) => unknown;
	/** The major the extension was written for. */
	apiVersion?: string;
}
