import type {CoreEvent} from '../core/events.js';
import {addCost, formatCost, NO_COST, uncachedInput, type Cost, type ModelPrices} from '../core/usage-cost.js';

/** Tokens by the kind each is priced as: the uncached input, the output, cache reads, cache writes. */
export interface TokenCounts {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

export interface Tally {
	tokens: TokenCounts;
	cost: Cost;
	requests: number;
}

/** What /cost and the status line show: the last turn's requests, the session's, the prices of the last request. */
export interface CostState {
	turn: Tally | null;
	session: Tally;
	prices: ModelPrices | null;
	model: string | null;
}

const emptyTally = (): Tally => ({tokens: {input: 0, output: 0, cacheRead: 0, cacheWrite: 0}, cost: NO_COST, requests: 0});

export const emptyCost = (): CostState => ({turn: null, session: emptyTally(), prices: null, model: null});

type UsageEvent = Extract<CoreEvent, {type: 'usage'}>;

function added(tally: Tally, event: UsageEvent, cost: Cost): Tally {
	const {usage} = event;
	const {tokens} = tally;
	return {
		tokens: {
			input: tokens.input + uncachedInput(usage),
			output: tokens.output + usage.output,
			cacheRead: tokens.cacheRead + usage.cacheRead,
			cacheWrite: tokens.cacheWrite + usage.cacheWrite,
		},
		cost,
		requests: tally.requests + 1,
	};
}

/** One request's usage into the tally: `newTurn` when it is the first of a turn. The session's cost is the core's (`session_cost`). */
export function addUsage(state: CostState, event: UsageEvent, newTurn: boolean): CostState {
	const turn = newTurn || state.turn === null ? emptyTally() : state.turn;
	return {
		turn: added(turn, event, addCost(turn.cost, event.cost)),
		session: added(state.session, event, event.session_cost),
		prices: event.prices,
		model: event.model,
	};
}

/** The status line's part: the session's cost (`$0.0123`, `unknown`, `$0.01 + unknown`). */
export function statusCost(state: CostState): string | null {
	return state.session.requests === 0 ? null : `cost ${formatCost(state.session.cost)}`;
}
