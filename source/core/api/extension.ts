/**
 * `i-agent/extension`: the types an extension is written against
 * (spec/extensions.md §3; docs/extensions/authoring.md). Types only, on
 * purpose: the host hands an extension its `api` at load, so a built
 * extension imports nothing of `i` at run time and runs wherever it is
 * installed. Every slot of `ExtensionApi` is optional: check before use.
 *
 * @example
 * ```
 * import type {ExtensionApi} from 'i-agent/extension';
 *
 * export const apiVersion = '1';
 * export default function register(api: ExtensionApi): void {
 * 	if (!api.registerTool) throw new Error('this i cannot register tools: upgrade i');
 * 	api.registerTool({name: 'hello', description: 'Says hello.', parameters: {type: 'object', properties: {}}, execute: () => ({output: 'hello'})});
 * }
 * ```
 */
export type {
	AbortAnswer,
	AppendEntryRequest,
	BeforeAgentStartEvent,
	ChildAgentDelta,
	ChildAgentPoll,
	ChildAgentStart,
	ChildAgentStarted,
	CommandContext,
	CustomMessage,
	CustomMessageView,
	Declaration,
	DeclaredModel,
	DeclaredModelCost,
	DeclaredProvider,
	DeliveryOptions,
	DeliveryResult,
	EntryRenderer,
	EntryView,
	DialogAnswer,
	DialogRequestInput,
	EventContext,
	EventTagName,
	ExecutionContext,
	ExtensionApi,
	ExtensionCommand,
	ExtensionFlag,
	ExtensionImagePart,
	ExtensionModule,
	ExtensionProvider,
	ExtensionRuntime,
	ExtensionStreamingProvider,
	ExtensionTool,
	ExtensionToolContext,
	ExtensionToolResult,
	HostContext,
	MarkdownTransformer,
	MessageContentBlock,
	MessageRenderer,
	OAuthAccessToken,
	OAuthProviderRegistration,
	Platform,
	ProviderControl,
	ProviderFrame,
	ProviderMessage,
	ProviderRegistration,
	ProviderRequest,
	ProviderToolCall,
	ProviderUsage,
	RenderedText,
	ResourcesDiscoverAnswer,
	ResourcesDiscoverEvent,
	RuntimeError,
	SendMessageRequest,
	TriggeredRunStatus,
	UserMessageInput,
	StreamingProviderIo,
	ProviderFetch,
	ProviderFetchInit,
	ProviderIo,
	ProviderCompletions,
	CompletionsWire,
} from '../extensions/api.js';
