/**
 * The conversation history, in one provider-neutral shape modelled on Chat
 * Completions. Top-level keys starting with `_` are local metadata: they never
 * reach the wire as-is, except that adapters replay `_anthropic_content` and
 * `_responses_output` verbatim to keep thinking/reasoning items intact.
 */

export interface TextPart {
	type: 'text';
	text: string;
}

export interface ImagePart {
	type: 'image_url';
	image_url: {url: string};
}

export type UserContent = string | Array<TextPart | ImagePart>;

export interface ToolCall {
	id: string;
	type: 'function';
	function: {name: string; arguments: string};
}

export interface SystemMessage {
	role: 'system';
	content: string;
}

export interface UserMessage {
	role: 'user';
	content: UserContent;
	/** Set on the image message a tool produced: the ID of that tool call. */
	_tool_call_id?: string;
}

export interface AssistantMessage {
	role: 'assistant';
	content: string | null;
	tool_calls?: ToolCall[];
	/** DeepSeek / generic reasoning text, replayed where the API requires it. */
	reasoning_content?: string;
	/** Anthropic content blocks (thinking with signatures, tool_use), replayed verbatim. */
	_anthropic_content?: unknown[];
	/** Responses API output items (reasoning, message, function_call), replayed verbatim. */
	_responses_output?: unknown[];
}

export interface ToolMessage {
	role: 'tool';
	tool_call_id: string;
	content: string;
	/** The tool failed; Anthropic is told so (`is_error`), other protocols only see the text. */
	_is_error?: boolean;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
