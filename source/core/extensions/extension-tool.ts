import {compileJsonSchema, describeSchemaErrors} from '../plugins/json-schema.js';
import {extensionOwner} from '../tools/tool-owner.js';
import {ToolInputError, ToolRunError, type Tool, type ToolContext, type ToolResult} from '../tools/types.js';
import {HOST_CONTEXT_KEY, type ExtensionTool, type HostContext} from './api.js';
import {describeThrown} from './describe-thrown.js';
import {MAX_TOOL_TIMEOUT_SECONDS} from './check-tool.js';
import {bindInvocation} from './runtime-link.js';

/** spec/extensions.md §4: a tool that ignores its signal gets this long after a cancel; then the call ends as cancelled. */
export const CANCEL_GRACE_MS = 2000;

/** spec/extensions.md §4: a call's deadline unless its tool declares `timeoutSeconds` (as long as a shell command's default). */
export const DEFAULT_EXTENSION_TOOL_TIMEOUT_SECONDS = 120;

/** What the host knows of the extension that registered a tool. */
export interface ToolOwner {
	name: string;
	/** The module file, shown in the approval. */
	file: string;
}

/**
 * An extension's tool as a core tool: the same batch validation (its JSON
 * Schema, through ajv), approval (asked like an external tool, unless
 * --yolo), hooks, output budget and image checks as every tool. The host
 * context `__i` is added after validation and before `execute`; a model-sent
 * `__i` is overwritten and never validated, shown or stored.
 */
export function createExtensionTool(tool: ExtensionTool, owner: ToolOwner): Tool {
	let validator: ReturnType<typeof compileJsonSchema> | undefined;
	const where = `tool "${tool.name}" of extension ${owner.name}`;
	return {
		name: tool.name,
		description: tool.description,
		parameters: tool.parameters,
		external: true,
		...(tool.readOnly === true ? {readOnly: true} : {}),
		owner: extensionOwner(owner.name, owner.file),
		async plan(args, context) {
			const {[HOST_CONTEXT_KEY]: _forged, ...modelArgs} = args;
			validator ??= compileJsonSchema(tool.parameters);
			let validate;
			try {
				validate = await validator;
			} catch (error) {
				throw new ToolRunError(`${where}: its parameters are not a valid JSON Schema (${(error as Error).message})`);
			}

			if (!validate(modelArgs)) throw new ToolInputError(`${tool.name}: ${describeSchemaErrors(validate.errors ?? [], 'arguments')}`);
			return {
				ask: {title: `Run ${tool.label ?? tool.name}`, detail: JSON.stringify(modelArgs, null, 2)},
				run: async () => execute(tool, owner, where, modelArgs, context),
			};
		},
	};
}

async function execute(tool: ExtensionTool, owner: ToolOwner, where: string, args: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
	const host: HostContext = {cwd: context.workspace, ...(context.sessionId === undefined ? {} : {sessionId: context.sessionId})};
	const params = {...structuredClone(args), [HOST_CONTEXT_KEY]: host};
	const controller = new AbortController();
	let settled = false;
	const onUpdate = (text: unknown) => {
		if (!settled && !controller.signal.aborted && typeof text === 'string') context.onUpdate?.(text);
	};

	const cancelled = context.signal;
	if (cancelled.aborted) throw cancelled.reason;
	const forward = () => controller.abort(cancelled.reason);
	cancelled.addEventListener('abort', forward, {once: true});
	// The ctx binds runtime actions (childAgent) to this call: they refuse to start anything once it settled.
	const ctx = Object.freeze({signal: controller.signal, onUpdate});
	bindInvocation(ctx, {
		extension: owner.name,
		toolCallId: context.toolCallId ?? '',
		signal: controller.signal,
		get ended() {
			return settled;
		},
		...(context.child === undefined ? {} : {child: context.child}),
	});
	// Called now, not in a later microtask: the tool's own abort listeners are then in place before a cancel can come.
	let running: Promise<unknown>;
	try {
		running = Promise.resolve(tool.execute(params, ctx));
	} catch (error) {
		running = Promise.reject(error);
	}

	// Settles unobserved after a cancel: never an unhandled rejection.
	running.catch(() => {});
	const seconds = tool.timeoutSeconds ?? DEFAULT_EXTENSION_TOOL_TIMEOUT_SECONDS;
	try {
		const outcome = await raceCall(running, cancelled, {ms: seconds * 1000, controller});
		// A success that came in after the cancel (within its grace) is not the answer either.
		if (outcome.kind === 'cancelled' || cancelled.aborted) throw cancelled.reason;
		if (outcome.kind === 'late') {
			throw new ToolRunError(`${where} did not finish within its deadline of ${seconds} s, so its signal was aborted and the call ended (a tool may declare timeoutSeconds up to ${MAX_TOOL_TIMEOUT_SECONDS})`);
		}

		return readResult(outcome.value, where);
	} catch (error) {
		if (cancelled.aborted) throw cancelled.reason;
		if (error instanceof ToolRunError || error instanceof ToolInputError) throw error;
		throw new ToolRunError(`${tool.name} failed: ${describeThrown(error)}`);
	} finally {
		settled = true;
		cancelled.removeEventListener('abort', forward);
	}
}

/**
 * The tool's answer; or `cancelled` once the turn's signal aborted and the
 * tool stopped (or its grace ran out); or `late` at the deadline, when the
 * tool's own signal is aborted. A success that arrives after either is never
 * the answer.
 */
async function raceCall(running: Promise<unknown>, signal: AbortSignal, deadline: {ms: number; controller: AbortController}): Promise<{kind: 'answer'; value: unknown} | {kind: 'cancelled'} | {kind: 'late'}> {
	let onAbort: (() => void) | undefined;
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<{kind: 'late'}>(resolve => {
		timer = setTimeout(() => {
			deadline.controller.abort(new ToolDeadlineError(deadline.ms));
			resolve({kind: 'late'});
		}, deadline.ms);
	});
	const aborted = new Promise<{kind: 'cancelled'}>(resolve => {
		onAbort = () => {
			clearTimeout(timer);
			const grace = setTimeout(() => resolve({kind: 'cancelled'}), CANCEL_GRACE_MS);
			const stopped = () => {
				clearTimeout(grace);
				resolve({kind: 'cancelled'});
			};

			running.then(stopped, stopped);
		};

		signal.addEventListener('abort', onAbort, {once: true});
	});
	try {
		return await Promise.race([running.then(value => ({kind: 'answer' as const, value})), aborted, late]);
	} finally {
		clearTimeout(timer);
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}

/** The reason a tool's signal gives when its deadline passed. */
class ToolDeadlineError extends Error {
	override name = 'TimeoutError';
	constructor(ms: number) {
		super(`the call's deadline of ${ms / 1000} s passed`);
	}
}

function readResult(value: unknown, where: string): ToolResult {
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
		const result = value as Record<string, unknown>;
		if (typeof result.error === 'string') return {output: `Error: ${result.error}`, isError: true};
		if (typeof result.output === 'string') return result.images === undefined ? {output: result.output} : {output: result.output, images: result.images};
	}

	throw new ToolRunError(`${where} returned ${describeValue(value)}; a tool returns {output: string, images?} or {error: string}`);
}

function describeValue(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return `an object with ${Object.keys(value).length === 0 ? 'no fields' : `the fields ${Object.keys(value).slice(0, 5).join(', ')}`}`;
	return `a ${typeof value}`;
}
