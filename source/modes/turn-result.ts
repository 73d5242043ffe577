import type {CoreEvent} from '../core/events.js';
import {addCost, NO_COST, type Cost} from '../core/usage-cost.js';

type Done = Extract<CoreEvent, {type: 'done'}>;

/** `--json`'s last event of a turn: what a script wants from it in one object (docs/json-events.md). */
export interface TurnResult {
	type: 'result';
	reason: Done['reason'];
	steps: number;
	/** The answer: the text of the turn's last step (text before a tool call is not part of it). */
	text: string;
	/** The turn's tokens, every request's added up. */
	usage: {input: number; output: number; cacheRead: number; cacheWrite: number; requests: number};
	/** What the turn's requests cost, and the session's total so far (null before any request). */
	cost: Cost;
	session_cost: Cost | null;
}

/** Adds up a turn's events as they go by; `result` answers its `done` and starts the next turn afresh. */
export class TurnTally {
	#text = '';
	#usage = {input: 0, output: 0, cacheRead: 0, cacheWrite: 0, requests: 0};
	#cost: Cost = NO_COST;
	#sessionCost: Cost | null = null;

	observe(event: CoreEvent): void {
		if (event.type === 'text_delta') this.#text += event.text;
		else if (event.type === 'tool_call') this.#text = '';
		else if (event.type === 'usage') {
			const {input, output, cacheRead, cacheWrite} = event.usage;
			const sum = this.#usage;
			this.#usage = {input: sum.input + input, output: sum.output + output, cacheRead: sum.cacheRead + cacheRead, cacheWrite: sum.cacheWrite + cacheWrite, requests: sum.requests + 1};
			this.#cost = addCost(this.#cost, event.cost);
			this.#sessionCost = event.session_cost;
		}
	}

	result(done: Done): TurnResult {
		const result: TurnResult = {type: 'result', reason: done.reason, steps: done.steps, text: this.#text, usage: this.#usage, cost: this.#cost, session_cost: this.#sessionCost};
		this.#text = '';
		this.#usage = {input: 0, output: 0, cacheRead: 0, cacheWrite: 0, requests: 0};
		this.#cost = NO_COST;
		return result;
	}
}
