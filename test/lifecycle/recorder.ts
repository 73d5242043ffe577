// One log for both systems of a turn's lifecycle: a fake HookChain that
// records each worker hook it runs, and a real EventBus whose handlers answer
// as the test says, with each dispatch written to the same log. A transform
// or a gate is logged by its handler, which the bus calls at once; an
// observe event is logged as it is dispatched, for its handlers hear of it
// later, from their queue.
import {EventBus, type EventHandler, type RegisteredHandler} from '../../source/core/extensions/event-bus.js';
import {eventClass, type EventTag} from '../../source/core/extensions/event-tags.js';
import type {HookChain} from '../../source/core/lifecycle/hook-chain.js';
import type {LifecycleEvent} from '../../source/core/lifecycle/event-names.js';
import type {CoreEvent, EmitEvent} from '../../source/core/events.js';

export type HookAnswer = (data: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;

export interface Recorder {
	/** `hook:EVENT`, `ext:TAG`, `emit:TYPE`, and what a test adds, in the order they happened. */
	log: string[];
	hooks: HookChain;
	events: EventBus;
	emit: EmitEvent;
	emitted: CoreEvent[];
	/** What each hook and each handler was given, by `hook:EVENT` / `ext:TAG`. */
	given: Map<string, unknown[]>;
	/** What the bus reported (a failing handler, say). */
	reports: string[];
}

class RecordingBus extends EventBus {
	readonly #log: string[];
	readonly #given: Map<string, unknown[]>;

	constructor(handlers: readonly RegisteredHandler[], log: string[], given: Map<string, unknown[]>, reports: string[]) {
		super({handlers, report: message => reports.push(message), platform: 'linux', timeoutMs: () => 1000});
		this.#log = log;
		this.#given = given;
	}

	override observe(tag: EventTag, payload: unknown): void {
		this.#log.push(`ext:${tag}`);
		note(this.#given, `ext:${tag}`, structuredClone(payload));
		super.observe(tag, payload);
	}
}

function note(given: Map<string, unknown[]>, key: string, value: unknown): void {
	const list = given.get(key) ?? [];
	list.push(value);
	given.set(key, list);
}

/**
 * `hooks` names the worker hooks that listen, with their answers (the data
 * unchanged when the answer is `null`); `handlers` the extension tags
 * handled, a tag alone for a handler that answers nothing.
 */
export function recorder(hooks: Partial<Record<LifecycleEvent, HookAnswer | null>>, handlers: ReadonlyArray<EventTag | [EventTag, EventHandler]>): Recorder {
	const log: string[] = [];
	const given = new Map<string, unknown[]>();
	const reports: string[] = [];
	const emitted: CoreEvent[] = [];
	const registered: RegisteredHandler[] = handlers.map(entry => {
		const [tag, handler] = typeof entry === 'string' ? [entry, undefined] : entry;
		return {extension: 'x', tag, platforms: undefined, handler: recording(tag, handler)};
	});
	function recording(tag: EventTag, handler: EventHandler | undefined): EventHandler {
		return (event, ctx) => {
			// Observe events were logged as they were dispatched.
			if (eventClass(tag) !== 'observe') {
				log.push(`ext:${tag}`);
				note(given, `ext:${tag}`, event);
			}

			return handler ? handler(event, ctx) : undefined;
		};
	}

	const chain: HookChain = {
		has: event => event in hooks,
		async run(event, data, options) {
			log.push(`hook:${event}`);
			note(given, `hook:${event}`, data);
			const answer = hooks[event];
			const result = answer ? await answer(data) : data;
			options?.check?.(result, `${event} hook of the test`);
			return result;
		},
		warnings: () => [],
	};
	return {
		log,
		hooks: chain,
		events: new RecordingBus(registered, log, given, reports),
		emit(event) {
			log.push(`emit:${event.type}`);
			emitted.push(event);
		},
		emitted,
		given,
		reports,
	};
}
