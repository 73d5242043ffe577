import type {AssistantMessage, Message} from '../messages.js';
import type {Usage} from '../usage.js';

export const protocols = ['openai', 'deepseek', 'anthropic', 'responses'] as const;
export type Protocol = (typeof protocols)[number];

export function isProtocol(name: string): name is Protocol {
	return (protocols as readonly string[]).includes(name);
}

/** What the model sees of a tool: never exec, cwd or anything local. */
export interface ToolSchema {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
}

/** Image data URL → the file ID of its upload (providers/deepseek-files/channel.ts). */
export type FileReferences = ReadonlyMap<string, string>;

export interface AdapterOptions {
	model: string;
	/** Base URL as the provider's own SDK spells it; the adapter appends its path. */
	baseUrl: string;
	maxTokens?: number;
	/** Chat Completions only: send `max_tokens` instead of `max_completion_tokens`. */
	useMaxTokens: boolean;
	/** Chat Completions (`openai`) only: the delta field a compatible server streams thinking in; default `reasoning_content`. */
	reasoningField?: 'reasoning_content' | 'reasoning';
	/** Extra top-level body fields; never overlaps the adapter's reserved fields (checked at config load). */
	extraBody: Record<string, unknown>;
}

/** A request ready for the wire. Hooks may later change `body`, never the URL's origin. */
export interface PreparedRequest {
	url: string;
	body: Record<string, unknown>;
}

/** Live events an adapter emits while a response streams in. */
export type StreamEvent = {type: 'text_delta'; text: string} | {type: 'thinking_delta'; text: string};

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface ModelReply {
	message: AssistantMessage;
	finishReason: FinishReason;
	/** The provider's own finish/stop reason string, for messages. */
	rawFinishReason: string | null;
	usage: Usage | null;
}

/** One parsed server-sent event. */
export interface SseEvent {
	event: string | null;
	data: string;
}

/**
 * Turns one response's SSE events into a reply. `push` throws a
 * `StreamProtocolError` on an event it cannot accept; `finish` throws one
 * when the stream ended before the protocol said it was complete.
 */
export interface StreamAssembler {
	push(event: SseEvent): void;
	/** The protocol said the reply is complete; whatever the connection does after that does not matter. */
	complete(): boolean;
	finish(): ModelReply;
	/** Text received so far, kept visible when the stream fails. */
	partialText(): string;
}

export interface Adapter {
	readonly protocol: Protocol;
	readonly defaultBaseUrl: string;
	/** Top-level body fields the adapter owns; `extra_body` may not set them. */
	readonly reservedBodyFields: readonly string[];
	/** `references`: images uploaded through the provider's Files channel, by data URL, sent as their file IDs (DeepSeek only). */
	prepare(messages: Message[], tools: ToolSchema[], references?: FileReferences): PreparedRequest;
	/** Authentication and protocol headers; kept apart from `prepare` so hooks never see the key. */
	headers(apiKey: string): Record<string, string>;
	/** Headers besides the credentials whose values are secrets (a models.json provider's `headers`): no hook sees them and no message shows them. */
	readonly secretHeaders?: readonly string[];
	createAssembler(emit: (event: StreamEvent) => void): StreamAssembler;
}
