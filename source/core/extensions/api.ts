import type {DeclaredProvider, ExtensionProvider, ExtensionStreamingProvider} from './api-providers.js';
import type {OAuthProviderRegistration} from './api-oauth.js';
import type {ExtensionRuntime} from './api-runtime.js';
import type {ExtensionImagePart, ExtensionTool} from './api-tools.js';

/**
 * What an extension sees: the `api` its `register(api)` receives and the
 * shapes it passes back (docs/spec/extensions.md). Every slot is optional on
 * purpose (spec/extensions.md §3 capability detection): a host that lacks one leaves it
 * undefined and the extension degrades with its own message. This host fills
 * the slots it implements; the rest of the contract (providers, the other
 * runtime actions) arrives slot by slot, each only once it works.
 */

/** `"1.N"`: an extension written for another major is refused at load. */
export const EXTENSION_API_VERSION = '1.0';
export const EXTENSION_API_MAJOR = '1';

// The contract's parts, each in a file of its own; the contract is exported here whole.
export {HOST_CONTEXT_KEY} from './api-tools.js';
export type {ExtensionImagePart, ExtensionTool, ExtensionToolContext, ExtensionToolResult, HostContext} from './api-tools.js';
export {CHUNK_CONTENT, CHUNK_STRUCTURAL} from './api-providers.js';
export type {
	CompletionsWire,
	DeclaredModel,
	DeclaredModelCost,
	DeclaredProvider,
	ExtensionProvider,
	ExtensionStreamingProvider,
	ProviderCompletions,
	ProviderControl,
	ProviderFetch,
	ProviderFetchInit,
	ProviderFrame,
	ProviderIo,
	ProviderMessage,
	ProviderRegistration,
	ProviderRequest,
	ProviderToolCall,
	ProviderUsage,
	StreamingProviderIo,
} from './api-providers.js';
export type {OAuthAccessToken, OAuthProviderRegistration} from './api-oauth.js';
export type {
	AppendEntryRequest,
	ChildAgentDelta,
	ChildAgentPoll,
	ChildAgentStart,
	ChildAgentStarted,
	CustomMessage,
	DeliveryOptions,
	DeliveryResult,
	DialogAnswer,
	DialogRequestInput,
	ExecutionContext,
	ExtensionRuntime,
	MessageContentBlock,
	RuntimeError,
	SendMessageRequest,
	TriggeredRunStatus,
	UserMessageInput,
} from './api-runtime.js';

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

/** What a handler gets besides the payload: its tag and whose handler it is. */
export interface EventContext {
	tag: EventTagName;
	extension: string;
}

/** The 36 tags of spec/extensions.md §5 (event-tags.ts); an unknown one is a registration error. */
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
	// biome-ignore lint/suspicious/noExplicitAny: each tag has its own payload (docs/extensions/authoring.md); the author reads the fields of the one it registered for
	registerEventHandler?(tag: EventTagName, handler: (event: any, ctx: EventContext) => unknown): void;
	/** Called at start (and reload) with the others, each under 10 s; a failing one is reported and the others still count. */
	registerResourcesDiscover?(handler: (event: ResourcesDiscoverEvent, ctx: EventContext) => ResourcesDiscoverAnswer | undefined | Promise<ResourcesDiscoverAnswer | undefined>): void;
	/**
	 * The system prompt of one run (spec/extensions.md §5): `{systemPrompt}` replaces it (to append, read `event.systemPrompt` and add to it),
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
	/**
	 * An OAuth flow for a provider this extension registers and declares (spec/extensions.md §11): the host owns
	 * `i auth login ID` (authorization code with PKCE and a loopback redirect, or the device code), stores the tokens in
	 * auth.json, refreshes them before they expire and once at a 401, and passes the access token as `req.apiKey`.
	 */
	registerOAuthProvider?(registration: OAuthProviderRegistration): void;
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
