/**
 * How an extension's `api.runtime` actions reach the running agent
 * (spec/extensions.md §3). An extension registers
 * before any session is open, so its `api` holds a link, and set-up (and
 * then the head) provides the services once the agent exists. An action
 * called before that, or after its generation was replaced by /reload, is a
 * structured error, never a crash or a silent no-op.
 */

/** Why a runtime action refused: stable codes an extension may branch on, with a message a person can read. */
export type RuntimeErrorCode =
	/** The arguments break the action's rules (a missing field, a limit passed); the message names the field and the limit. */
	| 'invalid_argument'
	/** A per-host limit is reached (16 child tasks). */
	| 'limit_reached'
	/** No such handle, or one another extension owns. */
	| 'not_found'
	/** The tool invocation the call is bound to ended or was cancelled, or the extension's generation was reloaded. */
	| 'stale'
	/** The agent is not running yet (called from `register`), or this head cannot do it (a dialog without a screen). */
	| 'unavailable';

export class RuntimeActionError extends Error {
	override name = 'RuntimeActionError';
	readonly code: RuntimeErrorCode;
	/** The action that refused: `childAgent`, `sendMessage`, …. */
	readonly action: string;

	constructor(action: string, code: RuntimeErrorCode, message: string) {
		super(`${action}: ${message}`);
		this.action = action;
		this.code = code;
	}
}

/**
 * What the running agent lends the runtime actions. Each service takes the
 * calling extension's name first: handles and queued entries belong to the
 * extension that made them.
 */
export interface RuntimeServices {
	getExecutionContext?: (extension: string) => import('./api.js').ExecutionContext;
	childAgent?: (extension: string, request: unknown, invocation: ToolInvocation | undefined) => Promise<unknown>;
	appendEntry?: (extension: string, request: unknown) => Promise<import('./api.js').DeliveryResult>;
	sendMessage?: (extension: string, request: unknown) => Promise<import('./api.js').DeliveryResult>;
	/** `binding` is what may cancel the dialog: the tool call it belongs to, or a signal (ui-dialog-request.ts). */
	uiDialog?: (extension: string, request: unknown, binding: DialogBinding) => Promise<import('./ui-dialog-request.js').DialogAnswer>;
}

export type RuntimeActionName = keyof RuntimeServices;

/**
 * One extension tool call as the runtime sees it: which extension's tool,
 * which call, and whether it is still running. `ended` turns true when the
 * call settles; `signal` aborts when it is cancelled.
 */
export interface ToolInvocation {
	extension: string;
	toolCallId: string;
	signal: AbortSignal;
	readonly ended: boolean;
	/** Set when a child agent made the call (its childId): such a call cannot start children. */
	child?: string;
}

/**
 * The `ctx` an extension tool's `execute` gets, mapped to its invocation.
 * A WeakMap, not a field: the extension can pass its ctx back to bind a
 * runtime action to the call, but cannot forge or copy the binding.
 */
const invocations = new WeakMap<object, ToolInvocation>();

export function bindInvocation(ctx: object, invocation: ToolInvocation): void {
	invocations.set(ctx, invocation);
}

/** The invocation a ctx passed back by an extension belongs to; undefined for anything else (a copy, a plain object). */
export function invocationOf(ctx: unknown): ToolInvocation | undefined {
	return ctx !== null && typeof ctx === 'object' ? invocations.get(ctx) : undefined;
}

/** One generation's link (each /reload's extensions get a new one; the old one is closed). */
export class RuntimeLink {
	#services: RuntimeServices = {};
	#closed = false;

	/** Adds services (set-up gives some, the head the rest); a later one of a name replaces the earlier. */
	provide(services: RuntimeServices): void {
		if (!this.#closed) Object.assign(this.#services, services);
	}

	/** The generation was replaced (/reload) or the agent ended: every action refuses from now on. */
	close(): void {
		this.#closed = true;
		this.#services = {};
	}

	/** The service behind an action, or the structured error that says why there is none. */
	service<Name extends RuntimeActionName>(action: Name): NonNullable<RuntimeServices[Name]> {
		if (this.#closed) throw new RuntimeActionError(action, 'stale', 'this extension was reloaded or the session ended; its runtime actions no longer run');
		const service = this.#services[action];
		if (service === undefined) throw new RuntimeActionError(action, 'unavailable', 'the agent is not running yet; call runtime actions from a tool, command or event handler, not from register');
		return service as NonNullable<RuntimeServices[Name]>;
	}
}

/**
 * What a dialog may be cancelled by: the tool call it belongs to (its
 * `execute` ctx, passed back as the second argument) or, for a command or
 * an extension's own work, any `signal` the second argument carries.
 */
export interface DialogBinding {
	invocation?: ToolInvocation;
	signal?: AbortSignal;
}

export function dialogBinding(ctx: unknown): DialogBinding {
	const invocation = invocationOf(ctx);
	if (invocation) return {invocation, signal: invocation.signal};
	const signal = ctx !== null && typeof ctx === 'object' ? (ctx as {signal?: unknown}).signal : undefined;
	return signal instanceof AbortSignal ? {signal} : {};
}
