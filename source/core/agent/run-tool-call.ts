import type {ImagePart, ToolCall, ToolMessage} from '../messages.js';
import type {EmitEvent} from '../events.js';
import type {Tool, ToolResult} from '../tools/types.js';
import {ToolInputError, ToolRunError} from '../tools/types.js';
import {checkImageParts, MAX_IMAGES_PER_BATCH} from '../tools/images.js';
import {truncateOutput} from '../tools/truncate.js';
import {toolOwner} from '../tools/tool-owner.js';
import {emptyHookChain, type HookChain} from '../lifecycle/hook-chain.js';
import {TurnLifecycle} from '../lifecycle/turn-lifecycle.js';
import type {ApprovalGate} from './approval-gate.js';
import {parseArguments} from './validate-batch.js';
import type {EventBus} from '../extensions/event-bus.js';

export interface ToolCallContext {
	tools: ReadonlyMap<string, Tool>;
	gate: ApprovalGate;
	emit: EmitEvent;
	workspace: string;
	signal: AbortSignal;
	outputLimit: number;
	/** The turn's lifecycle: it runs the call's hooks and handlers and tells the head. */
	lifecycle?: TurnLifecycle;
	/** Without a lifecycle (a call run on its own), one is built from `hooks`, `extensionEvents`, `emit` and `signal`. */
	hooks?: HookChain;
	/** Images this call's result may still add: a batch of calls carries at most 8 (spec/platform.md §5). */
	imagesLeft?: number;
	/** The session's ID, for tools that keep state per session (an extension tool's `__i.sessionId`). */
	sessionId?: string;
	/** Extension handlers: `ToolCall` gates the call, `ToolResult` transforms its result. */
	extensionEvents?: EventBus | null;
	/** The child agent making the call (child-agents.ts); absent for the parent's own. */
	child?: string;
}

/** Progress texts longer than this are cut: a status line, not a result. */
export const MAX_TOOL_UPDATE_CHARS = 4096;

export interface ToolCallOutcome {
	message: ToolMessage;
	images: ImagePart[];
}

/** A call past its gate: `execute` runs it (or gives the error result it ended with before running); a cancel throws. */
export interface ReadyCall {
	/** The call as the `before_tool` hooks left it. */
	readonly call: ToolCall;
	/** Whether the tool only reads (`Tool.readOnly`): a batch runs such calls side by side. */
	readonly readOnly: boolean;
	execute(): Promise<ToolResult>;
}

/**
 * Runs one validated call: `before_tool` (which may replace the call),
 * arguments, plan, approval, execution, then `after_tool` (on errors too),
 * the image checks (each image, and the batch's cap of 8 through
 * `imagesLeft`) and the size cut (spec/platform.md §5). Every failure the model can
 * act on becomes an error result; a failing hook and cancellation propagate.
 * A batch runs the same three phases (tool-batch.ts): `prepareToolCall`,
 * `execute`, `finishToolCall`.
 */
export async function runToolCall(original: ToolCall, context: ToolCallContext): Promise<ToolCallOutcome> {
	const lifecycle = callLifecycle(context);
	const ready = await prepareToolCall(await lifecycle.beforeTool(original), {...context, lifecycle});
	return finishToolCall(ready.call, await ready.execute(), {...context, lifecycle});
}

/** The lifecycle a call runs its hooks through: the turn's, or one built from the context. */
export function callLifecycle(context: ToolCallContext): TurnLifecycle {
	return context.lifecycle ?? new TurnLifecycle({hooks: context.hooks ?? emptyHookChain, events: context.extensionEvents ?? null, emit: context.emit, signal: context.signal});
}

/**
 * A call after its `before_tool` hooks, up to its start: the tool found,
 * the arguments parsed, the call planned, then its gates and approval. A
 * failure on the way is the call's error result, given by `execute`
 * without running anything.
 */
export async function prepareToolCall(call: ToolCall, context: ToolCallContext & {lifecycle: TurnLifecycle}): Promise<ReadyCall> {
	const {lifecycle} = context;
	const {name} = call.function;
	const tool = context.tools.get(name);
	const failed = (output: string): ReadyCall => ({call, readOnly: tool?.readOnly === true, execute: async () => ({output, isError: true})});
	if (!tool) return failed(`Error: there is no tool named ${JSON.stringify(name)}; available tools: ${[...context.tools.keys()].join(', ')}`);
	const parsed = parseArguments(call.function.arguments);
	if (!parsed.ok) return failed(`Error: ${name}: ${parsed.message}`);

	const toolContext = {
		workspace: context.workspace,
		signal: context.signal,
		outputLimit: context.outputLimit,
		...(context.sessionId === undefined ? {} : {sessionId: context.sessionId}),
		toolCallId: call.id,
		...(context.child === undefined ? {} : {child: context.child}),
		onUpdate: (text: string) => lifecycle.toolUpdate(call.id, name, text.length > MAX_TOOL_UPDATE_CHARS ? `${text.slice(0, MAX_TOOL_UPDATE_CHARS)}…` : text),
	};
	let plan;
	try {
		plan = await tool.plan(parsed.value, toolContext);
	} catch (error) {
		rethrowIfAborted(error, context.signal);
		return failed(describeFailure(error, name));
	}

	// Extension gates AND with approval: a block ends the call before anyone is asked.
	const owner = toolOwner(tool);
	const refused = await lifecycle.gateToolCall({id: call.id, name, arguments: parsed.value, title: plan.ask?.title ?? name, owner}, () =>
		context.gate({id: call.id, name, arguments: parsed.value, owner, ask: plan.ask, external: tool.external === true}, context.signal),
	);
	if (refused !== null) return failed(refused);
	context.signal.throwIfAborted();
	const run = plan.run;
	return {
		call,
		readOnly: tool.readOnly === true,
		async execute() {
			context.signal.throwIfAborted();
			lifecycle.toolStarted(call.id, name);
			try {
				return await run();
			} catch (error) {
				rethrowIfAborted(error, context.signal);
				return {output: describeFailure(error, name), isError: true};
			}
		},
	};
}

/**
 * A call's result on its way to the model: `ToolResult` and the `after_tool`
 * hooks, the image checks against what the batch may still carry
 * (`imagesLeft`), the size cut, then `tool_result`.
 */
export async function finishToolCall(call: ToolCall, result: ToolResult, context: ToolCallContext & {lifecycle: TurnLifecycle}): Promise<ToolCallOutcome> {
	const {lifecycle} = context;
	const {name} = call.function;
	let {output, images, isError} = await lifecycle.toolResult({id: call.id, name}, {output: result.output, images: result.images ?? [], isError: result.isError ?? false});

	let checked: ImagePart[] = [];
	const left = context.imagesLeft ?? MAX_IMAGES_PER_BATCH;
	if (!Array.isArray(images)) {
		output = `Error: ${name} returned images that were refused: images must be a list`;
		isError = true;
	} else if (images.length > left) {
		const taken = MAX_IMAGES_PER_BATCH - left;
		output =
			`Error: ${name} returned ${images.length} images, which were refused: a batch of tool calls carries at most ${MAX_IMAGES_PER_BATCH} images` +
			(taken > 0 ? ` and earlier calls of this batch took ${taken}` : '');
		isError = true;
	} else if (images.length > 0) {
		try {
			checked = checkImageParts(images);
		} catch (error) {
			output = `Error: ${name} returned images that were refused: ${(error as Error).message}`;
			isError = true;
		}
	}

	const content = truncateOutput(output, context.outputLimit);
	lifecycle.toolEnded({id: call.id, name, output: content, is_error: isError, images: checked.length});
	return {message: {role: 'tool', tool_call_id: call.id, content, ...(isError ? {_is_error: true} : {})}, images: checked};
}

function describeFailure(error: unknown, name: string): string {
	if (error instanceof ToolInputError || error instanceof ToolRunError) return `Error: ${error.message}`;
	return `Error: ${name} failed: ${(error as Error).message}`;
}

function rethrowIfAborted(error: unknown, signal: AbortSignal): void {
	if (signal.aborted) throw signal.reason ?? error;
}
