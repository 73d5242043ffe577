import {randomUUID} from 'node:crypto';
import type {CoreEvent, EmitEvent} from '../events.js';
import type {Message, UserContent} from '../messages.js';
import {errorMessage} from '../errors.js';
import {RuntimeActionError} from '../extensions/runtime-link.js';
import type {AppendEntryRequest, CheckedMessage, SendMessageRequest} from '../extensions/check-delivery.js';
import type {DeliveryResult} from '../extensions/api.js';
import type {Session} from '../session/session-store.js';
import {customMessageEvent, type DeliveredMessage, type DeliveryMode, type QueuedItem, type SessionEntry} from '../session/session-records.js';
import {promptMessage} from '../rewind/rewind-points.js';

/** Deliveries a session may hold uncommitted (spec/extensions.md §3; i's own number: a runaway extension must not fill the disk). */
export const MAX_PENDING_DELIVERIES = 256;

/**
 * How a head starts a run for an idle `sendMessage` with `triggerTurn:
 * true`: the message is already saved, so the run answers the history as it
 * stands (`runTurn(null, …)`). A head that cannot (-p after its one turn,
 * the core API) provides none, and the send is refused as `unavailable`.
 */
export interface RunStarter {
	/** Whether a run can start now; asked before anything is saved. */
	canStart(): boolean;
	/** Starts the run and resolves with how it ended; null when it starts only once what holds the head now ends (a chat screen command, which may be awaiting this send). */
	start(): Promise<TriggeredRunEnd> | null;
}

/** How a run an idle `sendMessage` started ended: its `done` reason, and what failed when it is `error`. */
export interface TriggeredRunEnd {
	reason: Extract<CoreEvent, {type: 'done'}>['reason'];
	error?: Error;
}

/** A person's message that waited while a run worked (the chat screen's queue), ready for the model. */
export interface SteeringMessage {
	content: UserContent;
	/** Called once it is saved in the history: the head shows it there, as the person's message. */
	delivered(): void;
}

/** Where a head keeps the person's messages typed while a run works: the run takes them after a tool batch, as `steer` deliveries. */
export interface SteeringSource {
	/** What waits now, oldest first; what is taken leaves the source. */
	take(): Promise<SteeringMessage[]>;
}

/** After each complete tool batch (steering never reaches a tool that is running). */
export const afterBatchModes: ReadonlySet<DeliveryMode> = new Set(['steer', 'context']);
/** When the model stopped: followUp messages too, and the run goes on if any steer or followUp came. Also what a run's end and a session's opening commit: everything but what waits for the next explicit run. */
export const atStopModes: ReadonlySet<DeliveryMode> = new Set(['steer', 'followUp', 'context']);

/**
 * The agent's side of `appendEntry` and `sendMessage` (spec/extensions.md §3, the
 * `triggerTurn` / `deliverAs` table): idle, an item joins the session at
 * once; while a run is active it is saved to the session file as queued
 * (before the action resolves) and committed at its moment by the run
 * (run-turn.ts). Nothing here asks the model: only a head's RunStarter does.
 */
export class MessageDelivery {
	#session: Session;
	#emit: EmitEvent;
	#systemPrompt: string;
	#running = 0;
	#starter: RunStarter | undefined;
	#steering: SteeringSource | undefined;
	/** Commits one after another: two reading the same pending items at once would commit them twice. */
	#commits: Promise<unknown> = Promise.resolve();

	constructor(init: {session: Session; emit: EmitEvent; systemPrompt: string}) {
		this.#session = init.session;
		this.#emit = init.emit;
		this.#systemPrompt = init.systemPrompt;
	}

	/** A new session (/clear): deliveries go there from now on. */
	switchSession(session: Session): void {
		this.#session = session;
	}

	/** The system prompt a new session starts with, after the project instructions were read again (/reload, /clear). */
	setSystemPrompt(systemPrompt: string): void {
		this.#systemPrompt = systemPrompt;
	}

	/** The emit of the loaded extension generation (/reload). */
	emitTo(emit: EmitEvent): void {
		this.#emit = emit;
	}

	provideStarter(starter: RunStarter | undefined): void {
		this.#starter = starter;
	}

	/** The head's queue of the person's messages (the chat screen's); none: only extensions steer. */
	provideSteering(source: SteeringSource | undefined): void {
		this.#steering = source;
	}

	get running(): boolean {
		return this.#running > 0;
	}

	async appendEntry(extension: string, request: AppendEntryRequest): Promise<DeliveryResult> {
		const id = randomUUID();
		if (request.kind === 'message') {
			const status = await this.#deliver({kind: 'message', id, extension, deliver: 'context', message: delivered(request.message, id, extension)});
			return {status, entryId: id, queue: 'context'};
		}

		const item: QueuedItem = {kind: 'entry', id, extension, customType: request.customType, data: request.data};
		return {status: await this.#deliver(item), entryId: id};
	}

	async sendMessage(extension: string, request: SendMessageRequest): Promise<DeliveryResult> {
		const id = randomUUID();
		const message = delivered(request.message, id, extension);
		const item = (deliver: DeliveryMode): QueuedItem => ({kind: 'message', id, extension, deliver, message});
		// nextTurn wins over triggerTurn; triggerTurn: false is a silent context update; running, the rest is queued by deliverAs.
		if (request.deliverAs === 'nextTurn') {
			await this.#queue(item('nextTurn'));
			return {status: 'queued', entryId: id, deliverAs: 'nextTurn'};
		}

		if (request.triggerTurn === false) return {status: await this.#deliver(item('context')), entryId: id, queue: 'context'};
		if (this.running) {
			const deliverAs = request.deliverAs ?? 'steer';
			return {status: await this.#deliver(item(deliverAs)), entryId: id, deliverAs};
		}

		if (request.triggerTurn !== true) {
			await this.#commitNow([item('steer')]);
			return {status: 'appended', entryId: id};
		}

		const starter = this.#starter;
		if (!starter?.canStart()) {
			throw new RuntimeActionError(
				'sendMessage',
				'unavailable',
				'no run can start now (i -p runs only its one turn, the core API only what its caller asks, and a head starts none before it is ready); send without triggerTurn to add the message to the context',
			);
		}

		// What waited for the next explicit run goes before its input; this is that run.
		await this.#serially(async () => this.#commitItems([...this.#session.pending.filter(queued => queued.kind === 'message' && queued.deliver === 'nextTurn'), item('steer')]));
		// spec/extensions.md §3: the result is the run's own status; a run that waits for the head to be free cannot be waited for.
		const end = await starter.start();
		if (end === null) return {status: 'appended', entryId: id};
		return {status: end.reason, entryId: id, ...(end.reason === 'error' && end.error ? {error: end.error.message} : {})};
	}

	/** A run began (runTurn): from now on deliveries are queued. */
	beginRun(): void {
		this.#running++;
	}

	/** The run ended: what it left queued (but nextTurn) joins the history without a reply. */
	async endRun(emit: EmitEvent): Promise<void> {
		this.#running--;
		if (this.#running === 0) await this.#commitLeftovers(emit);
	}

	/** A session just opened: what a run had queued when it was killed is committed, once. */
	async resume(): Promise<void> {
		await this.#commitLeftovers(this.#emit);
	}

	/**
	 * Saves an explicit run's first step with the messages waiting for it
	 * (nextTurn, in order) before its input: `save` gets them and saves the
	 * step; no commit runs meanwhile, so none is saved twice. Announced once saved.
	 */
	async withNextTurn(save: (waiting: DeliveredMessage[]) => Promise<void>, emit: EmitEvent): Promise<void> {
		await this.#serially(async () => {
			const waiting = this.#session.pending.flatMap(item => (item.kind === 'message' && item.deliver === 'nextTurn' ? [item.message] : []));
			await save(waiting);
			this.announce(waiting, emit);
		});
	}

	/**
	 * Commits what is pending in `modes`, and every pending entry: the
	 * messages as one step through `save` (the run's, with its hooks), the
	 * entries a line each. With `input` (after a tool batch the run goes on
	 * from), the person's queued messages join the step last, each through
	 * the run's input handlers, saved as prompts. True when a steer or
	 * followUp message was among them: the model has something to answer.
	 */
	async commit(modes: ReadonlySet<DeliveryMode>, save: (step: Message[]) => Promise<void>, emit: EmitEvent, input?: (content: UserContent) => Promise<UserContent>): Promise<boolean> {
		return this.#serially(async () => this.#commit(modes, save, emit, input));
	}

	async #commit(modes: ReadonlySet<DeliveryMode>, save: (step: Message[]) => Promise<void>, emit: EmitEvent, input?: (content: UserContent) => Promise<UserContent>): Promise<boolean> {
		const items = this.#session.pending.filter(item => item.kind === 'entry' || modes.has(item.deliver));
		const steering = input && this.#steering ? await this.#steering.take() : [];
		if (items.length === 0 && steering.length === 0) return false;
		const prompts: Message[] = [];
		for (const message of steering) prompts.push(promptMessage(await input!(message.content), Date.now()));
		await this.#commitItems(items, save, emit, prompts);
		for (const message of steering) message.delivered();
		return steering.length > 0 || items.some(item => item.kind === 'message' && (item.deliver === 'steer' || item.deliver === 'followUp'));
	}

	/** Tells the heads of delivered messages a run saved itself (the nextTurn ones before its input). */
	announce(messages: readonly DeliveredMessage[], emit: EmitEvent): void {
		announce(
			messages.map(message => ({kind: 'message', id: message._extension_message.id, extension: message._extension_message.extension, deliver: 'nextTurn', message})),
			emit,
		);
	}

	/** Idle: committed now; running: saved as queued, for the run to commit. */
	async #deliver(item: QueuedItem): Promise<'appended' | 'queued'> {
		if (!this.running) {
			await this.#commitNow([item]);
			return 'appended';
		}

		await this.#queue(item);
		return 'queued';
	}

	async #queue(item: QueuedItem): Promise<void> {
		if (this.#session.pending.length >= MAX_PENDING_DELIVERIES) {
			throw new RuntimeActionError(
				item.kind === 'entry' ? 'appendEntry' : 'sendMessage',
				'limit_reached',
				`the session holds ${MAX_PENDING_DELIVERIES} uncommitted deliveries already (the limit); wait for the run to commit them`,
			);
		}

		await this.#session.queue(item);
		// The run may have ended while the line was written: then nothing is left to commit it.
		if (!this.running && (item.kind === 'entry' || item.deliver !== 'nextTurn')) await this.#commitLeftovers(this.#emit);
	}

	async #serially<T>(work: () => Promise<T>): Promise<T> {
		const run = this.#commits.then(work);
		this.#commits = run.catch(() => {});
		return run;
	}

	async #commitNow(items: QueuedItem[]): Promise<void> {
		return this.#serially(async () => this.#commitItems(items));
	}

	/** The messages (and the person's `prompts` after them) as one step through `save` (a run's own, with its hooks; else straight to the session), the entries a line each, then told. */
	async #commitItems(
		items: QueuedItem[],
		save: (step: Message[]) => Promise<void> = async step => this.#session.appendStep(step),
		emit: EmitEvent = this.#emit,
		prompts: readonly Message[] = [],
	): Promise<void> {
		const messages = [...items.flatMap(item => (item.kind === 'message' ? [item.message] : [])), ...prompts];
		const entries = items.flatMap(item => (item.kind === 'entry' ? [entryOf(item)] : []));
		if (messages.length > 0) await save(this.#session.messages.length === 0 ? [{role: 'system', content: this.#systemPrompt}, ...messages] : messages);
		await this.#session.commitEntries(entries);
		announce(items, emit);
	}

	async #commitLeftovers(emit: EmitEvent): Promise<void> {
		try {
			await this.commit(atStopModes, async step => this.#session.appendStep(step), emit);
		} catch (error) {
			emit({type: 'warning', message: `the queued extension messages stay queued for the next run: ${errorMessage(error)}`});
		}
	}
}

function delivered(message: CheckedMessage, id: string, extension: string): DeliveredMessage {
	return {
		role: 'user',
		content: message.content,
		_extension_message: {
			id,
			extension,
			...(message.customType === undefined ? {} : {customType: message.customType}),
			display: message.display,
			...(message.details === undefined ? {} : {details: message.details}),
		},
	};
}

function entryOf(item: Extract<QueuedItem, {kind: 'entry'}>): SessionEntry {
	return {id: item.id, extension: item.extension, customType: item.customType, data: item.data};
}

function announce(items: readonly QueuedItem[], emit: EmitEvent): void {
	for (const item of items) {
		if (item.kind === 'entry') {
			emit({type: 'entry', id: item.id, extension: item.extension, customType: item.customType, data: item.data});
			continue;
		}

		emit(customMessageEvent(item.message));
	}
}
