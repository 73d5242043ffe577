import type {ExtensionImagePart, ExtensionToolContext} from './api-tools.js';

/**
 * The extension contract's runtime actions (spec/extensions.md §3):
 * `api.runtime`, what its actions take and answer, and how they refuse.
 */

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
 * What the host does for an extension at run time (spec/extensions.md §3); an
 * action it lacks is undefined. Actions need a running agent: called from
 * `register` they refuse with code `unavailable`, and after a /reload the old
 * generation's refuse with `stale`.
 */
export interface ExtensionRuntime {
	/** A flag's value in this run (`--name`, `--no-name`, `--name VALUE`, `--name=VALUE`, else its default); undefined for a flag no extension registered. */
	getCliFlag?(name: string): boolean | string | undefined;
	/** What the agent runs with now: model identity, thinking setting, active tools, cwd, session; never a credential, header or endpoint. */
	getExecutionContext?(): ExecutionContext;
	/**
	 * A child agent (spec/extensions.md §3; the authoring guide's "Child agents"):
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

/** When a message is delivered (spec/extensions.md §3); the table is in the authoring guide. */
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
	/**
	 * `appended` or `queued`; for an idle `triggerTurn: true` send, the
	 * status of the run it started, once that run ended: `stop`, `length`,
	 * `content_filter`, `max_steps`, `error` or `interrupted`.
	 */
	status: 'appended' | 'queued' | TriggeredRunStatus;
	entryId: string;
	/** On a queued message: how it is delivered. */
	deliverAs?: 'steer' | 'followUp' | 'nextTurn';
	/** A silent context update (triggerTurn: false, appendEntry's message): never a reply. */
	queue?: 'context';
	/** What failed, when the run a send started ended in `error`. */
	error?: string;
}

/** How a run ended (the `done` event's reason). */
export type TriggeredRunStatus = 'stop' | 'length' | 'content_filter' | 'max_steps' | 'error' | 'interrupted';

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
