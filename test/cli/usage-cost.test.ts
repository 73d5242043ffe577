// The usage event's cost through `i -p --json` against the mock provider:
// a catalogue model whose prices are all known, one partly known, one with
// none, and a config that chooses by protocol whose model the catalogue has
// (its prices) or lacks (unknown). Each kind of token is priced apart; the
// session's total adds up over the turn's requests; unknown is never $0.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandbox(): Sandbox {
	const box = makeSandbox();
	const models = [{id: 'full', cost: {input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75}}, {id: 'partial', cost: {input: 3, output: 15}}, {id: 'none'}];
	writeFileSync(join(box.configDir, 'models.json'), JSON.stringify({providers: {priced: {baseUrl: mock.baseUrl('anthropic'), api: 'anthropic-messages', models}}}));
	return box;
}

type Usage = {cost: {dollars: number; unknown: boolean}; session_cost: {dollars: number; unknown: boolean}; prices: Record<string, number> | null; usage: Record<string, number>};

async function usageOf(box: Sandbox, args: string[]): Promise<Usage[]> {
	const run = await runCli(['-p', 'hi', '--json', '--yolo', '-C', box.workspace, ...args], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	return jsonEvents(run.stdout).filter(event => event.type === 'usage') as unknown as Usage[];
}

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} is not ${expected}`);

test('usage events carry the request’s cost, the session’s total and the prices: all known, partly known, unknown', async () => {
	const box = sandbox();
	// Two requests in one turn: a tool call, then the answer. Input 1M of which 200k cache reads and 100k cache writes.
	mock.enqueue(
		{toolCalls: [{id: 't1', name: 'glob', arguments: JSON.stringify({pattern: '*'})}], usage: {input: 1_000_000, output: 100_000, cacheRead: 200_000, cacheWrite: 100_000}},
		{text: 'done', usage: {input: 2_000_000, output: 0, cacheRead: 0, cacheWrite: 0}},
	);
	const full = await usageOf(box, ['--model', 'priced/full']);
	assert.equal(full.length, 2);
	// Each kind apart, from the event's own usage (Anthropic counts the cached tokens beside input_tokens: usage.input is all of them).
	const u = full[0]!.usage;
	assert.deepEqual([u.cacheRead, u.cacheWrite, u.output], [200_000, 100_000, 100_000]);
	close(full[0]!.cost.dollars, ((u.input! - 300_000) * 3 + 100_000 * 15 + 200_000 * 0.3 + 100_000 * 3.75) / 1e6);
	assert.equal(full[0]!.cost.unknown, false);
	close(full[1]!.cost.dollars, 6);
	close(full[1]!.session_cost.dollars, full[0]!.cost.dollars + 6);
	assert.equal(full[1]!.session_cost.unknown, false);
	assert.deepEqual(full[0]!.prices, {input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75});

	// No cache price: the cached tokens make it unknown, the rest still counted; a request without cached tokens is known.
	mock.enqueue({text: 'a', usage: {input: 500_000, output: 0, cacheRead: 500_000, cacheWrite: 0}});
	const [partial] = await usageOf(box, ['--model', 'priced/partial']);
	const uncached = partial!.usage.input! - 500_000;
	assert.deepEqual(partial!.cost, {dollars: (uncached * 3) / 1e6, unknown: true});
	assert.ok(uncached > 0);
	assert.deepEqual(partial!.session_cost, partial!.cost);
	assert.deepEqual(partial!.prices, {input: 3, output: 15});
	mock.enqueue({text: 'b', usage: {input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0}});
	const [partialUncached] = await usageOf(box, ['--model', 'priced/partial']);
	assert.deepEqual(partialUncached!.cost, {dollars: 3, unknown: false});

	// No prices at all: unknown, never $0 known.
	mock.enqueue({text: 'c', usage: {input: 10, output: 5}});
	const [none] = await usageOf(box, ['--model', 'priced/none']);
	assert.deepEqual(none!.cost, {dollars: 0, unknown: true});
	assert.deepEqual(none!.prices, {});
});

test('a config that chooses by protocol: the catalogue’s prices for its model when it has it, else null and unknown', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'gpt-4.1', max_retries: 0});
	mock.enqueue({text: 'x', usage: {input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000}});
	const [known] = await usageOf(box, []);
	// All input read from the cache: 0 uncached, $8 output, $0.5 cache read (builtin-providers.ts).
	assert.deepEqual(known!.prices, {input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0});
	assert.deepEqual(known!.cost, {dollars: 8.5, unknown: false});
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'not-in-the-catalogue', max_retries: 0});
	mock.enqueue({text: 'y', usage: {input: 100, output: 10}});
	const [unknown] = await usageOf(box, []);
	assert.equal(unknown!.prices, null);
	assert.deepEqual(unknown!.cost, {dollars: 0, unknown: true});
});

test('--json ends each turn with a result: the last step’s text, the reason, the turn’s usage and cost and the session’s', async () => {
	const box = sandbox();
	mock.enqueue(
		{text: 'Let me look first.', toolCalls: [{id: 't1', name: 'glob', arguments: JSON.stringify({pattern: '*'})}], usage: {input: 1_000_000, output: 100_000, cacheRead: 0, cacheWrite: 0}},
		{text: 'The answer, 你好.', usage: {input: 2_000_000, output: 0, cacheRead: 0, cacheWrite: 0}},
	);
	const run = await runCli(['-p', 'hi', '--json', '--yolo', '-C', box.workspace, '--model', 'priced/full'], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const result = events.at(-1)!;
	assert.equal(events.at(-2)!.type, 'done');
	assert.deepEqual(
		{...result, cost: undefined, session_cost: undefined},
		{
			type: 'result',
			reason: 'stop',
			steps: 2,
			text: 'The answer, 你好.',
			usage: {input: 3_000_000, output: 100_000, cacheRead: 0, cacheWrite: 0, requests: 2},
			cost: undefined,
			session_cost: undefined,
			session: events[0]!.id,
		},
	);
	close(result.cost.dollars, (1_000_000 * 3 + 100_000 * 15 + 2_000_000 * 3) / 1e6);
	assert.equal(result.cost.unknown, false);
	assert.deepEqual(result.session_cost, result.cost);

	// A failed turn has its result too: the reason, no text, no usage, a zero cost, no session total yet.
	mock.enqueue({status: 400, errorMessage: 'bad request'});
	const failed = await runCli(['-p', 'hi', '--json', '-C', box.workspace, '--model', 'priced/full'], {env: box.env});
	assert.equal(failed.code, 1);
	const last = jsonEvents(failed.stdout).at(-1)!;
	assert.deepEqual([last.type, last.reason, last.text, last.usage.requests, last.cost, last.session_cost], ['result', 'error', '', 0, {dollars: 0, unknown: false}, null]);
});
