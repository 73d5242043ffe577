import type {AssistantMessage, ImagePart, Message, UserContent} from '../messages.js';
import type {EmitEvent, CoreEvent} from '../events.js';
import type {Tool} from '../tools/types.js';
import type {ModelReply, Protocol, StreamEvent, ToolSchema} from '../providers/types.js';
import type {ModelConfig} from '../config/schema.js';
import {ProviderError} from '../providers/errors.js';
import {TurnError, errorMessage} from '../errors.js';
import {emptyHookChain, HookError, type HookChain} from '../lifecycle/hook-chain.js';
import {readAfterResponse, readBeforeRequest, readBeforeTurn, readBudgetFigures, readBudgetFits, readToolBudget, readUserInput} from '../lifecycle/hook-results.js';
import type {ApprovalGate} from './approval-gate.js';
import type {Session} from '../session/session-store.js';
import type {ModelCaller} from '../providers/model-caller.js';
import {runToolCall} from './run-tool-call.js';
import {MAX_IMAGES_PER_BATCH} from '../tools/images.js';
import {compactHistory, CompactionCancelledError, CompactionError, type CompactionIo, type CompactionReason} from './compact-history.js';
import {validateBatch} from './validate-batch.js';
import {describeShapeProblem, historyShapeProblem} from '../history/history-shape.js';
import {toolOutputLimit} from './tool-output-limit.js';
import type {EventBus} from '../extensions/event-bus.js';
import {readContextAnswer, readInputAnswer, readMessageEnd, readProviderRequest} from '../extensions/event-answers.js';
import {providerHeadersHook} from '../extensions/provider-headers.js';
import type {BeforeAgentStart} from '../extensions/before-agent-start.js';
import {withSystemPrompt} from '../history/with-system-prompt.js';
import {afterBatchModes, atStopModes, type MessageDelivery} from './message-delivery.js';
import {forModel} from './delivered-for-model.js';
import {costOf} from '../usage-cost.js';
import type {Usage} from '../usage.js';
import {addSessionCost} from '../session/session-cost.js';

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
	/** Extension event handlers (EXTENSIONS.md "Events"); none when no extension registered one. */
	extensionEvents?: EventBus | null;
	/** The extensions' system-prompt transforms (`registerBeforeAgentStart`); none when no extension registered one. */
	beforeAgentStart?: BeforeAgentStart | null;
	/** The extensions' appendEntry and sendMessage queue (message-delivery.ts): committed after each tool batch and when the model stops. */
	delivery?: MessageDelivery | null;
	/**
	 * Set when this turn is a child agent's (child-agents.ts): its tool calls
	 * are marked with the child's ID (they cannot start children) and tools
	 * see the parent's session ID, whose state space they belong to (seed 004 §3).
	 */
	childOf?: {child: string; sessionId: string};
}

export type DoneReason = Extract<CoreEvent, {type: 'done'}>['reason'];

export interface TurnOutcome {
	reason: DoneReason;
	steps: number;
	/** The failure, when reason is `error`. */
	error?: Error;
}

/**
 * One user turn: the model is called, its tool calls run, their results go
 * back, until the model stops or the step cap is reached. Lifecycle hooks
 * run at their moments (seed §6). A checkpoint is saved after each complete
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
	const {session, emit, signal, caller} = context;
	// Loads what the request needs while the turn's first hooks are answered.
	caller.warmUp?.();
	const delivery = context.delivery ?? null;
	const events = context.extensionEvents ?? null;
	const hooks = withSignal(context.hooks ?? emptyHookChain, signal);
	const fixedTools = {toolMap: new Map(context.tools.map(tool => [tool.name, tool])), schemas: toolSchemas(context.tools)};
	// The tools of this request: those that change are read here, so the schemas sent and the tools run are one list.
	const toolsNow = () => {
		const more = context.moreTools?.() ?? [];
		if (more.length === 0) return fixedTools;
		const all = [...context.tools, ...more];
		return {toolMap: new Map(all.map(tool => [tool.name, tool])), schemas: toolSchemas(all)};
	};
	let steps = 0;
	const done = async (reason: DoneReason, error?: Error): Promise<TurnOutcome> => {
		if (error) emit({type: 'error', message: error.message, kind: errorKind(error)});
		// An interrupted turn did not finish; its hooks' workers may already be stopped.
		if (!signal.aborted) await notify(hooks, 'finish', () => ({messages: session.messages, reason}), emit);
		emit({type: 'done', reason, steps});
		events?.observe('AgentEnd', {reason, steps, sessionId: session.id, ...(error ? {error: error.message} : {})});
		events?.observe('AgentSettled', {reason, steps, sessionId: session.id});
		return error ? {reason, steps, error} : {reason, steps};
	};

	// Before the checkpoint a hook may veto it; after it, hooks are told.
	const save = async (step: Message[]) => {
		if (hooks.has('before_save')) await hooks.run('before_save', {messages: [...session.messages, ...step], step, path: session.path});
		await session.appendStep(step);
		await notify(hooks, 'after_save', () => ({messages: session.messages, path: session.path}), emit);
	};

	// Interrupted before it began (during setup): nothing to save.
	if (signal.aborted) return done('interrupted');
	try {
		const content = input === null ? lastUserContent(session.messages) : await userInput(input, events, hooks);
		if (input !== null) await saveUserStep(content, context, hooks, save);
		const prompt =
			typeof content === 'string'
				? content
				: content
						.filter(part => part.type === 'text')
						.map(part => part.text)
						.join('\n');
		// Seed 004 §5: once per user prompt, before its first request; every request of this run sends it, none saves it.
		const systemPrompt = await runSystemPrompt(context, content, prompt);
		events?.observe('AgentStart', {prompt, sessionId: session.id});
		while (steps < context.maxSteps) {
			signal.throwIfAborted();
			steps++;
			events?.observe('TurnStart', {step: steps, sessionId: session.id});
			events?.observe('MessageStart', {step: steps, role: 'assistant'});
			const {toolMap, schemas} = toolsNow();
			const reply = await callModel(context, hooks, schemas, systemPrompt);
			if (reply.usage) emitUsage(emit, caller, session, reply.usage);
			events?.observe('AfterProviderResponse', {model: caller.model, finishReason: reply.finishReason, usage: reply.usage ?? null});
			if (events?.has('MessageEnd')) reply.message = (await events.transform('MessageEnd', {message: reply.message}, readMessageEnd)).message;

			const calls = validateBatch(reply);
			// A reply that would leave a history every later request fails on (its replay items naming other calls, say): refused before its tools run.
			const shape = historyShapeProblem([...session.messages, reply.message], {awaitingResults: true});
			if (shape) throw new TurnError(`the model's reply would leave a history the provider refuses: ${describeShapeProblem(shape)}`);
			if (calls.length === 0) {
				await save([reply.message]);
				events?.observe('TurnEnd', {step: steps, toolCalls: 0, sessionId: session.id});
				// Steering that came during the answer, and followUp messages: the model answers them in this run.
				if (delivery && (await delivery.commit(atStopModes, save, emit))) continue;
				const reason = reply.finishReason === 'length' || reply.finishReason === 'content_filter' ? reply.finishReason : 'stop';
				return await done(reason);
			}

			for (const call of calls) emit({type: 'tool_call', id: call.id, name: call.function.name, arguments: call.function.arguments});
			const step: Message[] = [reply.message];
			const images: Array<{id: string; images: ImagePart[]}> = [];
			const outputLimit = await toolResultLimit(context, hooks, schemas, [...session.messages, reply.message], calls.length);
			let imagesLeft = MAX_IMAGES_PER_BATCH;
			for (const call of calls) {
				const outcome = await runToolCall(call, {
					tools: toolMap,
					gate: context.gate,
					emit,
					workspace: context.workspace,
					signal,
					outputLimit,
					hooks,
					imagesLeft,
					sessionId: context.childOf?.sessionId ?? session.id,
					extensionEvents: events,
					...(context.childOf ? {child: context.childOf.child} : {}),
				});
				step.push(outcome.message);
				imagesLeft -= outcome.images.length;
				if (outcome.images.length > 0) images.push({id: call.id, images: outcome.images});
			}

			// Chat APIs want every tool result right after its assistant message,
			// so images follow as user messages tagged with their call's ID.
			for (const {id, images: parts} of images) {
				step.push({role: 'user', content: [{type: 'text', text: `Images from tool call ${id}:`}, ...parts], _tool_call_id: id});
			}

			await save(step);
			// After the whole batch, never into it: a running tool never sees steering (seed 004 §3).
			await delivery?.commit(afterBatchModes, save, emit);
			events?.observe('TurnEnd', {step: steps, toolCalls: calls.length, sessionId: session.id});
		}

		return await done('max_steps', new TurnError(`stopped after ${context.maxSteps} model requests (max_steps); the session is saved, send another message to continue or raise max_steps`));
	} catch (error) {
		// A cancelled extension provider keeps the usage it reported (seed 004 §5): the tokens were spent.
		if (error instanceof ProviderError && error.usage) emitUsage(emit, caller, session, error.usage);
		if (signal.aborted) return done('interrupted');
		return done('error', error instanceof Error ? error : new TurnError(errorMessage(error)));
	}
}

/** A request's usage with what it cost at the caller's prices and the session's total so far. */
function emitUsage(emit: EmitEvent, caller: ModelCaller, session: Session, usage: Usage): void {
	const cost = costOf(usage, caller.prices);
	emit({type: 'usage', model: caller.model, usage, cost, session_cost: addSessionCost(session, cost), prices: caller.prices ? {...caller.prices} : null});
}

/** A person's input after the extensions' `Input` transforms and the `user_input` hooks. */
async function userInput(input: UserContent, events: EventBus | null, hooks: HookChain): Promise<UserContent> {
	let content = input;
	// Extension transforms run before the worker hooks of the same moment (EXTENSIONS.md).
	if (events?.has('Input')) {
		// With @-mentions attached, the first part is what the person typed: Input sees and replaces that (attach-mentions.ts).
		const typed = typeof content === 'string' ? content : content[0]?.type === 'text' ? content[0].text : null;
		if (typed !== null) {
			const text = (await events.transform('Input', {text: typed}, readInputAnswer)).text;
			content = typeof content === 'string' ? text : [{type: 'text', text}, ...content.slice(1)];
		}
	}

	if (hooks.has('user_input')) content = readUserInput(await hooks.run('user_input', {content}));
	return content;
}

/**
 * The run's first step: the system prompt of a new session, what extensions
 * queued for the next explicit run (seed 004 §3: before its new input),
 * the input, and what the `before_turn` hooks add.
 */
async function saveUserStep(content: UserContent, context: TurnContext, hooks: HookChain, save: (step: Message[]) => Promise<void>): Promise<void> {
	const delivery = context.delivery ?? null;
	if (delivery) await delivery.withNextTurn(async waiting => saveFirstStep(waiting, content, context, hooks, save), context.emit);
	else await saveFirstStep([], content, context, hooks, save);
}

async function saveFirstStep(waiting: Message[], content: UserContent, context: TurnContext, hooks: HookChain, save: (step: Message[]) => Promise<void>): Promise<void> {
	const {session} = context;
	const opening: Message[] = session.messages.length === 0 ? [{role: 'system', content: context.systemPrompt}] : [];
	const userStep: Message[] = [...opening, ...waiting, {role: 'user', content}];
	if (hooks.has('before_turn')) {
		const given = [...session.messages, ...userStep];
		// Each hook's answer is checked as it comes, so a bad one is blamed on its own hook.
		// The last check read the final answer: it is not read twice.
		let appended: Message[] | undefined;
		const answer = await hooks.run(
			'before_turn',
			{messages: given},
			{
				check: (data, hook) => {
					appended = readBeforeTurn(data, given, hook);
				},
			},
		);
		userStep.push(...(appended ?? readBeforeTurn(answer, given)));
	}

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

/**
 * The system prompt this run sends instead of the session's, from the
 * extensions' `registerBeforeAgentStart` chain; undefined (the session's,
 * unchanged) when none is registered or none changed it. Observers of
 * `BeforeAgentStart` hear the prompt the run will send.
 */
async function runSystemPrompt(context: TurnContext, content: UserContent, prompt: string): Promise<string | undefined> {
	const events = context.extensionEvents ?? null;
	const transform = context.beforeAgentStart ?? null;
	if (!transform && !events?.has('BeforeAgentStart')) return undefined;
	const first = context.session.messages[0];
	const saved = first?.role === 'system' && typeof first.content === 'string' ? first.content : '';
	const event = {prompt, imageCount: typeof content === 'string' ? 0 : content.filter(part => part.type === 'image_url').length, sessionId: context.session.id, host: 'i', systemPrompt: saved};
	const systemPrompt = transform ? await transform(event) : saved;
	events?.observe('BeforeAgentStart', {...event, systemPrompt});
	return systemPrompt === saved ? undefined : systemPrompt;
}

/**
 * One model request: `context_budget` (compacting the history when it does
 * not fit and a compaction plugin is there), then the request itself, with
 * this run's system prompt when an extension changed it.
 */
async function callModel(context: TurnContext, hooks: HookChain, schemas: ToolSchema[], systemPrompt: string | undefined): Promise<ModelReply> {
	const {session} = context;
	if (hooks.has('context_budget')) {
		let check = await fits(context, hooks, session.messages, schemas);
		if (!check.fits) {
			if (!hooks.has('compact_plan')) {
				throw new TurnError(`the context budget says this request does not fit the model's window (${describeBudget(check.answer)}); start a new session or enable compaction`);
			}

			try {
				await compactHistory(compactionIo(context, hooks, schemas, 'budget'), check.answer);
			} catch (error) {
				// The budget still says no: a request that does not fit is never sent (seed §7).
				if (error instanceof CompactionCancelledError) {
					throw new CompactionError(`the request does not fit the model's window (${describeBudget(check.answer)}) and ${error.message}, so nothing was sent; the history is unchanged`);
				}

				throw error;
			}

			// The history was replaced: the last usage measured another one.
			anchors.delete(session);
			check = await fits(context, hooks, session.messages, schemas);
		}

		const figures = readBudgetFigures(check.answer);
		if (figures) context.emit({type: 'budget', ...figures});
	}

	const messages = session.messages;
	const sent = systemPrompt === undefined ? messages : withSystemPrompt(messages, systemPrompt);
	const reply = await requestModel(context, hooks, sent, schemas, () => true);
	if (reply.usage) anchors.set(session, {model: context.caller.model, input: reply.usage.input, output: reply.usage.output, request_messages: session.messages.length});
	else anchors.delete(session);
	return reply;
}

/**
 * The usage of each session's last model response and the number of history
 * messages its request carried: the budget anchors its estimate on it when
 * the history still starts with that request (seed §7).
 */
const anchors = new WeakMap<Session, {model: string; input: number; output: number; request_messages: number}>();

/** What each result of a batch of `pending` calls may take: the fixed share, or less when the budget says so. */
async function toolResultLimit(context: TurnContext, hooks: HookChain, schemas: ToolSchema[], history: Message[], pending: number): Promise<number> {
	const limit = toolOutputLimit(pending);
	if (!hooks.has('context_budget')) return limit;
	const {answer} = await fits(context, hooks, history, schemas, pending);
	const share = readToolBudget(answer);
	return share === null ? limit : Math.min(limit, share);
}

function toolSchemas(tools: readonly Tool[]): ToolSchema[] {
	return tools.map(({name, description, parameters}) => ({name, description, parameters}));
}

function describeBudget(answer: Record<string, unknown>): string {
	const {estimate, limit} = answer;
	return typeof estimate === 'number' && typeof limit === 'number' ? `about ${estimate} tokens against a limit of ${limit}` : 'no figures given';
}

function compactionIo(context: TurnContext, hooks: HookChain, schemas: ToolSchema[], reason: CompactionReason): CompactionIo {
	return {
		reason,
		events: context.extensionEvents ?? null,
		session: context.session,
		hooks,
		emit: context.emit,
		model: context.caller.model,
		protocol: context.caller.protocol,
		budget: context.budget ?? null,
		tools: schemas,
		fits: async (history, tools) => fits(context, hooks, history, tools),
		// The summary is not the answer: its text is not shown.
		request: async (messages, tools) => requestModel(context, hooks, messages, tools, event => event.type !== 'text_delta' && event.type !== 'thinking_delta'),
	};
}

/**
 * Compaction on request (/compact), outside any turn: the same transaction,
 * started as if the budget had said the history does not fit. Returns
 * 'compacted', or why nothing was done (no compaction plugin, an
 * extension's cancel); a failed compaction throws.
 */
export async function compactNow(context: TurnContext): Promise<'compacted' | string> {
	const hooks = withSignal(context.hooks ?? emptyHookChain, context.signal);
	if (!hooks.has('compact_plan')) return 'compaction needs a compaction plugin (the compact module, or a worker bound to it in bindings.json); none is configured';
	const schemas = toolSchemas([...context.tools, ...(context.moreTools?.() ?? [])]);
	try {
		await compactHistory(compactionIo(context, hooks, schemas, 'manual'), {fits: false, requested: true});
	} catch (error) {
		if (error instanceof CompactionCancelledError) return `${error.message}; the history is unchanged`;
		throw error;
	}

	return 'compacted';
}

/**
 * Asks the budget hooks whether a request with `history` and `tools` fits
 * (`pending` 0), or how much room the results of `pending` tool calls have.
 */
async function fits(context: TurnContext, hooks: HookChain, history: Message[], tools: ToolSchema[], pending = 0): Promise<{fits: boolean; answer: Record<string, unknown>}> {
	const answer = await hooks.run('context_budget', {
		model: context.caller.model,
		protocol: context.caller.protocol,
		budget: context.budget ?? null,
		max_tokens: context.maxTokens ?? null,
		history,
		tools,
		pending,
		compact: hooks.has('compact_plan'),
		last_usage: anchors.get(context.session) ?? null,
	});
	return {fits: readBudgetFits(answer), answer};
}

/** `before_request`, the call with `request_retry` before each retry, then `after_response`. */
async function requestModel(context: TurnContext, hooks: HookChain, history: Message[], tools: ToolSchema[], show: (event: StreamEvent) => boolean): Promise<ModelReply> {
	const {caller, emit, signal} = context;
	// Extension messages as plain user messages (their metadata stays local), those without content left out: every request, a summary's too.
	const messages = forModel(history);
	const events = context.extensionEvents ?? null;
	const budget = context.budget ?? null;
	// Context: what this request carries, changed for it alone (never saved).
	const sent = events?.has('Context') ? (await events.transform('Context', {messages}, readContextAnswer)).messages : messages;
	// Images uploaded through a Files channel go by ID; the hooks below see the body that is sent.
	const references = caller.referenceFiles ? await caller.referenceFiles(sent, signal) : undefined;
	let request = caller.prepare(sent, tools, references);
	if (events?.has('BeforeProviderRequest')) {
		const {body} = await events.transform('BeforeProviderRequest', {url: request.url, body: request.body, protocol: caller.protocol, model: caller.model}, readProviderRequest);
		request = {...request, body};
	}

	let requestMeta: Record<string, unknown> | null = null;
	// A hook that changed the wire (the responses module) names the protocol the reply streams in.
	let wire: Protocol | undefined;
	if (hooks.has('before_request')) {
		const answer = readBeforeRequest(await hooks.run('before_request', {url: request.url, body: request.body, protocol: caller.protocol, model: caller.model, budget}), request.url);
		request = {url: answer.url, body: answer.body};
		requestMeta = answer.requestMeta;
		wire = answer.wire;
	}

	const transformHeaders = providerHeadersHook(events, caller);
	let reply = await caller.send(request, {
		signal,
		...(wire === undefined ? {} : {wire}),
		...(transformHeaders === undefined ? {} : {transformHeaders}),
		emit: event => show(event) && emit(event),
		warn: message => emit({type: 'warning', message}),
		async onRetry(notice) {
			emit({type: 'retry', attempt: notice.attempt, delay_ms: notice.delayMs, reason: notice.reason, status: notice.status ?? null});
			await notify(hooks, 'request_retry', () => ({request_meta: requestMeta, attempt: notice.attempt, delay_ms: notice.delayMs, reason: notice.reason, status: notice.status ?? null}), emit);
		},
	});
	if (hooks.has('after_response')) {
		// The last check read the final answer: it is not read twice.
		let checked: AssistantMessage | undefined;
		const answer = await hooks.run(
			'after_response',
			{
				response: {protocol: wire ?? caller.protocol, model: caller.model, message: reply.message, finish_reason: reply.rawFinishReason, usage: reply.usage?.raw ?? null},
				request_meta: requestMeta,
			},
			{
				check: (data, hook) => {
					checked = readAfterResponse(data, messages, hook);
				},
			},
		);
		reply = {...reply, message: checked ?? readAfterResponse(answer, messages)};
	}

	return reply;
}

/** The chain with the turn's signal on every call: an interrupt stops the hook that is running. */
function withSignal(hooks: HookChain, signal: AbortSignal): HookChain {
	return {has: event => hooks.has(event), run: async (event, data, options) => hooks.run(event, data, {...options, signal})};
}

/** A hook that only observes (after the fact): its failure is a warning, the turn goes on. */
async function notify(hooks: HookChain, event: 'after_save' | 'finish' | 'request_retry', data: () => Record<string, unknown>, emit: EmitEvent): Promise<void> {
	if (!hooks.has(event)) return;
	try {
		await hooks.run(event, data());
	} catch (error) {
		emit({type: 'warning', message: errorMessage(error)});
	}
}

function errorKind(error: Error): string {
	if (error instanceof ProviderError) return error.kind;
	if (error instanceof CompactionError) return 'compaction';
	if (error instanceof HookError) return 'hook';
	if (error instanceof TurnError) return 'turn';
	return 'internal';
}
