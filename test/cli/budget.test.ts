import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {binPath, jsonEvents, makeSandbox, runCli} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** The official budget module alone (the `budget` profile): it measures; nothing compacts. */
function budgetOnly(window: number) {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'budget', tools: []}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, budget: {window}, plugins: ['builtin.json']});
	return box;
}

test('the budget module: a request that fits is sent with its figures reported; one that does not is refused, never sent, with the figures', async () => {
	const box = budgetOnly(20_000);
	mock.enqueue({text: 'fine'});
	const ok = await runCli(['-p', 'a short question', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(ok.code, 0, ok.stderr);
	const budget = jsonEvents(ok.stdout).find(event => event.type === 'budget')!;
	assert.equal(budget.limit, 16_000);
	assert.equal(budget.window, 20_000);
	assert.ok(budget.estimate > 6000 && budget.estimate < 16_000, JSON.stringify(budget));
	assert.equal(budget.anchored, false, 'the first request has no usage to anchor on: its estimate is bytes');

	const sent = mock.requests.length;
	const refused = await runCli(['-p', `a long question ${'z'.repeat(20_000)}`, '-C', box.workspace], {env: box.env});
	assert.equal(refused.code, 1);
	assert.match(refused.stderr, /does not fit the model's window \(about \d+ tokens against a limit of 16000\); start a new session or enable compaction/);
	assert.equal(mock.requests.length, sent, 'nothing was sent');
});

test("tool results get the budget's share: 2% of the window each, cut with a visible marker", async () => {
	const box = budgetOnly(20_000);
	writeFileSync(join(box.workspace, 'big.txt'), 'line of text\n'.repeat(2000));
	mock.enqueue({toolCalls: [{id: 'c1', name: 'read', arguments: JSON.stringify({files: [{path: 'big.txt'}]})}]}, {text: 'read it'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'read big.txt', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.ok(result.content.length <= 400, `${result.content.length} characters`);
	assert.match(result.content, /characters truncated/);
});

test('the compact profile: a failed summary call fails the turn once with a clear error, sends nothing else, and leaves the session byte-identical', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'compact', tools: []}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, budget: {window: 20_000}, plugins: ['builtin.json']});
	const session = join(box.root, 's.json');
	// Three turns with long answers fill the window; the fourth question does not fit.
	for (let turn = 1; turn <= 3; turn++) {
		mock.enqueue({text: `answer ${turn} ${'w'.repeat(3000)}`});
		const run = await runCli(['-p', `question ${turn}`, '--session', session, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
	}

	const saved = readFileSync(session);
	const sent = mock.requests.length;
	mock.enqueue({status: 500, errorMessage: 'summariser down'});
	const failed = await runCli(['-p', `question 4 ${'q'.repeat(3000)}`, '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(failed.code, 1);
	assert.match(failed.stderr, /compaction failed, nothing was changed: the summary request failed: .*summariser down/);
	assert.equal(mock.requests.length, sent + 1, 'one summary request, no retry loop, and the turn itself was never sent');
	assert.match(mock.requests[sent]!.body.messages[0].content, /compact the earlier part of a coding session/);
	// The question was saved as the turn's first checkpoint; everything before it is untouched.
	const after = readFileSync(session);
	assert.ok(after.subarray(0, saved.length).equals(saved), 'the history before the question is byte-identical');
	assert.doesNotMatch(after.subarray(saved.length).toString('utf8'), /replaces_history/);
});

test('a prompts hook registered for before_compact gives the summary request its prompt file; the summary is committed', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'compact', tools: []}));
	writeFileSync(join(box.configDir, 'prompts-compact.json'), JSON.stringify({hooks: [{events: ['before_compact'], exec: [process.execPath, binPath, '--runtime', 'worker', 'prompts']}]}));
	writeFileSync(join(box.configDir, 'prompts.json'), JSON.stringify({compact: 'compact.md'}));
	writeFileSync(join(box.configDir, 'compact.md'), 'Summarise the session in {{workspace}} as three bullet points.');
	// Sized so three long answers need compacting and what compaction keeps (the recent turns, the question, the native tools' schemas) fits after it: 21k to 25k tokens do.
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, budget: {window: 23_000}, plugins: ['builtin.json', 'prompts-compact.json']});
	const session = join(box.root, 's.json');
	for (let turn = 1; turn <= 3; turn++) {
		mock.enqueue({text: `answer ${turn} ${'w'.repeat(3000)}`});
		assert.equal((await runCli(['-p', `question ${turn}`, '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
	}

	const sent = mock.requests.length;
	mock.enqueue({text: '- asked three questions\n- got three long answers\n- nothing else'}, {text: 'answer 4'});
	const run = await runCli(['-p', `question 4 ${'q'.repeat(3000)}`, '--json', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(mock.requests[sent]!.body.messages[0].content, `Summarise the session in ${box.workspace} as three bullet points.`);
	assert.ok(jsonEvents(run.stdout).some(event => event.type === 'compaction'));
	const turn = mock.requests[sent + 1]!.body.messages;
	// The system prompt is the session's own, never the compact prompt or a summary; the summary follows it.
	assert.equal(turn[0].role, 'system');
	assert.doesNotMatch(turn[0].content, /three bullet points|asked three questions/);
	assert.match(turn[1].content, /asked three questions/);
	assert.match(turn.at(-1).content, /^question 4 q/);
});
