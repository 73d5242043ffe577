import {describePrices, formatCost} from '../../core/usage-cost.js';
import {emptyCost, type CostState, type Tally, type TokenCounts} from '../cost-tally.js';
import type {ScreenCommand} from './command-context.js';

export const costCommand: ScreenCommand = {
	name: '/cost',
	usage: '/cost',
	description: "the last turn's and this session's cost, tokens and prices",
	takesArguments: false,
	duringTurn: true,
	async run({store}) {
		store.notice('info', costReport(store.getSnapshot().status.cost ?? emptyCost()));
	},
};

/** The words of /cost: each tally's cost, its tokens by kind, and the prices used; "unknown" where a price is missing, never $0. */
export function costReport(state: CostState): string {
	if (state.session.requests === 0) return 'no model request in this session yet: nothing has cost anything';
	const tokens = (counts: TokenCounts) =>
		`input ${counts.input.toLocaleString('en-US')} · output ${counts.output.toLocaleString('en-US')} · cache read ${counts.cacheRead.toLocaleString('en-US')} · cache write ${counts.cacheWrite.toLocaleString('en-US')}`;
	const line = (label: string, tally: Tally) => `${label}: ${formatCost(tally.cost)} over ${tally.requests} request${tally.requests === 1 ? '' : 's'} (tokens: ${tokens(tally.tokens)})`;
	const {prices} = state;
	const used =
		prices === null
			? `prices: unknown (${state.model ?? 'the model'} is not in the catalogue; add its "cost" in models.json)`
			: `prices for ${state.model ?? 'the model'} per million tokens: ${describePrices(prices)}`;
	return [...(state.turn ? [line('last turn', state.turn)] : []), line('this session', state.session), used].join('\n');
}
