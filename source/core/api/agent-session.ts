import type {EmitEvent} from '../events.js';
import type {UserContent} from '../messages.js';
import type {Agent} from '../session/agent.js';
import {TurnFailedError} from './errors.js';
import {EventQueue} from './event-queue.js';
import type {CoreEvent, RunOptions, Session, TurnResult} from './types.js';

/** The running turn: how to stop it, and its end. */
interface RunningTurn {
	controller: AbortController;
	ended: Promise<unknown>;
}

/**
 * The core API's session (what `openSession` returns): a head over the one
 * agent object, held by reference. A file of its own so that a test can
 * wrap an agent it built; `i-agent/core` exports only `openSession`.
 */
export class AgentSession implements Session {
	readonly #agent: Agent;
	#running: RunningTurn | undefined;
	#closed: Promise<void> | undefined;

	constructor(agent: Agent) {
		this.#agent = agent;
	}

	get id(): string {
		return this.#agent.session.id;
	}

	get path(): string {
		return this.#agent.session.path;
	}

	get workspace(): string {
		return this.#agent.workspace;
	}

	get messages(): Session['messages'] {
		return this.#agent.session.messages;
	}

	async run(prompt: UserContent, options: RunOptions = {}): Promise<TurnResult> {
		if (this.#closed) throw new Error(`session ${this.path} is closed`);
		if (this.#running) throw new Error(`session ${this.path} is running a turn already: one turn at a time`);
		const controller = new AbortController();
		const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
		let kind = 'internal';
		let listenerFailed: {error: unknown} | undefined;
		const emit: EmitEvent = event => {
			if (event.type === 'error') kind = event.kind;
			if (!options.onEvent || listenerFailed) return;
			try {
				options.onEvent(event);
			} catch (error) {
				// The caller's listener broke: the turn stops, and run rejects with that error.
				listenerFailed = {error};
				controller.abort(error);
			}
		};

		const ended = this.#agent.runTurn(prompt, signal, {emit});
		this.#running = {controller, ended};
		let outcome;
		try {
			outcome = await ended;
		} finally {
			this.#running = undefined;
		}

		if (listenerFailed) throw listenerFailed.error;
		switch (outcome.reason) {
			case 'interrupted': {
				throw signal.reason;
			}

			case 'error':
			case 'max_steps': {
				const message = outcome.error?.message ?? `the turn ended with ${outcome.reason}`;
				throw new TurnFailedError(message, {reason: outcome.reason, kind, steps: outcome.steps, cause: outcome.error});
			}

			default: {
				return {reason: outcome.reason, steps: outcome.steps, text: lastAnswer(this.messages)};
			}
		}
	}

	async *stream(prompt: UserContent, options: Pick<RunOptions, 'signal'> = {}): AsyncGenerator<CoreEvent, void, undefined> {
		const queue = new EventQueue();
		const leave = new AbortController();
		const signal = options.signal ? AbortSignal.any([options.signal, leave.signal]) : leave.signal;
		const result = this.run(prompt, {signal, onEvent: event => queue.push(event)});
		// Settled either way, the queue ends; the loop below rethrows a failure.
		result.then(
			() => queue.end(),
			() => queue.end(),
		);
		try {
			yield* queue.drain();
			await result;
		} finally {
			// A loop left before the end (break, return, a throw in its body) stops the turn.
			leave.abort(new Error("the loop over the turn's events was left before the turn ended"));
			await result.catch(() => {});
		}
	}

	async close(): Promise<void> {
		this.#closed ??= (async () => {
			const running = this.#running;
			if (running) {
				running.controller.abort(new Error(`session ${this.path} was closed during the turn`));
				await running.ended;
			}

			await this.#agent.close();
		})();
		return this.#closed;
	}
}

/** The text of the last assistant message: a finished turn's answer. */
function lastAnswer(messages: Session['messages']): string {
	const last = messages.at(-1);
	return last?.role === 'assistant' ? (last.content ?? '') : '';
}
