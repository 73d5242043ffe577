import {randomBytes} from 'node:crypto';
import {rm} from 'node:fs/promises';
import {join} from 'node:path';
import {errorMessage} from '../errors.js';
import type {EmitEvent, CoreEvent} from '../events.js';
import type {EventBus} from '../extensions/event-bus.js';
import type {BeforeAgentStart} from '../extensions/before-agent-start.js';
import {CANCEL_GRACE_MS} from '../extensions/extension-tool.js';
import {RuntimeActionError} from '../extensions/runtime-link.js';
import {settledWithin} from '../extensions/within-time.js';
import type {HookChain} from '../lifecycle/hook-chain.js';
import type {ModelConfig} from '../config/schema.js';
import type {ModelCaller} from '../providers/model-caller.js';
import type {Tool} from '../tools/types.js';
import type {ApprovalGate} from './approval-gate.js';
import {ChildTask, type ChildPoll} from './child-task.js';
import {DELEGATE_TOOL_NAME, type ChildStart} from '../child-request.js';
import {runTurn, type TurnOutcome} from './run-turn.js';
import {openSession, type Session} from '../session/session-store.js';

/** Child tasks one host keeps at once: running, ended but not disposed, and cancelled ones that have not really ended yet. */
export const MAX_CHILD_TASKS = 16; // spec/extensions.md §3

/** What a child inherits, read when it starts: the parent's binding, prompt, resources, hooks, workspace and tools as they are now (after any /reload). */
export interface ChildParent {
	caller: ModelCaller;
	/** The parent's active tools; the child gets these or the subset it names, never delegate_task. */
	tools: readonly Tool[];
	/** The parent's session: the child's session file goes beside it, and its ID is the tools' state space. */
	session: Session;
	hooks?: HookChain;
	extensionEvents?: EventBus | null;
	beforeAgentStart?: BeforeAgentStart | null;
	workspace: string;
	systemPrompt: string;
	budget?: ModelConfig['budget'] | null;
	maxTokens?: number | null;
	/** The approval gate of one child: the parent's policy, --yolo and screen, its questions labelled `label`. */
	gate(label: string): ApprovalGate;
	/** Where the child's progress events go: the head's emit, never the parent's transcript. */
	emit: EmitEvent;
}

/** How a start is bound: the call it belongs to (its cancel cancels the child) and a check that the binding still holds after the session opened. */
export interface ChildBinding {
	signal?: AbortSignal;
	/** A reason the start may no longer go ahead (the call ended meanwhile), or null. */
	stale?: () => string | null;
}

/**
 * The host's child agents (spec/extensions.md §3): each a `runTurn` of its
 * own with its own session beside the parent's, the parent's provider
 * binding, system prompt, hooks, workspace and approval policy, and its
 * text kept in a bounded buffer for `poll`. Handles belong to their owner
 * (an extension's name, or CORE_OWNER for delegate_task): another owner's
 * ID is not found. At most MAX_CHILD_TASKS at once, counting cancelled ones
 * until they really end.
 */
export class ChildAgents {
	readonly #parent: () => ChildParent;
	/** Handles not yet disposed, by ID. */
	readonly #tasks = new Map<string, ChildTask>();
	/** Disposed (or cleaned up) but still running: they keep their slot. */
	readonly #draining = new Set<ChildTask>();
	/** Starts whose session is still opening: their slot is taken already. */
	#opening = 0;
	/** The parent ended (close): no child starts any more. */
	#closed = false;

	constructor(parent: () => ChildParent) {
		this.#parent = parent;
	}

	/** Slots taken now. */
	get used(): number {
		return this.#tasks.size + this.#draining.size + this.#opening;
	}

	/**
	 * Starts a child and returns at once with it running. Refuses with
	 * `limit_reached` when the host has MAX_CHILD_TASKS, `invalid_argument`
	 * for a tool the parent does not have, and `stale` when the call it is
	 * bound to was cancelled or ended while its session opened (the session
	 * file is removed again then: nothing ran).
	 */
	async start(owner: string, request: ChildStart, binding: ChildBinding = {}): Promise<ChildTask> {
		if (this.#closed) throw new RuntimeActionError('childAgent', 'stale', 'the parent agent has ended; no child starts any more');
		const parent = this.#parent();
		const tools = childTools(parent.tools, request.tools);
		if (this.used >= MAX_CHILD_TASKS) {
			throw new RuntimeActionError(
				'childAgent',
				'limit_reached',
				`a host runs at most ${MAX_CHILD_TASKS} child tasks at once and has ${this.used}; dispose ended ones (every terminal state must be disposed) or wait for cancelled ones to end`,
			);
		}

		const id = `child-${randomBytes(6).toString('hex')}`;
		this.#opening++;
		let session: Session;
		try {
			session = await openSession({path: childSessionPath(parent.session.path, id), workspace: parent.workspace});
		} finally {
			this.#opening--;
		}

		const stale = this.#closed
			? 'the parent agent ended while the child was being set up'
			: binding.signal?.aborted
				? 'the tool call it belongs to was cancelled while the child was being set up'
				: (binding.stale?.() ?? null);
		if (stale !== null) {
			await session.close();
			await rm(session.path, {force: true});
			throw new RuntimeActionError('childAgent', 'stale', `${stale}; no child was started`);
		}

		const task = new ChildTask({id, owner, role: request.role, session});
		this.#tasks.set(id, task);
		// A cancel of the call it belongs to cancels the child: a queued start inherits it too (spec/extensions.md §3).
		const onAbort = () => this.#cancel(task, 'the tool call that started it was cancelled');
		binding.signal?.addEventListener('abort', onAbort, {once: true});
		const timer = setTimeout(() => this.#cancel(task, `it ran past its timeout of ${request.timeoutSeconds} s (timeoutSeconds)`), request.timeoutSeconds * 1000);
		task.ended = this.#run(task, session, parent, tools, request).finally(() => {
			clearTimeout(timer);
			binding.signal?.removeEventListener('abort', onAbort);
			// #run says so before it settles the task; this holds should it ever throw.
			task.live = false;
			this.#draining.delete(task);
		});
		this.#progress(task);
		return task;
	}

	/** The deltas since the last poll, the status, and the result once it ended. */
	poll(owner: string, childId: string): ChildPoll {
		const task = this.#find(owner, childId);
		const poll: ChildPoll = {childId: task.id, sessionId: task.sessionId, status: task.status, deltas: task.output.take(), truncated: task.output.truncated, turns: task.turns};
		if (task.result) poll.result = task.result;
		if (task.error !== undefined) poll.error = task.error;
		return poll;
	}

	/** Asks the child to stop (idempotent); it ends `failed`. The handle stays until disposed. */
	cancel(owner: string, childId: string): ChildTask {
		const task = this.#find(owner, childId);
		this.#cancel(task, 'it was cancelled');
		return task;
	}

	/** Cancels the child if it still runs and frees the handle; the slot is free once the child really ended. */
	dispose(owner: string, childId: string): void {
		this.#dispose(this.#find(owner, childId), 'it was disposed while it ran');
	}

	/**
	 * Cancels and disposes every child `which` picks (all by default), and
	 * waits for them to end, at most the cancel grace: /reload (the
	 * extensions' children), a session switch, the parent ending.
	 */
	async cleanUp(reason: string, which: (task: ChildTask) => boolean = () => true): Promise<void> {
		const picked = [...this.#tasks.values()].filter(which);
		for (const task of picked) this.#dispose(task, reason);
		await settledWithin(Promise.all(picked.map(async task => task.ended)), CANCEL_GRACE_MS);
	}

	/** The parent ends: every child is cleaned up, and none starts any more (a start still opening its session is refused then). */
	async close(reason: string): Promise<void> {
		this.#closed = true;
		await this.cleanUp(reason);
	}

	#find(owner: string, childId: string): ChildTask {
		const task = this.#tasks.get(childId);
		// Another owner's child is not found: its ID tells an extension nothing.
		if (!task || task.owner !== owner)
			throw new RuntimeActionError(
				'childAgent',
				'not_found',
				`no child ${JSON.stringify(childId)} of this extension: it was never started by it, or it was disposed (or cleaned up by /reload, a session switch or the end)`,
			);
		return task;
	}

	#dispose(task: ChildTask, reason: string): void {
		this.#cancel(task, reason);
		this.#tasks.delete(task.id);
		if (task.live) this.#draining.add(task);
	}

	#cancel(task: ChildTask, reason: string): void {
		if (task.result || task.controller.signal.aborted) return;
		task.cancelReason = reason;
		task.controller.abort(new Error(reason));
		// Past the grace it counts as failed for the poller, but keeps its slot until it really ends (spec/extensions.md §3).
		const grace = setTimeout(() => {
			if (task.settle({status: 'failed', text: '', turnLimited: false, truncated: false}, `${reason}; it did not stop within ${CANCEL_GRACE_MS / 1000} s and keeps its slot until it ends`)) this.#progress(task);
		}, CANCEL_GRACE_MS);
		task.ended.finally(() => clearTimeout(grace)).catch(() => {});
	}

	async #run(task: ChildTask, session: Session, parent: ChildParent, tools: Tool[], request: ChildStart): Promise<void> {
		let outcome: TurnOutcome;
		try {
			outcome = await runTurn(request.task, {
				caller: countingCaller(parent.caller, () => {
					task.turns++;
					this.#activity(task, 'thinking');
				}),
				tools,
				session,
				gate: parent.gate(`child ${task.role}/${task.id}`),
				...(parent.hooks ? {hooks: parent.hooks} : {}),
				emit: event => this.#childEvent(task, event),
				workspace: parent.workspace,
				systemPrompt: childSystemPrompt(parent.systemPrompt, task.role),
				budget: parent.budget ?? null,
				maxTokens: parent.maxTokens ?? null,
				maxSteps: request.maxTurns,
				signal: task.controller.signal,
				extensionEvents: parent.extensionEvents ?? null,
				beforeAgentStart: parent.beforeAgentStart ?? null,
				childOf: {child: task.id, sessionId: parent.session.id},
			});
		} catch (error) {
			// runTurn never throws; should it, the child fails with what it said.
			outcome = {reason: 'error', steps: task.turns, error: error instanceof Error ? error : new Error(errorMessage(error))};
		}

		const text = task.output.report(lastAnswer(session));
		const truncated = task.output.reportCut;
		// Its session is saved and released before anyone hears it ended: a done child has really ended, and its slot is free once disposed.
		await session.close().catch(() => {});
		task.live = false;
		if (outcome.reason === 'error') task.settle({status: 'failed', text, turnLimited: false, truncated}, outcome.error?.message ?? 'the child failed');
		else if (outcome.reason === 'interrupted') task.settle({status: 'failed', text, turnLimited: false, truncated}, task.cancelReason ?? 'it was interrupted');
		else task.settle({status: 'done', text, turnLimited: outcome.reason === 'max_steps', truncated});
		this.#progress(task);
	}

	/** The child's own events: its text feeds its buffer, its activity the parent's progress line; nothing reaches the parent's transcript. */
	#childEvent(task: ChildTask, event: CoreEvent): void {
		switch (event.type) {
			case 'text_delta': {
				task.output.push(event.text);
				this.#activity(task, 'writing');
				break;
			}

			case 'tool_call': {
				this.#activity(task, `calling ${event.name}`);
				break;
			}

			case 'tool_started': {
				this.#activity(task, `running ${event.name}`);
				break;
			}

			case 'approval': {
				if (event.decision === 'deny') this.#activity(task, `${event.name} denied`);
				break;
			}

			case 'tool_result': {
				this.#activity(task, `${event.name} ${event.is_error ? 'failed' : 'done'}`);
				break;
			}

			default: {
				break;
			}
		}
	}

	#activity(task: ChildTask, activity: string): void {
		if (task.activity === activity && activity !== 'thinking') return;
		task.activity = activity;
		this.#progress(task);
	}

	#progress(task: ChildTask): void {
		const activity = task.status === 'running' ? task.activity : task.status === 'done' ? (task.result?.turnLimited ? 'stopped at its turn limit' : 'finished') : (task.error ?? 'failed');
		try {
			this.#parent().emit({type: 'child', id: task.id, role: task.role, status: task.status, turns: task.turns, activity});
		} catch {
			// A head that cannot show it does not stop the child.
		}
	}
}

/** `<parent session without .json>.children/<childId>.json`: beside the parent's, found from it. */
export function childSessionPath(parentPath: string, childId: string): string {
	const base = parentPath.endsWith('.json') ? parentPath.slice(0, -'.json'.length) : parentPath;
	return join(`${base}.children`, `${childId}.json`);
}

/** The parent's tools a child gets: all but delegate_task, or the subset it names (each must be one of the parent's active tools). */
export function childTools(parentTools: readonly Tool[], names: readonly string[] | undefined): Tool[] {
	const allowed = parentTools.filter(tool => tool.name !== DELEGATE_TOOL_NAME);
	if (names === undefined) return allowed;
	if (names.includes(DELEGATE_TOOL_NAME)) throw new RuntimeActionError('childAgent', 'invalid_argument', `field "tools": ${DELEGATE_TOOL_NAME} is never given to a child (a child cannot start children)`);
	const byName = new Map(allowed.map(tool => [tool.name, tool]));
	const unknown = names.filter(name => !byName.has(name));
	if (unknown.length > 0) {
		throw new RuntimeActionError(
			'childAgent',
			'invalid_argument',
			`field "tools": ${unknown.map(name => JSON.stringify(name)).join(', ')} ${unknown.length === 1 ? 'is not one' : 'are not'} of the parent's active tools (${[...byName.keys()].join(', ') || 'none'})`,
		);
	}

	return [...new Set(names)].map(name => byName.get(name)!);
}

/** The parent's prompt, and what the child is: the prefix stays the parent's, so a prompt cache still serves it. */
function childSystemPrompt(systemPrompt: string, role: string): string {
	return `${systemPrompt}\n\nYou are a child agent (role: ${role}) working on one self-contained task for a parent agent. Nobody reads your work but the parent: end with a final report that says what you found or did, completely, in your last message.`;
}

/** The text of the child's last answer: its report. */
function lastAnswer(session: Session): string {
	for (let index = session.messages.length - 1; index >= 0; index--) {
		const message = session.messages[index]!;
		// A user message that carries a tool's images is part of a step, not a new prompt.
		if (message.role === 'user' && !('_tool_call_id' in message)) return '';
		if (message.role === 'assistant' && typeof message.content === 'string' && message.content.trim() !== '') return message.content;
	}

	return '';
}

/** The parent's caller, counting each model request the child makes: its turns. */
function countingCaller(caller: ModelCaller, onRequest: () => void): ModelCaller {
	return {
		protocol: caller.protocol,
		model: caller.model,
		...(caller.referenceFiles ? {referenceFiles: caller.referenceFiles.bind(caller)} : {}),
		prepare: (messages, tools, references) => caller.prepare(messages, tools, references),
		send: async (request, io) => {
			onRequest();
			return caller.send(request, io);
		},
	};
}
