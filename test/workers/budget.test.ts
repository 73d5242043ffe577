import {test} from 'node:test';
import assert from 'node:assert/strict';
import {planLimits, toolShare} from '../../workers/budget/budget-plan.js';
import {BudgetEstimator} from '../../workers/budget/budget-estimate.js';
import {HistoryMeter, jsonEqual} from '../../workers/budget/history-meter.js';
import {makeFolders, startOfficialWorker} from './frame-worker.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

test('the trigger is min(window × threshold, window − reserve − safety), with the defaults of spec/platform.md §7', () => {
	// 100k window, max_tokens 8000: min(80000, 100000 − 8000 − 2000) = 80000.
	assert.equal(planLimits({window: 100_000}, 8000).trigger, 80_000);
	// A large reserve wins: min(80000, 100000 − 30000 − 2000) = 68000.
	assert.equal(planLimits({window: 100_000}, 30_000).trigger, 68_000);
	// reserve_output overrides max_tokens; safety and threshold are configurable.
	assert.equal(planLimits({window: 100_000, reserve_output: 10_000, safety: 0.05, threshold: 0.95}, 30_000).trigger, 85_000);
	// No max_tokens and no reserve: only the safety margin under the threshold.
	assert.equal(planLimits({window: 8000}, null).trigger, 6400);
	assert.equal(planLimits({window: 100_000}, null).toolCap, 2000);
	assert.equal(planLimits({window: 100_000, tool_ratio: 0.1}, null).toolCap, 10_000);
	// A reserve bigger than the window leaves no room at all, never a negative one.
	assert.equal(planLimits({window: 1000}, 5000).trigger, 0);
});

test('BPE tokenizer names fail with a clear error; utf8_bytes and no tokenizer are the byte estimate', () => {
	for (const name of ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base']) {
		assert.throws(
			() => planLimits({window: 1000, tokenizer: name}, null),
			new RegExp(`^Error: budget.tokenizer: "${name}" is a BPE tokenizer, and BPE tokenizers were removed; omit "tokenizer" or set it to "utf8_bytes"`),
		);
	}

	assert.throws(
		() => planLimits({window: 1000, tokenizer: 'gpt2'}, null),
		/budget.tokenizer: "gpt2" is not a tokenizer; omit "tokenizer" or set it to "utf8_bytes" \(a conservative estimate from UTF-8 bytes\), the only one/,
	);
	assert.equal(planLimits({window: 1000, tokenizer: 'utf8_bytes'}, null).trigger, 800);
});

test('the tool budget is the cap, split over the pending calls when the room left is smaller', () => {
	const limits = planLimits({window: 100_000}, null); // trigger 80000, cap 2000
	assert.equal(toolShare(limits, 10_000, 1), 2000);
	assert.equal(toolShare(limits, 10_000, 40), 1750); // 70000 / 40
	assert.equal(toolShare(limits, 79_000, 4), 250); // 1000 / 4
	assert.equal(toolShare(limits, 80_000, 2), 0);
	assert.equal(toolShare(limits, 95_000, 2), 0, 'over the limit already: nothing, never negative');
});

const history = [
	{role: 'system', content: 'You are i.'},
	{role: 'user', content: 'read a.txt'},
	{role: 'assistant', content: null, tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{"files":[{"path":"a.txt"}]}'}}]},
	{role: 'tool', tool_call_id: 'c1', content: 'alpha\nbeta'},
];

test('the meter counts the wire bytes: local metadata out, replay items in, images as planned', () => {
	const meter = new HistoryMeter();
	const withMetadata = [
		{role: 'tool', tool_call_id: 'c1', content: 'x', _is_error: true},
		{role: 'assistant', content: 'a', _responses_output: [{type: 'message'}]},
	];
	const measured = meter.measure(withMetadata, null);
	assert.equal(measured.tokens[0], bytes({role: 'tool', tool_call_id: 'c1', content: 'x'}));
	assert.equal(measured.tokens[1], bytes({role: 'assistant', content: 'a', _responses_output: [{type: 'message'}]}));

	const url = `data:image/png;base64,${'A'.repeat(4000)}`;
	const image = [
		{
			role: 'user',
			content: [
				{type: 'text', text: 'see'},
				{type: 'image_url', image_url: {url}},
			],
		},
	];
	const planned = new HistoryMeter().measure(image, 765).tokens[0]!;
	const unplanned = new HistoryMeter().measure(image, null).tokens[0]!;
	assert.equal(unplanned - planned, Buffer.byteLength(url) - 765, 'an unplanned image counts its bytes, a planned one image_tokens');
	// Metadata does not change the fingerprint; content does.
	const a = new HistoryMeter().measure([{role: 'tool', tool_call_id: 'c1', content: 'x'}], null).chain[0];
	const b = new HistoryMeter().measure([{role: 'tool', tool_call_id: 'c1', content: 'x', _is_error: true}], null).chain[0];
	const c = new HistoryMeter().measure([{role: 'tool', tool_call_id: 'c1', content: 'y'}], null).chain[0];
	assert.equal(a, b);
	assert.notEqual(a, c);
});

test('the meter reuses the prefix it measured before; a changed message changes every fingerprint after it', () => {
	const meter = new HistoryMeter();
	const first = meter.measure(history, null);
	const longer = meter.measure([...history, {role: 'assistant', content: 'done'}], null);
	assert.deepEqual(longer.chain.slice(0, 4), first.chain);
	const edited = structuredClone(history);
	edited[1]!.content = 'read b.txt';
	const changed = meter.measure(edited, null);
	assert.equal(changed.chain[0], first.chain[0]);
	for (let index = 1; index < 4; index++) assert.notEqual(changed.chain[index], first.chain[index]);
	assert.ok(jsonEqual({a: [1, {b: 'x'}]}, {a: [1, {b: 'x'}]}));
	assert.ok(!jsonEqual({a: [1, {b: 'x'}]}, {a: [1, {b: 'y'}]}));
	assert.ok(!jsonEqual({a: 1}, {a: 1, b: undefined}));
});

test("the estimate anchors on a valid usage of this history's prefix, and falls back to bytes otherwise", () => {
	const limits = planLimits({window: 100_000}, null);
	const tools = [{name: 'read', description: 'Read files', parameters: {type: 'object'}}];
	const request = history.slice(0, 2);
	const estimator = new BudgetEstimator();
	const first = estimator.estimate({history: request, tools, model: 'm', anchor: null, limits, request: true});
	assert.equal(first.method, 'utf8_bytes');
	assert.equal(first.tokens, bytes(request[0]) + bytes(request[1]) + bytes(tools));

	const anchor = {model: 'm', input: 50, output: 20, request_messages: 2};
	const next = estimator.estimate({history, tools, model: 'm', anchor, limits, request: true});
	// Usage for the request and its answer, then the tool result's bytes and the per-message allowance.
	assert.deepEqual(next, {tokens: 50 + 20 + bytes(history[3]) + 16, method: 'usage', note: null});

	const fallback = (given: typeof anchor, model = 'm', against = history) => estimator.estimate({history: against, tools, model, anchor: given, limits, request: false});
	assert.match(fallback(anchor, 'other').note!, /is for model "m", not "other"/);
	assert.match(fallback({...anchor, input: 0}).note!, /incomplete/);
	assert.match(fallback({...anchor, output: -1}).note!, /incomplete/);
	assert.match(fallback({...anchor, input: 1.5}).note!, /incomplete/);
	assert.match(fallback({...anchor, input: 900_000}).note!, /overflows/);
	assert.match(fallback({...anchor, request_messages: 9}).note!, /does not extend/);
	assert.match(fallback({...anchor, request_messages: 3}).note!, /not its answer/);
	const other = structuredClone(history);
	other[1]!.content = 'read c.txt';
	assert.match(fallback(anchor, 'm', other).note!, /not this history's prefix/);
	for (const given of [
		{...anchor, input: 0},
		{...anchor, request_messages: 3},
	])
		assert.equal(fallback(given).tokens, history.reduce((sum, message) => sum + bytes(message), 0) + bytes(tools));

	// New tool schemas since the anchored request are counted whole.
	const moreTools = [...tools, {name: 'write', description: 'Write a file', parameters: {type: 'object'}}];
	const withTools = estimator.estimate({history, tools: moreTools, model: 'm', anchor, limits, request: false});
	assert.equal(withTools.tokens, 50 + 20 + bytes(history[3]) + 16 + bytes(moreTools));
	// A usage above the byte count is not believed over the bound.
	const big = estimator.estimate({history, tools, model: 'm', anchor: {...anchor, input: 5000}, limits, request: false});
	assert.equal(big.method, 'utf8_bytes');
});

test('the budget worker answers fits, estimate, limit and the tool budget; without a budget it passes the data through', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'budget', [], {env: folders.env});
	const data = {model: 'm', protocol: 'openai', budget: {window: 1000}, max_tokens: 100, history, tools: [], pending: 0, compact: false, last_usage: null};
	const small = await worker.request({id: 1, event: 'context_budget', data});
	// Trigger min(800, 1000 − 100 − 20) = 800; the history is about 300 bytes.
	assert.equal(small.data.fits, true, JSON.stringify(small));
	assert.equal(small.data.limit, 800);
	assert.equal(small.data.window, 1000);
	assert.equal(small.data.method, 'utf8_bytes');
	assert.equal(
		small.data.estimate,
		history.reduce((sum, message) => sum + bytes(message), 0),
	);
	assert.deepEqual(small.data.history, history, 'the full data comes back');

	// At the limit it fits, one token past it it does not (threshold 1 and no safety: the limit is the window).
	const estimate = small.data.estimate as number;
	const edge = (window: number) => ({...data, budget: {window, threshold: 1, safety: 0}, max_tokens: null});
	const atLimit = await worker.request({id: 11, event: 'context_budget', data: edge(estimate)});
	assert.deepEqual([atLimit.data.fits, atLimit.data.limit], [true, estimate]);
	const past = await worker.request({id: 12, event: 'context_budget', data: edge(estimate - 1)});
	assert.deepEqual([past.data.fits, past.data.limit], [false, estimate - 1]);

	const big = [...history, {role: 'user', content: 'x'.repeat(600)}];
	assert.equal((await worker.request({id: 2, event: 'context_budget', data: {...data, history: big}})).data.fits, false);

	const pending = await worker.request({id: 3, event: 'context_budget', data: {...data, pending: 2}});
	assert.deepEqual(pending.data.tool_budget, {per_call_tokens: 20, per_call_chars: 20}, 'the cap (2% of 1000) is below the room split');

	const none = await worker.request({id: 4, event: 'context_budget', data: {...data, budget: null}});
	assert.deepEqual(none.data, {...data, budget: null});

	const bpe = await worker.request({id: 5, event: 'context_budget', data: {...data, budget: {window: 1000, tokenizer: 'cl100k_base'}}});
	assert.match(bpe.error, /BPE tokenizers were removed/);
	const bad = await worker.request({id: 6, event: 'context_budget', data: {...data, pending: -1}});
	assert.match(bad.error, /context_budget data: .*pending/);
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
});
