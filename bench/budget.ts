// The budget's per-turn cost against the history's size (issue 5, benchmark
// b): histories of 1k to 1M tokens (the byte estimate's tokens), one new
// turn (~1 KB) each time. "incremental" is the budget module's estimator with
// the state it keeps between requests; the baseline measures the whole
// history afresh each turn. The target: the per-turn cost grows with the
// new content, not with the history.
import {planLimits} from '../workers/budget/budget-plan.js';
import {BudgetEstimator} from '../workers/budget/budget-estimate.js';
import {median, timeSync} from './measure.js';

const SIZES = [1000, 10_000, 100_000, 1_000_000];
const TURNS = 15;
const tools = [{name: 'read', description: 'Read files', parameters: {type: 'object', properties: {path: {type: 'string'}}}}];

function turn(index: number): unknown[] {
	const text = `step ${index}: ${'the model reads a file and explains it; '.repeat(12)}`;
	return [
		{role: 'user', content: `question ${index}`},
		{role: 'assistant', content: null, tool_calls: [{id: `c${index}`, type: 'function', function: {name: 'read', arguments: `{"path":"f${index}.ts"}`}}]},
		{role: 'tool', tool_call_id: `c${index}`, content: text},
		{role: 'assistant', content: `done with ${index}`},
	];
}

function historyOf(tokens: number): unknown[] {
	const history: unknown[] = [{role: 'system', content: 'You are i.'}];
	let size = 0;
	for (let index = 0; size < tokens; index++) {
		const next = turn(index);
		size += Buffer.byteLength(JSON.stringify(next));
		history.push(...next);
	}

	return history;
}

export async function benchBudget(): Promise<void> {
	const limits = planLimits({window: 2_000_000}, null);
	console.log('');
	console.log(`| budget per turn, history of | incremental ms (median of ${TURNS}) | full re-measure ms (baseline) | × faster |`);
	console.log('|---|---:|---:|---:|');
	for (const size of SIZES) {
		const base = historyOf(size);
		const estimator = new BudgetEstimator();
		estimator.estimate({history: base, tools, model: 'm', anchor: null, limits, request: true});
		let history = base;
		const incremental: number[] = [];
		const full: number[] = [];
		for (let index = 0; index < TURNS; index++) {
			// As the core sends it: a fresh copy of the history (parsed from a frame), one turn longer.
			history = structuredClone([...history, ...turn(100_000 + index)]);
			const anchor = {model: 'm', input: size, output: 10, request_messages: history.length - 3};
			incremental.push(timeSync(() => estimator.estimate({history, tools, model: 'm', anchor, limits, request: true})));
			full.push(timeSync(() => new BudgetEstimator().estimate({history, tools, model: 'm', anchor: null, limits, request: true})));
		}

		const label = size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`;
		console.log(`| ${label} tokens (${history.length} messages) | ${median(incremental).toFixed(3)} | ${median(full).toFixed(3)} | ${(median(full) / median(incremental)).toFixed(0)}× |`);
	}

	console.log('');
	console.log(
		'incremental: new messages are serialised and hashed; the unchanged prefix is only compared in place, value by value (here each history is parsed apart; prefix-reuse frames hand the worker the same objects, which compare at once), which is what still grows with the history',
	);
}
