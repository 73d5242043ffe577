/**
 * The extension contract's tools (spec/extensions.md §4): what
 * `api.registerTool` takes, what its `execute` gets and answers.
 */

/** The reserved key the host adds to a tool's parameters after parsing; the model never sees or sets it. */
export const HOST_CONTEXT_KEY = '__i';

export interface HostContext {
	/** The workspace, when the host knows it. */
	cwd?: string;
	/** The session's ID, absent for an ephemeral session. */
	sessionId?: string;
}

/** spec/platform.md §5's image part, checked like a native tool's: PNG, JPEG, GIF or WebP, at most 8 MiB, at most 8 a batch. */
export interface ExtensionImagePart {
	type: 'image_url';
	/** A base64 data URL: `data:image/png;base64,…`; links are refused. */
	image_url: {url: string};
}

/** spec/platform.md §5's tool result, or a tool error the model sees. */
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
	/**
	 * True when `execute` only reads (changes no file, no state, nothing
	 * outside): the host may then run the call beside other read-only calls
	 * of the model's batch. It still asks for approval. Default false: the
	 * call runs on its own, after every call before it ended.
	 */
	readOnly?: boolean;
	/**
	 * The call's deadline in seconds, a whole number 1–3600 (default 120):
	 * then `ctx.signal` is aborted and the call ends in a tool error naming
	 * the tool, the extension and the deadline.
	 */
	timeoutSeconds?: number;
	execute(params: Record<string, unknown> & {[HOST_CONTEXT_KEY]?: HostContext}, ctx: ExtensionToolContext): ExtensionToolResult | Promise<ExtensionToolResult>;
}
