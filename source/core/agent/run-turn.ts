import type {ImagePart, Message, ToolCall, UserContent} from '../messages.js';
import type {EmitEvent} from '../events.js';
import type {Tool} from '../tools/types.js';
import type {ToolSchema} from '../providers/types.js';
import type {ModelConfig} from '../config/schema.js';
import {ProviderError} from '../providers/errors.js';
import {TurnError, errorMessage} from '../errors.js';
import {emptyHookChain, HookError, type HookChain} from '../lifecycle/hook-chain.js';
import {TurnLifecycle, type DoneReason} from '../lifecycle/turn-lifecycle.js';
import type {ApprovalGate} from './approval-gate.js';
import {PLAN_MODE_NOTE, type PermissionModeSource} from './permission-mode.js';
import type {Session} from '../session/session-store.js';
import type {ModelCaller} from '../providers/model-caller.js';
import {runToolBatch} from './tool-batch.js';
import {compactHistory, CompactionCancelledError, CompactionError} from './compact-history.js';
import {validateBatch} from './validate-batch.js';
import {describeShapeProblem, historyShapeProblem} from '../history/history-shape.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {BeforeAgentStart} from '../extensions/before-agent-start.js';
import {afterBatchModes, atStopModes, type MessageDelivery} from './message-delivery.js';
import {compactionIo, emitUsage, requestAnswer, toolResultLimit} from './request-model.js';
import {promptMessage} from '../rewind/rewind-points.js';
import {MAX_OFFERED_TOOLS, requestTools, toolSchemas} from './offered-tools.js';

export type {DoneReason} from '../lifecycle/turn-lifecycle.js';

export interface TurnContext {
	caller: ModelCaller;
	tools: Tool[];
	/**
	 * Tools whose list changes while the session runs (the MCP servers':
	 * one becomes ready, a list_changed refresh, one dies), read once per
	 * model request: a change lands between requests, never within one.
	 */
	moreTools?: (() => readonly Tool[]) | null;
	session: Session;
	gate: ApprovalGate;
	/** The run's permission mode, read at each model request: in plan mode the system prompt says so. */
	permissionMode?: PermissionModeSource | null;
	hooks?: HookChain;
	emit: EmitEvent;
	workspace: string;
	/** The system prompt a new session starts with (after the `system_prompt` hook). */
	systemPrompt: string;
	/** The API config's budget, for the `context_budget` and `before_request` hooks. */
	budget?: ModelConfig['budget'] | null;
	/** The API config's max_tokens: the budget's default output reserve. */
	maxTokens?: number | null;
	/** Model requests one turn may make. */
	maxSteps: number;
	signal: AbortSignal;
	/** Extension event handlers (spec/extensions.md §5); none when no extension registered one. */
	extensionEvents?: EventBus | null;
	/** The extensions' system-prompt transforms (`registerBeforeAgentStart`); none when no extension registered one. */
	beforeAgentStart?: BeforeAgentStart | null;
	/** The extensions' appendEntry and sendMessage queue (message-delivery.ts): committed after each tool batch and when the model stops. */
	delivery?: MessageDelivery | null;
	/**
	 * Set when this turn is a child agent's (child-agents.ts): its tool calls
	 * are marked with the child's ID (they cannot start children) and tools
	 * see the parent's session ID, whose state space they belong to (spec/extensions.md §3).
	 */
	childOf?: {child: string; sessionId: string};
}

export interface TurnOutcome {
	reason: DoneReason;
	steps: number;
	/** The failure, when reason is `error`. */
	error?: Error;
}

/**
 * One user turn: the model is called, its tool calls run, their results go
 * back, until the model stops or the step cap is reached. At each moment
 * the turn's lifecycle (turn-lifecycle.ts) runs the extension handlers and
 * the worker hooks, in the order docs/dev/lifecycle.md gives; children's
 * turns run the same. A checkpoint is saved after each complete
 * step (the user message; an assistant message with all its tool results).
 * Failures end as an `error` event and a `done` event, a session that
 * cannot be written and a failing hook included; this never throws.
 */
export async function runTurn(input: UserContent | null, context: TurnContext): Promise<TurnOutcome> {
	const delivery = context.delivery ?? null;
	delivery?.beginRun();
	// A turn holds the process open until it ends. A tool or hook that waits on
	// what holds no handle of node's (an abort signal, a promise of its own)
	// would otherwise let node exit with 0 in the middle of the turn once stdin
	// closed (line mode after its last line), the turn lost and a signal sent
	// then never handled.
	const keepAlive = setInterval(() => {}, TURN_KEEP_ALIVE_MS);
	try {
		return await runDeliveringTurn(input, context);
	} finally {
		clearInterval(keepAlive);
		await delivery?.endRun(context.emit);
	}
}

/** The keep-alive timer's period: it never needs to fire (2^31 - 1 ms is node's longest). */
const TURN_KEEP_ALIVE_MS = 2 ** 31 - 1;

/**
 * The turn itself; `input` null is a run an extension's `sendMessage`
 * (`triggerTurn: true`) started: its message is saved already, so the
 * model answers the history as it stands.
 */
async function runDeliveringTurn(input: UserContent | null, context: TurnContext): Promise<TurnOutcome> {
	const {session, signal, caller} = context;
	// Loads what the request needs while the turn's first hooks are answered.
	caller.warmUp?.();
	const delivery = context.delivery ?? null;
	const lifecycle = turnLifecycle(context);
	// The tools of each request, read then: those that change (MCP) land between requests, and past the cap none is offered.
	const toolsNow = requestTools(context.tools, context.moreTools, context.emit);
	let steps = 0;
	const done = async (reason: DoneReason, error?: Error): Promise<TurnOutcome> => {
		await lifecycle.finish(session, {reason, steps, ...(error ? {error: {message: error.message, kind: errorKind(error)}} : {})});
		return error ? {reason, steps, error} : {reason, steps};
	};

	const save = (step: Message[]) => lifecycle.save(session, step);
	// Interrupted before it began (during setup): nothing to save.
	if (signal.aborted) return done('interrupted');
	try {
		const content = input === null ? lastUserContent(session.messages) : await lifecycle.input(input);
		if (input !== null) await saveUserStep(content, context, lifecycle, save);
		const prompt =
			typeof content === 'string'
				? content
				: content
						.filter(part => part.type === 'text')
						.map(part => part.text)
						.join('\n');
		// spec/extensions.md §5: once per user prompt, before its first request; every request of this run sends it, none saves it.
		const systemPrompt = await lifecycle.systemPrompt(prompt, content, session);
		lifecycle.agentStart(prompt, session.id);
		while (steps < context.maxSteps) {
			signal.throwIfAborted();
			steps++;
			lifecycle.stepStart(steps, session.id);
			const {toolMap, schemas} = toolsNow();
			const reply = await requestAnswer(context, lifecycle, schemas, withModeNote(context, systemPrompt));
			const calls = validateBatch(reply);
			// A reply that would leave a history every later request fails on (its replay items naming other calls, say): refused before its tools run.
			const shape = historyShapeProblem([...session.messages, reply.message], {awaitingResults: true});
			if (shape) throw new TurnError(`the model's reply would leave a history the provider refuses: ${describeShapeProblem(shape)}`);
			if (calls.length === 0) {
				await save([reply.message]);
				lifecycle.stepEnd(steps, 0, session.id);
				// Steering that came during the answer, and followUp messages: the model answers them in this run.
				if (delivery && (await delivery.commit(atStopModes, save, context.emit))) continue;
				const reason = reply.finishReason === 'length' || reply.finishReason === 'content_filter' ? reply.finishReason : 'stop';
				return await done(reason);
			}

			await save(await runBatch(context, lifecycle, [reply.message], calls, {toolMap, schemas}));
			// After the whole batch, never into it: a running tool never sees steering (spec/extensions.md §3); the person's queued messages stay queued once Esc stopped the run.
			await delivery?.commit(afterBatchModes, save, context.emit, signal.aborted ? undefined : async content => lifecycle.input(content));
			lifecycle.stepEnd(steps, calls.length, session.id);
		}

		return await done('max_steps', new TurnError(`stopped after ${context.maxSteps} model requests (max_steps); the session is saved, send another message to continue or raise max_steps`));
	} catch (error) {
		// A cancelled extension provider keeps the usage it reported (spec/extensions.md §5): the tokens were spent.
		if (error instanceof ProviderError && error.usage) emitUsage(context, error.usage);
		if (signal.aborted) return done('interrupted');
		return done('error', error instanceof Error ? error : new TurnError(errorMessage(error)));
	}
}

/** The lifecycle of one turn (or one /compact): the context's hooks and extension handlers, its emit and its signal. */
function turnLifecycle(context: TurnContext): TurnLifecycle {
	return new TurnLifecycle({
		hooks: context.hooks ?? emptyHookChain,
		events: context.extensionEvents ?? null,
		emit: context.emit,
		signal: context.signal,
		beforeAgentStart: context.beforeAgentStart ?? null,
	});
}

/**
 * The model's tool calls (read-only ones side by side, tool-batch.ts) and
 * the step they make: the assistant message, each call's result in call
 * order, then the images the results carried.
 */
async function runBatch(context: TurnContext, lifecycle: TurnLifecycle, step: Message[], calls: ToolCall[], tools: {toolMap: ReadonlyMap<string, Tool>; schemas: ToolSchema[]}): Promise<Message[]> {
	const {session, emit, signal} = context;
	for (const call of calls) emit({type: 'tool_call', id: call.id, name: call.function.name, arguments: call.function.arguments});
	const outputLimit = await toolResultLimit(context, lifecycle, tools.schemas, [...session.messages, ...step], calls.length);
	const outcomes = await runToolBatch(calls, {
		tools: tools.toolMap,
		gate: context.gate,
		emit,
		workspace: context.workspace,
		signal,
		outputLimit,
		lifecycle,
		sessionId: context.childOf?.sessionId ?? session.id,
		...(context.childOf ? {child: context.childOf.child} : {}),
	});
	const images: Array<{id: string; images: ImagePart[]}> = [];
	for (const outcome of outcomes) {
		step.push(outcome.message);
		if (outcome.images.length > 0) images.push({id: outcome.message.tool_call_id, images: outcome.images});
	}

	// Chat APIs want every tool result right after its assistant message,
	// so images follow as user messages tagged with their call's ID.
	for (const {id, images: parts} of images) {
		step.push({role: 'user', content: [{type: 'text', text: `Images from tool call ${id}:`}, ...parts], _tool_call_id: id});
	}

	return step;
}

/**
 * The run's first step: the system prompt of a new session, what extensions
 * queued for the next explicit run (spec/extensions.md §3: before its new input),
 * the input, and what the `before_turn` hooks add.
 */
async function saveUserStep(content: UserContent, context: TurnContext, lifecycle: TurnLifecycle, save: (step: Message[]) => Promise<void>): Promise<void> {
	const delivery = context.delivery ?? null;
	if (delivery) await delivery.withNextTurn(async waiting => saveFirstStep(waiting, content, context, lifecycle, save), context.emit);
	else await saveFirstStep([], content, context, lifecycle, save);
}

async function saveFirstStep(waiting: Message[], content: UserContent, context: TurnContext, lifecycle: TurnLifecycle, save: (step: Message[]) => Promise<void>): Promise<void> {
	const {session} = context;
	const opening: Message[] = session.messages.length === 0 ? [{role: 'system', content: context.systemPrompt}] : [];
	const userStep: Message[] = [...opening, ...waiting, promptMessage(content, Date.now())];
	userStep.push(...(await lifecycle.beforeTurn(session.messages, userStep)));
	await save(userStep);
}

/** A triggered run's input: the last user message (the extension's), for BeforeAgentStart and AgentStart. */
function lastUserContent(messages: readonly Message[]): UserContent {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index]!;
		if (message.role === 'user') return message.content;
	}

	return '';
}

/** The system prompt of one request: in plan mode, the run's (the transformed one, else the saved one) with the plan-mode paragraph; never saved. */
function withModeNote(context: TurnContext, systemPrompt: string | undefined): string | undefined {
	if (context.permissionMode?.current !== 'plan') return systemPrompt;
	const first = context.session.messages[0];
	const base = systemPrompt ?? (first?.role === 'system' && typeof first.content === 'string' ? first.content : '');
	return base === '' ? PLAN_MODE_NOTE : `${base}\n\n${PLAN_MODE_NOTE}`;
}

/**
 * Compaction on request (/compact), outside any turn: the same transaction,
 * started as if the budget had said the history does not fit. Returns
 * 'compacted', or why nothing was done (no compaction plugin, an
 * extension's cancel); a failed compaction throws.
 */
export async function compactNow(context: TurnContext): Promise<'compacted' | string> {
	const lifecycle = turnLifecycle(context);
	if (!lifecycle.compacts) return 'compaction needs a compaction plugin (the compact module, or a worker bound to it in bindings.json); none is configured';
	const schemas = toolSchemas([...context.tools, ...(context.moreTools?.() ?? [])].slice(0, MAX_OFFERED_TOOLS));
	try {
		await compactHistory(compactionIo(context, lifecycle, schemas, 'manual'), {fits: false, requested: true});
	} catch (error) {
		if (error instanceof CompactionCancelledError) return `${error.message}; the history is unchanged`;
		throw error;
	}

	return 'compacted';
}

function errorKind(error: Error): string {
	if (error instanceof ProviderError) return error.kind;
	if (error instanceof CompactionError) return 'compaction';
	if (error instanceof HookError) return 'hook';
	if (error instanceof TurnError) return 'turn';
	return 'internal';
}
