import type {AssistantMessage, Message, ToolCall, UserContent} from '../messages.js';
import type {CoreEvent, EmitEvent} from '../events.js';
import type {Usage} from '../usage.js';
import type {ModelReply, PreparedRequest, Protocol, StreamEvent, ToolSchema} from '../providers/types.js';
import type {ModelCaller, SendIo} from '../providers/model-caller.js';
import type {RetryNotice} from '../providers/retry.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {BeforeAgentStart} from '../extensions/before-agent-start.js';
import {readCancel, readContextAnswer, readInputAnswer, readMessageEnd, readProviderRequest, readToolBlock, readToolResult} from '../extensions/event-answers.js';
import {providerHeadersHook} from '../extensions/provider-headers.js';
import {errorMessage} from '../errors.js';
import {APPROVAL_DENIED, CANCELLED_OUTPUT, DENIAL_REASON} from './call-outputs.js';
import type {AnswerCheck, HookChain} from './hook-chain.js';
import type {LifecycleEvent} from './event-names.js';
import {readAfterResponse, readAfterTool, readBeforeRequest, readBeforeTool, readBeforeTurn, readBudgetFigures, readUserInput} from './hook-results.js';

/** What a turn's lifecycle dispatches to: the worker hooks, the extensions' handlers, the head's event stream. */
export interface LifecycleParts {
	hooks: HookChain;
	events: EventBus | null;
	/** The head's emit; the observers of core events (observe-core-events.ts) are behind it. */
	emit: EmitEvent;
	/** The turn's interrupt, handed to every hook so it stops the one running; absent for a compaction run without a turn (compact-history.ts). */
	signal?: AbortSignal | undefined;
	/** The extensions' `registerBeforeAgentStart` chain. */
	beforeAgentStart?: BeforeAgentStart | null;
}

export type DoneReason = Extract<CoreEvent, {type: 'done'}>['reason'];

/** What the approval gate decided (approval-gate.ts `ApprovalOutcome`); `auto`: the call needed no approval and no policy changed that. */
export interface Approval {
	decision: 'allow' | 'deny';
	by: 'auto' | Extract<CoreEvent, {type: 'approval'}>['by'];
	reason: string | null;
}

/** What `beforeRequest` builds a request from. */
export interface RequestTarget {
	caller: Pick<ModelCaller, 'protocol' | 'model' | 'referenceFiles' | 'prepare'>;
	tools: ToolSchema[];
	/** The API config's budget, for the `before_request` hooks. */
	budget: unknown;
	signal: AbortSignal;
}

/** A request on its way out, as `beforeRequest` left it for the send and `afterResponse`. */
export interface OutgoingRequest {
	/** The history the request carries (before `Context`): the reply's message must follow it. */
	messages: Message[];
	request: PreparedRequest;
	caller: {readonly protocol: string; readonly model: string};
	/** What `before_request` hooks kept for `request_retry` and `after_response`. */
	requestMeta: Record<string, unknown> | null;
	/** The built-in protocol a `before_request` hook turned the body into: its assembler reads the reply. */
	wire?: Protocol;
}

/**
 * Every moment of a turn, each running the extension handlers and the worker
 * hooks in one order (docs/dev/lifecycle.md has the table). The rule: an
 * extension's transform runs before the worker hooks of its moment, so the
 * budget, the cache and the origin lock see the final request; after the
 * response the workers go first, for they are nearest the wire and
 * extensions see the model-side view; gates AND with approval and come
 * before anyone is asked; observers hear of a moment once it is done. The
 * loop (run-turn.ts, request-model.ts, tool-batch.ts, run-tool-call.ts, compact-history.ts)
 * calls these methods and never a hook or a handler itself.
 */
export class TurnLifecycle {
	readonly #hooks: HookChain;
	readonly #events: EventBus | null;
	readonly #emit: EmitEvent;
	readonly #signal: AbortSignal | undefined;
	readonly #beforeAgentStart: BeforeAgentStart | null;
	/** The step whose TurnStart fired and whose TurnEnd has not: an interrupted or failed turn still ends it (finish). */
	#openStep: {step: number; sessionId: string; toolCalls: number} | null = null;
	/** Calls that started and have not ended (id → tool name): an interrupted or failed turn still ends each (finish). */
	readonly #openCalls = new Map<string, string>();

	constructor(parts: LifecycleParts) {
		this.#hooks = parts.hooks;
		this.#events = parts.events;
		this.#emit = parts.emit;
		this.#signal = parts.signal;
		this.#beforeAgentStart = parts.beforeAgentStart ?? null;
	}

	/** Input: the `Input` transforms (on the text the person typed), then the `user_input` hooks. */
	async input(input: UserContent): Promise<UserContent> {
		let content = input;
		const events = this.#events;
		if (events?.has('Input')) {
			// With @-mentions attached, the first part is what the person typed: Input sees and replaces that (attach-mentions.ts).
			const typed = typeof content === 'string' ? content : content[0]?.type === 'text' ? content[0].text : null;
			if (typed !== null) {
				const text = (await events.transform('Input', {text: typed}, readInputAnswer)).text;
				content = typeof content === 'string' ? text : [{type: 'text', text}, ...content.slice(1)];
			}
		}

		if (this.#hooks.has('user_input')) content = readUserInput(await this.#run('user_input', {content}));
		return content;
	}

	/** The run's first step: `before_turn` hooks may append to it; returns what they appended. */
	async beforeTurn(history: readonly Message[], step: readonly Message[]): Promise<Message[]> {
		if (!this.#hooks.has('before_turn')) return [];
		const given = [...history, ...step];
		// Each hook's answer is checked as it comes, so a bad one is blamed on its own hook.
		// The last check read the final answer: it is not read twice.
		let appended: Message[] | undefined;
		const answer = await this.#run('before_turn', {messages: given}, (data, hook) => {
			appended = readBeforeTurn(data, given, hook);
		});
		return appended ?? readBeforeTurn(answer, given);
	}

	/**
	 * The run's system prompt (spec/extensions.md §5): the `registerBeforeAgentStart`
	 * transforms, then the `BeforeAgentStart` observers hear the prompt the
	 * run sends. Undefined when it is the session's, unchanged.
	 */
	async systemPrompt(prompt: string, content: UserContent, session: {id: string; messages: readonly Message[]}): Promise<string | undefined> {
		const transform = this.#beforeAgentStart;
		if (!transform && !this.#events?.has('BeforeAgentStart')) return undefined;
		const first = session.messages[0];
		const saved = first?.role === 'system' && typeof first.content === 'string' ? first.content : '';
		const event = {prompt, imageCount: typeof content === 'string' ? 0 : content.filter(part => part.type === 'image_url').length, sessionId: session.id, host: 'i', systemPrompt: saved};
		const systemPrompt = transform ? await transform(event) : saved;
		this.#events?.observe('BeforeAgentStart', {...event, systemPrompt});
		return systemPrompt === saved ? undefined : systemPrompt;
	}

	/** The agent starts on the prompt: `AgentStart`. */
	agentStart(prompt: string, sessionId: string): void {
		this.#events?.observe('AgentStart', {prompt, sessionId});
	}

	/** A step (one model request and its tool calls) starts: `TurnStart`, then `MessageStart`. */
	stepStart(step: number, sessionId: string): void {
		this.#openStep = {step, sessionId, toolCalls: 0};
		this.#events?.observe('TurnStart', {step, sessionId});
		this.#events?.observe('MessageStart', {step, role: 'assistant'});
	}

	/** Whether a `context_budget` hook measures requests: without one nothing is measured, nor compacted. */
	get measures(): boolean {
		return this.#hooks.has('context_budget');
	}

	/** Whether a `compact_plan` hook is there to compact a history that does not fit. */
	get compacts(): boolean {
		return this.#hooks.has('compact_plan');
	}

	/** The budget: the `context_budget` hooks answer whether a request fits (or how much room tool results have). */
	budget(data: Record<string, unknown>): Promise<Record<string, unknown>> {
		return this.#run('context_budget', data);
	}

	/**
	 * Before the request: `Context` changes what this request carries, the
	 * caller builds the wire request from it (uploading images through its
	 * Files channel first, so what follows sees the body that is sent), then
	 * `BeforeProviderRequest` and the `before_request` hooks change its body.
	 */
	async beforeRequest(messages: Message[], target: RequestTarget): Promise<OutgoingRequest> {
		const {caller} = target;
		const events = this.#events;
		const sent = events?.has('Context') ? (await events.transform('Context', {messages}, readContextAnswer)).messages : messages;
		const references = caller.referenceFiles ? await caller.referenceFiles(sent, target.signal) : undefined;
		let request = caller.prepare(sent, target.tools, references);
		if (events?.has('BeforeProviderRequest')) {
			const {body} = await events.transform('BeforeProviderRequest', {url: request.url, body: request.body, protocol: caller.protocol, model: caller.model}, readProviderRequest);
			request = {...request, body};
		}

		if (!this.#hooks.has('before_request')) return {messages, request, caller, requestMeta: null};
		const answer = readBeforeRequest(await this.#run('before_request', {url: request.url, body: request.body, protocol: caller.protocol, model: caller.model, budget: target.budget}), request.url);
		return {messages, request: {url: answer.url, body: answer.body}, caller, requestMeta: answer.requestMeta, ...(answer.wire === undefined ? {} : {wire: answer.wire})};
	}

	/**
	 * While the request is under way: `BeforeProviderHeaders` once, before
	 * the first attempt (a retry sends the same headers); the stream's deltas
	 * (`show` picks those a head sees, and with them `MessageUpdate`); and
	 * before each retry the `retry` event, then the `request_retry` hooks.
	 */
	sending(outgoing: OutgoingRequest, show: (event: StreamEvent) => boolean): Omit<SendIo, 'signal'> {
		const emit = this.#emit;
		const transformHeaders = providerHeadersHook(this.#events, outgoing.caller);
		return {
			...(outgoing.wire === undefined ? {} : {wire: outgoing.wire}),
			...(transformHeaders === undefined ? {} : {transformHeaders}),
			emit: event => show(event) && emit(event),
			warn: message => emit({type: 'warning', message}),
			onRetry: async (notice: RetryNotice) => {
				emit({type: 'retry', attempt: notice.attempt, delay_ms: notice.delayMs, reason: notice.reason, status: notice.status ?? null});
				await this.#notify('request_retry', () => ({request_meta: outgoing.requestMeta, attempt: notice.attempt, delay_ms: notice.delayMs, reason: notice.reason, status: notice.status ?? null}));
			},
		};
	}

	/**
	 * After the response: the `after_response` hooks (every request, a
	 * summary's too). For the turn's answer (`answer` given) then its
	 * `usage`, `AfterProviderResponse`, and `MessageEnd`, whose text is
	 * what is saved and sent next, told to the head as `message_end`.
	 */
	async afterResponse(received: ModelReply, outgoing: OutgoingRequest, answer: {spent(usage: Usage): void} | null): Promise<ModelReply> {
		let reply = received;
		const {caller} = outgoing;
		if (this.#hooks.has('after_response')) {
			// The last check read the final answer: it is not read twice.
			let checked: AssistantMessage | undefined;
			const data = await this.#run(
				'after_response',
				{
					response: {protocol: outgoing.wire ?? caller.protocol, model: caller.model, message: reply.message, finish_reason: reply.rawFinishReason, usage: reply.usage?.raw ?? null},
					request_meta: outgoing.requestMeta,
				},
				(given, hook) => {
					checked = readAfterResponse(given, outgoing.messages, hook);
				},
			);
			reply = {...reply, message: checked ?? readAfterResponse(data, outgoing.messages)};
		}

		if (!answer) return reply;
		if (reply.usage) answer.spent(reply.usage);
		const events = this.#events;
		events?.observe('AfterProviderResponse', {model: caller.model, finishReason: reply.finishReason, usage: reply.usage ?? null});
		if (!events?.has('MessageEnd')) return reply;
		const {message, replacedBy} = await events.transform('MessageEnd', {message: reply.message, replacedBy: null}, readMessageEnd);
		this.#emit({type: 'message_end', text: message.content ?? '', replaced_by: replacedBy});
		return {...reply, message};
	}

	/** Before the tool: the `before_tool` hooks get the raw JSON arguments and may replace the whole call. */
	async beforeTool(call: ToolCall): Promise<ToolCall> {
		if (this.#openStep) this.#openStep.toolCalls += 1;
		if (!this.#hooks.has('before_tool')) return call;
		const data = await this.#run('before_tool', {id: call.id, name: call.function.name, arguments: call.function.arguments});
		const {name, arguments: args} = readBeforeTool(data);
		return name === call.function.name && args === call.function.arguments ? call : {...call, function: {name, arguments: args}};
	}

	/**
	 * The gate: the `ToolCall` gates first (a block ends the call before
	 * anyone is asked), then `approve` (the approval gate: the
	 * `tool_approval` hooks as its policy, then the person), told as an
	 * `approval` event unless nobody was asked. Returns why the call is not
	 * run, or null.
	 */
	async gateToolCall(call: {id: string; name: string; arguments: Record<string, unknown>; title: string; owner: string}, approve: () => Promise<Approval>): Promise<string | null> {
		const {id, name} = call;
		if (this.#events?.has('ToolCall')) {
			const gate = await this.#events.gate('ToolCall', {id, name, arguments: call.arguments}, readToolBlock);
			if (gate.decided && !gate.allow) return `The call was not run: extension ${gate.by} blocked it.${gate.reason ? ` Reason: ${gate.reason}` : ''}`;
		}

		const approval = await approve();
		if (approval.by !== 'auto') this.#emit({type: 'approval', id, name, title: call.title, owner: call.owner, decision: approval.decision, by: approval.by, reason: approval.reason});
		if (approval.decision === 'deny') return `${APPROVAL_DENIED}${approval.reason ? `${DENIAL_REASON}${approval.reason}` : ''}`;
		return null;
	}

	/** The tool runs: `tool_started` (and with it `ToolExecutionStart`). */
	toolStarted(id: string, name: string): void {
		this.#openCalls.set(id, name);
		this.#emit({type: 'tool_started', id, name});
	}

	/** The running tool's progress: `tool_update` (and with it `ToolExecutionUpdate`). */
	toolUpdate(id: string, name: string, text: string): void {
		this.#emit({type: 'tool_update', id, name, text});
	}

	/** The tool's result (or its failure): the `ToolResult` transforms, then the `after_tool` hooks; images are checked after both. */
	async toolResult(call: {id: string; name: string}, result: {output: string; images: unknown; isError: boolean}): Promise<{output: string; images: unknown; isError: boolean}> {
		let {output, images, isError} = result;
		const {id, name} = call;
		if (this.#events?.has('ToolResult')) ({output, isError} = await this.#events.transform('ToolResult', {id, name, output, isError}, readToolResult));
		if (this.#hooks.has('after_tool')) {
			const data = await this.#run('after_tool', {id, name, output, images, is_error: isError});
			({output, images, isError} = readAfterTool(data, isError));
		}

		return {output, images, isError};
	}

	/** The result as the model gets it: `tool_result` (and with it `ToolExecutionEnd`). */
	toolEnded(result: Omit<Extract<CoreEvent, {type: 'tool_result'}>, 'type'>): void {
		this.#openCalls.delete(result.id);
		this.#emit({type: 'tool_result', ...result});
	}

	/** Save: the `before_save` hooks (a failing one vetoes the checkpoint), the checkpoint, then the `after_save` hooks. */
	async save(session: {readonly messages: Message[]; readonly path: string; appendStep(step: Message[]): Promise<void>}, step: Message[]): Promise<void> {
		if (this.#hooks.has('before_save')) await this.#run('before_save', {messages: [...session.messages, ...step], step, path: session.path});
		await session.appendStep(step);
		await this.#notify('after_save', () => ({messages: session.messages, path: session.path}));
	}

	/** A step ended (saved, and after a tool batch what came meanwhile committed): `TurnEnd`. */
	stepEnd(step: number, toolCalls: number, sessionId: string): void {
		this.#openStep = null;
		this.#events?.observe('TurnEnd', {step, toolCalls, sessionId});
	}

	/**
	 * Finish: `TurnEnd` for a step the interrupt or the failure left open
	 * (its `toolCalls` the calls begun), the `error` event when it failed,
	 * the `finish` hooks (not when interrupted: their workers may be stopped
	 * already), `done`, then `AgentEnd` and `AgentSettled`.
	 */
	async finish(session: {readonly id: string; readonly messages: Message[]}, outcome: {reason: DoneReason; steps: number; error?: {message: string; kind: string}}): Promise<void> {
		const {reason, steps, error} = outcome;
		// A call that started always ends: one a cancel or a failing hook stopped ends here with an error result.
		for (const [id, name] of [...this.#openCalls]) {
			this.toolEnded({id, name, output: this.#signal?.aborted ? CANCELLED_OUTPUT : 'Error: the turn ended before the call finished', is_error: true, images: 0});
		}

		if (this.#openStep) this.stepEnd(this.#openStep.step, this.#openStep.toolCalls, this.#openStep.sessionId);
		if (error) this.#emit({type: 'error', message: error.message, kind: error.kind});
		if (!this.#signal?.aborted) await this.#notify('finish', () => ({messages: session.messages, reason}));
		this.#emit({type: 'done', reason, steps});
		this.#events?.observe('AgentEnd', {reason, steps, sessionId: session.id, ...(error ? {error: error.message} : {})});
		this.#events?.observe('AgentSettled', {reason, steps, sessionId: session.id});
	}

	/** Compaction, its plan: the `compact_plan` hooks pick the cut. */
	compactPlan(data: {budget: Record<string, unknown>; history: Message[]; model: string; protocol: string}): Promise<Record<string, unknown>> {
		return this.#run('compact_plan', data);
	}

	/**
	 * Compaction, once the cut is known and before anything is summarised
	 * (the costly part): the `SessionBeforeCompact` gates. Returns the
	 * extension that cancelled, or null to go on.
	 */
	async compactGate(plan: {
		reason: string;
		sessionId: string;
		cut: number;
		messages: Message[];
		keptMessages: number;
		budget: Record<string, unknown>;
	}): Promise<{extension: string; reason: string | null} | null> {
		if (!this.#events?.has('SessionBeforeCompact')) return null;
		const gate = await this.#events.gate('SessionBeforeCompact', {...plan, budget: readBudgetFigures(plan.budget)}, readCancel);
		return gate.decided && !gate.allow ? {extension: gate.by, reason: gate.reason} : null;
	}

	/** Compaction: the `before_compact` hooks give a summary or what the summary request asks. */
	beforeCompact(data: {messages: Message[]; cut: number; state: unknown; model: string; protocol: string; budget: unknown}): Promise<Record<string, unknown>> {
		return this.#run('before_compact', data);
	}

	/** Compaction: the `after_compact` hooks may adjust the summary. */
	afterCompact(data: {summary: string; state: unknown}): Promise<Record<string, unknown>> {
		return this.#run('after_compact', data);
	}

	/** Compaction: the `before_compact_commit` hooks may change the candidate; `check` reads each answer as it comes. */
	beforeCompactCommit(data: {messages: Message[]; cut: number; state: unknown}, check: AnswerCheck): Promise<Record<string, unknown>> {
		return this.#run('before_compact_commit', data, check);
	}

	/** Compaction committed: the `compaction` event, then `SessionCompact`. */
	compacted(commit: {reason: string; sessionId: string; cut: number; summary: string; beforeBytes: number; afterBytes: number; messageCount: number}): void {
		this.#emit({type: 'compaction', cut: commit.cut, before_bytes: commit.beforeBytes, after_bytes: commit.afterBytes});
		this.#events?.observe('SessionCompact', commit);
	}

	/** Every hook gets the turn's signal (an interrupt stops the one running); their warnings reach the head. */
	async #run(event: LifecycleEvent, data: Record<string, unknown>, check?: AnswerCheck): Promise<Record<string, unknown>> {
		return this.#hooks.run(event, data, {check, signal: this.#signal, warn: message => this.#emit({type: 'warning', message})});
	}

	/** A hook that only observes (after the fact): its failure is a warning, the turn goes on. */
	async #notify(event: 'after_save' | 'finish' | 'request_retry', data: () => Record<string, unknown>): Promise<void> {
		if (!this.#hooks.has(event)) return;
		try {
			await this.#run(event, data());
		} catch (error) {
			this.#emit({type: 'warning', message: errorMessage(error)});
		}
	}
}

/**
 * The approval gate's policy (agent/approval-gate.ts): the `tool_approval`
 * hooks, given the proposed decision; none without such a hook. Built here
 * so the worker hooks of every moment are called from this module.
 */
export function toolApprovalPolicy(hooks: HookChain): ((data: Record<string, unknown>, signal?: AbortSignal) => Promise<Record<string, unknown>>) | undefined {
	return hooks.has('tool_approval') ? async (data, signal) => hooks.run('tool_approval', data, {signal}) : undefined;
}
