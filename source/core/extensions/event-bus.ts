import {eventClass, eventTimeoutMs, gateFailure, type EventTag} from './event-tags.js';
import {describeThrown} from './describe-thrown.js';
import type {Platform} from './api.js';
import {callHandler, type ExtensionHandler, type HandlerOutcome} from './call-handler.js';

/** What a handler returns to veto (`BeforeTuiStart`) or to log an advisory abort: `api.ABORT`, or `{abort: true, reason}`. */
export const ABORT = Object.freeze({abort: true as const});

export type EventHandler = ExtensionHandler;

export interface RegisteredHandler {
	extension: string;
	tag: EventTag;
	handler: EventHandler;
	/** The extension's declared platforms; absent: every platform. */
	platforms: readonly Platform[] | undefined;
}

/** Observe events waiting for one extension; past this, new events are merged into the last one or the oldest dropped. */
export const OBSERVE_QUEUE_LIMIT = 256;

export interface EventBusOptions {
	/** In priority order (the loader's order), each extension's handlers in registration order. */
	handlers: readonly RegisteredHandler[];
	/** Where failures and advisory aborts go (a stderr line, a chat-screen notice). */
	report(message: string): void;
	platform: Platform | undefined;
	/** Overrides the per-tag timeouts (tests). */
	timeoutMs?: (tag: EventTag) => number;
}

export type GateAnswer = {decided: false} | {decided: true; allow: boolean; reason: string | null; by: string};

/**
 * Delivers events to extension handlers with the class rules of
 * spec/extensions.md §5: each handler gets its own plain JSON copy of the
 * payload, runs under its tag's timeout, and a failure is reported with the
 * extension's name; only the class decides what an answer or a failure
 * means. Observe events never wait: each extension has a bounded queue
 * that coalesces under pressure.
 */
export class EventBus {
	readonly #handlers: ReadonlyMap<EventTag, readonly RegisteredHandler[]>;
	readonly #report: (message: string) => void;
	readonly #platform: Platform | undefined;
	readonly #timeoutMs: (tag: EventTag) => number;
	#queues = new Map<string, ObserveQueue>();
	readonly #reported = new Set<string>();

	constructor(options: EventBusOptions) {
		const byTag = new Map<EventTag, RegisteredHandler[]>();
		for (const entry of options.handlers) {
			if (entry.platforms && (options.platform === undefined || !entry.platforms.includes(options.platform))) continue;
			const list = byTag.get(entry.tag) ?? [];
			list.push(entry);
			byTag.set(entry.tag, list);
		}

		this.#handlers = byTag;
		this.#report = options.report;
		this.#platform = options.platform;
		this.#timeoutMs = options.timeoutMs ?? eventTimeoutMs;
	}

	/**
	 * A bus with these handlers instead (the extensions that loaded after a
	 * question, added), sharing this one's observe queues: an extension hears
	 * what either bus observed in one order, and `drained` waits for both.
	 */
	withHandlers(handlers: readonly RegisteredHandler[]): EventBus {
		const bus = new EventBus({handlers, report: this.#report, platform: this.#platform, timeoutMs: this.#timeoutMs});
		bus.#queues = this.#queues;
		return bus;
	}

	/** Whether any handler listens: callers skip building a payload nobody reads. */
	has(tag: EventTag): boolean {
		return (this.#handlers.get(tag)?.length ?? 0) > 0;
	}

	/** A veto event: the first handler answering ABORT stops; a throw or a timeout is skipped (never a veto). */
	async veto(tag: EventTag, payload: unknown): Promise<{vetoed: false} | {vetoed: true; extension: string; reason: string | null}> {
		this.#check(tag, 'veto');
		for (const entry of this.#handlers.get(tag) ?? []) {
			const outcome = await this.#call(entry, payload);
			if (!outcome.ok) {
				this.#report(`extension ${entry.extension}: ${tag} handler ${outcome.message}; skipped`);
				continue;
			}

			const abort = readAbort(outcome.value);
			if (abort) return {vetoed: true, extension: entry.extension, reason: abort.reason ?? null};
		}

		return {vetoed: false};
	}

	/** An advisory event: every handler runs; an ABORT or a failure is only reported. */
	async advisory(tag: EventTag, payload: unknown): Promise<void> {
		this.#check(tag, 'advisory');
		for (const entry of this.#handlers.get(tag) ?? []) {
			const outcome = await this.#call(entry, payload);
			if (!outcome.ok) {
				this.#report(`extension ${entry.extension}: ${tag} handler ${outcome.message}`);
				continue;
			}

			const abort = readAbort(outcome.value);
			if (abort) this.#report(`extension ${entry.extension} asked to abort at ${tag}${abort.reason ? `: ${abort.reason}` : ''}; ${tag} is advisory, so nothing stops`);
		}
	}

	/**
	 * A gate event. `read` turns one handler's answer into allow / block /
	 * no opinion; the first block wins and no handler can turn a block into an
	 * allow. A failing handler decides by `gateFailure` (ToolCall: blocked).
	 */
	async gate(tag: EventTag, payload: unknown, read: (answer: unknown) => {allow: boolean; reason: string | null} | undefined): Promise<GateAnswer> {
		this.#check(tag, 'gate');
		let answer: GateAnswer = {decided: false};
		for (const entry of this.#handlers.get(tag) ?? []) {
			let outcome = await this.#call(entry, payload);
			let decision: {allow: boolean; reason: string | null} | undefined;
			if (outcome.ok) {
				try {
					decision = read(outcome.value);
				} catch (error) {
					// An answer of the wrong shape is a failed handler: the tag's failure rule decides, never a crash of the caller.
					outcome = {ok: false, message: `answered ${describeThrown(error)}`};
				}
			}

			if (!outcome.ok) {
				const failure = gateFailure(tag);
				const consequence = failure === 'block' ? '; the call is blocked' : failure === 'proceed' ? '; it proceeds' : '; it decides nothing';
				this.#report(`extension ${entry.extension}: ${tag} handler ${outcome.message}${consequence}`);
				if (failure === 'block') decision = {allow: false, reason: `the ${tag} check of extension ${entry.extension} failed (${outcome.message})`};
			}

			if (decision === undefined) continue;
			if (!decision.allow) return {decided: true, allow: false, reason: decision.reason, by: entry.extension};
			if (!answer.decided) answer = {decided: true, allow: true, reason: decision.reason, by: entry.extension};
		}

		return answer;
	}

	/**
	 * A transform event: handlers chained in order, each given the previous
	 * value; `read` turns an answer (of the extension named) into the next
	 * value, or undefined for "unchanged". A failure keeps the previous value.
	 */
	async transform<T>(tag: EventTag, value: T, read: (answer: unknown, previous: T, extension: string) => T | undefined): Promise<T> {
		this.#check(tag, 'transform');
		let current = value;
		for (const entry of this.#handlers.get(tag) ?? []) {
			const outcome = await this.#call(entry, current);
			if (!outcome.ok) {
				this.#report(`extension ${entry.extension}: ${tag} handler ${outcome.message}; the value is kept`);
				continue;
			}

			let next: T | undefined;
			try {
				next = read(outcome.value, current, entry.extension);
			} catch (error) {
				this.#report(`extension ${entry.extension}: ${tag} handler answered ${describeThrown(error)}; the value is kept`);
				continue;
			}

			if (next !== undefined) current = next;
		}

		return current;
	}

	/** An observe event: queued per extension and delivered in order, never awaited by the caller. */
	observe(tag: EventTag, payload: unknown): void {
		const handlers = this.#handlers.get(tag);
		if (!handlers) return;
		for (const entry of handlers) {
			let queue = this.#queues.get(entry.extension);
			if (!queue) {
				queue = new ObserveQueue(
					async (queued, event) => {
						const outcome = await this.#call(queued, event);
						if (!outcome.ok) this.#report(`extension ${queued.extension}: ${queued.tag} handler ${outcome.message}`);
					},
					this.#report,
					entry.extension,
				);
				this.#queues.set(entry.extension, queue);
			}

			queue.push(entry, payload);
		}
	}

	/** Reports `message` the first time `key` comes, for a mistake an extension repeats on every request (a refused header). */
	reportOnce(key: string, message: string): void {
		if (this.#reported.has(key)) return;
		this.#reported.add(key);
		this.#report(message);
	}

	/** Resolves once every queued observe event was delivered (or timed out): at shutdown, and in tests. */
	async drained(): Promise<void> {
		await Promise.all([...this.#queues.values()].map(async queue => queue.drained()));
	}

	#check(tag: EventTag, wanted: string): void {
		if (eventClass(tag) !== wanted) throw new Error(`${tag} is ${article(eventClass(tag))} event, not ${article(wanted)} one`);
	}

	async #call(entry: RegisteredHandler, payload: unknown): Promise<HandlerOutcome> {
		return callHandler(entry.handler, payload, {tag: entry.tag, extension: entry.extension}, this.#timeoutMs(entry.tag));
	}
}

function readAbort(value: unknown): {reason: string | undefined} | undefined {
	if (value === null || typeof value !== 'object' || (value as {abort?: unknown}).abort !== true) return undefined;
	const {reason} = value as {reason?: unknown};
	return {reason: typeof reason === 'string' && reason.length > 0 ? reason : undefined};
}

/**
 * One extension's observe events, delivered one at a time in order. Never
 * longer than OBSERVE_QUEUE_LIMIT: under pressure a `MessageUpdate` is
 * merged into the queued one before it (their `delta` texts joined), and
 * otherwise the oldest event is dropped; drops are reported once per burst.
 */
class ObserveQueue {
	readonly #deliver: (entry: RegisteredHandler, payload: unknown) => Promise<void>;
	readonly #report: (message: string) => void;
	readonly #extension: string;
	readonly #items: Array<{entry: RegisteredHandler; payload: unknown}> = [];
	#running: Promise<void> | undefined;
	#dropped = 0;

	constructor(deliver: (entry: RegisteredHandler, payload: unknown) => Promise<void>, report: (message: string) => void, extension: string) {
		this.#deliver = deliver;
		this.#report = report;
		this.#extension = extension;
	}

	push(entry: RegisteredHandler, payload: unknown): void {
		if (this.#items.length >= OBSERVE_QUEUE_LIMIT) {
			const last = this.#items.at(-1)!;
			if (!mergeUpdate(last, entry, payload)) {
				this.#items.shift();
				this.#items.push({entry, payload});
				this.#dropped++;
			}
		} else {
			this.#items.push({entry, payload});
		}

		this.#running ??= this.#run();
	}

	async drained(): Promise<void> {
		while (this.#running) await this.#running;
	}

	async #run(): Promise<void> {
		// Delivery starts after the caller's synchronous step: observing never runs inside the agent loop's call.
		await Promise.resolve();
		while (this.#items.length > 0) {
			const item = this.#items.shift()!;
			await this.#deliver(item.entry, item.payload);
			if (this.#dropped > 0 && this.#items.length === 0) {
				this.#report(`extension ${this.#extension}: ${this.#dropped} observed events were dropped because its handlers fell behind`);
				this.#dropped = 0;
			}
		}

		this.#running = undefined;
	}
}

/** Two queued `MessageUpdate`s of one handler become one: the deltas joined, the later payload's other fields kept. */
function mergeUpdate(last: {entry: RegisteredHandler; payload: unknown}, entry: RegisteredHandler, payload: unknown): boolean {
	if (last.entry !== entry || entry.tag !== 'MessageUpdate') return false;
	const before = last.payload as {delta?: unknown} | null;
	const after = payload as {delta?: unknown} | null;
	if (typeof before?.delta !== 'string' || typeof after?.delta !== 'string') return false;
	last.payload = {...after, delta: before.delta + after.delta};
	return true;
}

function article(word: string): string {
	return `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}
