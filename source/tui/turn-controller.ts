import type {SteeringMessage, SteeringSource, TriggeredRunEnd} from '../core/agent/message-delivery.js';
import type {UserContent} from '../core/messages.js';
import type {McpPromptCommand} from '../core/mcp/mcp-servers.js';
import type {Agent} from '../core/session/agent.js';
import type {ApprovalBroker} from './brokers/approval-broker.js';
import type {ChatCore} from './chat-core.js';
import type {ChatStore} from './chat-store.js';
import {runExtensionCommand, type ExtensionUiCommand} from './commands/extension-command.js';
import {MAX_QUEUED_MESSAGES, queuedCount, type MessageQueue, type QueuedMessage} from './message-queue.js';
import type {Notifier} from './notify/notifier.js';

/** What the turns need of the screen and the agent. */
export interface TurnParts {
	agent: Pick<Agent, 'runTurn' | 'workspace' | 'mcp' | 'extensionEvents' | 'session' | 'systemPrompt'>;
	/** The lazily loaded core (chat-core.ts): the attachments, the `!` commands. */
	core: Pick<ChatCore, 'promptContent' | 'describeAttachments' | 'runUserBash' | 'userBashMessage' | 'recordUserBash'>;
	store: Pick<ChatStore, 'getSnapshot' | 'notice' | 'setBusy' | 'addUser' | 'startBash' | 'bashOutput' | 'endBash'>;
	notifier: Pick<Notifier, 'turnStarted' | 'turnEnded'>;
	/** Its open approval is withdrawn by an interrupt. */
	broker: Pick<ApprovalBroker, 'cancel'>;
	/** The person's messages typed while a run works. */
	queue: MessageQueue;
	/** After each of the person's turns that ended with an answer (plan mode offers the plan then). */
	afterAnswer?: () => void;
}

type RunOutcome = {reason: string} | undefined | void;

/** A message ready for the model: its content, and what the transcript shows of it. */
interface Prepared {
	content: UserContent;
	shown: string;
	attachments: string | null;
}

/**
 * The one place that starts what keeps the screen busy: the person's turns,
 * `!` commands, MCP prompts, extension commands, the runs an extension
 * triggers, and the work that waits for them (a new `i dev` build). It says
 * whether a run may start, which one Esc stops, and what the end waits for;
 * the person's messages typed meanwhile wait in its queue (message-queue.ts).
 */
export class TurnController {
	readonly #parts: TurnParts;
	/** What Esc stops: the turn or command running now. */
	#turn: AbortController | null = null;
	/** The last run started: the next triggered run and the end wait for it. */
	#running: Promise<void> = Promise.resolve();
	/** Set once the person leaves: no run starts after that. */
	#leaving = false;

	constructor(parts: TurnParts) {
		this.#parts = parts;
	}

	/** Settles once the last run started has ended (a turn saved its last complete step). */
	get running(): Promise<void> {
		return this.#running;
	}

	/** Whether the person's message or command may start now; when not, the screen says why and the text stays in the editor. */
	mayStart(): boolean {
		const {store} = this.#parts;
		if (!store.getSnapshot().busy) return true;
		store.notice('info', 'a turn is running: wait for it, or press Esc to stop it');
		return false;
	}

	/** Whether an extension's triggered run may start (MessageDelivery's RunStarter): not once the person leaves, nor while Esc stops a run. */
	mayTrigger(): boolean {
		return !this.#leaving && this.#turn?.signal.aborted !== true;
	}

	/** A turn; `shownAs` is what the transcript shows of it (/init's line instead of its long prompt). */
	start(text: string, shownAs?: string, from: 'person' | 'server' = 'person'): void {
		const {store, notifier} = this.#parts;
		notifier.turnStarted();
		const controller = new AbortController();
		this.#turn = controller;
		store.setBusy(true);
		const run = this.#send(text, controller, shownAs, from);
		this.#running = this.#settle(run, controller).then(async () => {
			if (this.#startQueued(controller)) return;
			const outcome = await run.catch(() => undefined);
			// Not awaited: what comes after an answer (the plan's question) is no part of the run the end waits for.
			if (outcome?.reason === 'stop' && !this.#leaving) this.#parts.afterAnswer?.();
		});
	}

	/**
	 * A message typed while a run works (or while the queue waits after an
	 * interrupt): queued behind the others, so none overtakes one typed
	 * before it. False when the queue is full: the text stays in the editor.
	 */
	enqueue(message: QueuedMessage): boolean {
		const {queue, store} = this.#parts;
		if (!queue.add(message)) {
			store.notice('warning', `not queued: the queue holds ${MAX_QUEUED_MESSAGES} messages (the most it takes); wait for the turn, or /queue clear`);
			return false;
		}

		if (!store.getSnapshot().busy) this.sendQueued();
		return true;
	}

	/** Enter on an empty editor: the oldest queued message starts a turn, when nothing runs. */
	sendQueued(): void {
		if (!this.#parts.store.getSnapshot().busy) this.#startQueued(null);
	}

	/** The running turn's side of the queue (MessageDelivery's SteeringSource): after a tool batch it takes every message waiting. */
	readonly steering: SteeringSource = {take: async () => this.#takeSteering()};

	/** `!command` (`!!command`: not added to the context): the person's own, run at once with no approval; Esc stops it. */
	runBang(command: string, excludeFromContext: boolean): void {
		const {store} = this.#parts;
		if (command === '') {
			store.notice('warning', 'usage: !COMMAND runs it in the workspace and adds its output to the context of your next message; !!COMMAND runs it without adding it');
			return;
		}

		const controller = new AbortController();
		this.#turn = controller;
		store.startBash(command);
		this.#running = this.#settle(this.#bash(command, excludeFromContext, controller.signal), controller).then(() => void this.#startQueued(controller));
	}

	/** `/mcp__<server>__<prompt> ARGS`: the prompt's arguments checked, its messages fetched and sent as the turn. */
	async runMcpPrompt(prompt: McpPromptCommand, args: string): Promise<void> {
		const {agent, store} = this.#parts;
		const {parsePromptArguments, promptText} = await import('../core/mcp/mcp-prompt.js');
		let text: string;
		store.setBusy(true);
		try {
			const values = parsePromptArguments(args, prompt);
			const connection = agent.mcp.servers?.connection(prompt.server);
			if (!connection) throw new Error(`MCP server ${prompt.server} is gone`);
			text = promptText(await connection.getPrompt(prompt.prompt, values));
		} catch (error) {
			store.setBusy(false);
			store.notice('warning', (error as Error).message);
			return;
		}

		this.start(text, undefined, 'server');
	}

	/** An extension's `/name ARGS`: Esc stops it as it stops a turn (its signal aborts), and the screen does not wait for a command that ignores it. */
	runExtensionCommand(name: string, command: ExtensionUiCommand, args: string): void {
		const {agent, store} = this.#parts;
		store.setBusy(true);
		const controller = new AbortController();
		this.#turn = controller;
		this.#running = runExtensionCommand(name, command, args, {workspace: agent.workspace, sessionId: agent.session.id, signal: controller.signal, store}).finally(() => {
			if (this.#turn === controller) this.#turn = null;
			store.setBusy(false);
			this.#startQueued(controller);
		});
	}

	/**
	 * A run an extension asked for (sendMessage with triggerTurn: true while
	 * idle): its message is saved and shown already; it starts once the
	 * command or reload that is running ends, as if the person had sent it.
	 * Resolves with how the run ended (`interrupted` when the person left
	 * first); null when a command or turn holds the screen now: the command
	 * may be the very one awaiting the send, which would then wait for itself.
	 */
	startTriggered(): Promise<TriggeredRunEnd> | null {
		const {agent, store, notifier} = this.#parts;
		const busy = store.getSnapshot().busy;
		const before = this.#running;
		const controller = new AbortController();
		const run = before.then(async () => {
			if (this.#leaving) return;
			this.#turn = controller;
			store.setBusy(true);
			notifier.turnStarted();
			return agent.runTurn(null, controller.signal);
		});
		this.#running = this.#settle(run, controller).then(() => void this.#startQueued(controller));
		if (busy) return null;
		return run.then(
			outcome => outcome ?? {reason: 'interrupted'},
			(error: unknown) => ({reason: 'error', error: error instanceof Error ? error : new Error(String(error))}),
		);
	}

	/** `work` once the run going on now has ended (an `i dev` build is loaded between runs); its failure is a notice. */
	whenIdle(work: () => Promise<void>): void {
		const before = this.#running;
		this.#running = (async () => {
			await before;
			await work();
		})().catch((error: unknown) => this.#parts.store.notice('error', (error as Error).message));
	}

	/** `work` is what the end waits for now (--resume's picker, which came once the screen was ready). */
	track(work: Promise<void>): void {
		this.#running = work;
	}

	/** Esc, Ctrl-C, a signal or leaving: the open approval is withdrawn and the running turn or command stops; the queue stays, and says so. */
	interrupt(): void {
		const {broker, queue, store} = this.#parts;
		broker.cancel();
		const stopping = this.#turn !== null && !this.#turn.signal.aborted;
		this.#turn?.abort();
		if (stopping && queue.size > 0 && !this.#leaving) {
			store.notice('info', `${queuedCount(queue.size)} kept: Enter on the empty editor sends them, ↑ takes the last back to edit, /queue clear drops them`);
		}
	}

	/** The person leaves: no run starts from now on (the end then interrupts and waits for `running`). */
	leave(): void {
		this.#leaving = true;
	}

	/**
	 * The @-mentions attached (attach-mentions.ts), then the turn; a message past the attachment limits is not sent, and says why.
	 * A server's text (an MCP prompt) is sent as it is: an `@path` in it attaches no file of the workspace.
	 */
	async #send(text: string, controller: AbortController, shownAs: string | undefined, from: 'person' | 'server'): Promise<RunOutcome> {
		const {agent, store} = this.#parts;
		if (from === 'server') {
			store.addUser(shownAs ?? text);
			return agent.runTurn(text, controller.signal);
		}

		const prepared = await this.#prepare(text, controller.signal);
		if (prepared === null) return undefined;
		store.addUser(shownAs ?? prepared.shown, prepared.attachments);
		return agent.runTurn(prepared.content, controller.signal);
	}

	/**
	 * The person's text with its @-mentions attached (attach-mentions.ts) and
	 * `@server:uri` resources read in; null when it may not be sent (past the
	 * attachment limits, which a notice says, or Esc meanwhile).
	 */
	async #prepare(text: string, signal: AbortSignal): Promise<Prepared | null> {
		const {agent, core, store} = this.#parts;
		const prepared = await core.promptContent(text, agent.workspace);
		// Esc while the files were read: nothing is sent.
		if (signal.aborted) return null;
		for (const notice of prepared.notices) store.notice('warning', notice);
		if (!prepared.ok) {
			store.notice('error', `${prepared.error} (↑ brings the message back to edit)`);
			return null;
		}

		// The transcript shows the text as typed; the model gets the resources read into it.
		const content =
			prepared.text.includes('@') && agent.mcp.servers !== null
				? await (await import('../core/mcp/resource-mentions.js')).contentWithResources(prepared.content, prepared.text, agent.mcp, signal, problem => store.notice('warning', problem))
				: prepared.content;
		return {content, shown: prepared.text, attachments: core.describeAttachments(prepared.attachments)};
	}

	/** After a run (`ended`; null when none ran): the oldest queued message starts the next turn, unless Esc stopped the run or the person leaves. True when one started. */
	#startQueued(ended: AbortController | null): boolean {
		if (this.#leaving || ended?.signal.aborted === true) return false;
		const next = this.#parts.queue.shift();
		if (next === undefined) return false;
		this.start(next.text);
		return true;
	}

	/** Every queued message, prepared for the model; the transcript shows each once the run saved it. */
	async #takeSteering(): Promise<SteeringMessage[]> {
		const {queue, store} = this.#parts;
		const signal = this.#turn?.signal ?? new AbortController().signal;
		const waiting = queue.takeAll();
		const taken: SteeringMessage[] = [];
		for (const message of waiting) {
			const prepared = await this.#prepare(message.text, signal);
			// Esc while the files were read: the run stops, and every message waits again.
			if (signal.aborted) {
				queue.restore(waiting);
				return [];
			}

			if (prepared !== null) taken.push({content: prepared.content, delivered: () => store.addUser(prepared.shown, prepared.attachments)});
		}

		return taken;
	}

	/** A `!` command's run: its output live, then saved to the context (unless `!!`) before it is shown as added. */
	async #bash(command: string, excludeFromContext: boolean, signal: AbortSignal): Promise<void> {
		const {agent, core, store} = this.#parts;
		try {
			const run = await core.runUserBash(command, {workspace: agent.workspace, signal, events: agent.extensionEvents ?? null, excludeFromContext, onOutput: text => store.bashOutput(text)});
			const message = core.userBashMessage(run);
			// Saved before it is shown as added: a failed write says so, and the screen does not claim otherwise.
			let saved = !excludeFromContext;
			if (saved) {
				try {
					await core.recordUserBash(agent.session, agent.systemPrompt, message);
				} catch (error) {
					saved = false;
					store.notice('error', `the command's output was not added to the context: ${(error as Error).message}`);
				}
			}

			store.endBash({command, output: message._user_bash.shown, status: run.status, context: saved});
		} catch (error) {
			store.endBash({command, output: '', status: `failed: ${(error as Error).message}`, context: false});
		}
	}

	/** A run's end: its failure a notice, the screen idle again, the run no longer the one Esc stops. */
	async #settle(run: Promise<RunOutcome>, controller: AbortController): Promise<void> {
		const {store, notifier} = this.#parts;
		return run
			.then(
				outcome => {
					if (outcome) notifier.turnEnded(outcome.reason);
				},
				(error: unknown) => store.notice('error', (error as Error).message),
			)
			.finally(() => {
				if (this.#turn === controller) this.#turn = null;
				store.setBusy(false);
			});
	}
}
