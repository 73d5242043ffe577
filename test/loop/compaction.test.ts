// The compaction transaction inside a turn (spec/platform.md §7), driven through the
// agent object with a recording hook chain in place of the compaction
// module: when context_budget says the request does not fit, compact_plan ▸
// before_compact ▸ [summary request] ▸ after_compact ▸ before_compact_commit
// run, the candidate is committed, and the request goes out with the
// compacted history. test/agent/compaction.test.ts checks the transaction's
// refusals one by one.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {recordingHooks, scriptedAgent, withoutSentAt} from '../fixtures/scripted-agent.js';
import type {Message} from '../../source/core/messages.js';

/** Long enough that a summary in their place makes the history smaller. */
const long = (label: string) => `${label}: ${'lorem ipsum '.repeat(40)}`;
/** The budget of this test: at most this many messages fit. */
const FITTING_MESSAGES = 5;

test('context_budget says no: the history is compacted through the compaction hooks and the request sends the committed history', async () => {
	const hooks = recordingHooks({
		context_budget: data => ({...data, fits: (data.history as Message[]).length <= FITTING_MESSAGES}),
		// Summarise the first exchange, keep the second and the new request.
		compact_plan: () => ({cut: 3, state: {plan: 'test'}}),
		before_compact: data => ({...data, prompt: 'Summarise the conversation.'}),
		after_compact: data => ({...data, summary: `${String(data.summary)} (checked)`}),
		before_compact_commit: data => data,
	});
	const run = await scriptedAgent({
		replies: [{text: long('first answer')}, {text: 'second answer'}, {text: 'SUMMARY'}, {text: 'third answer'}],
		hooks,
	});
	try {
		const signal = new AbortController().signal;
		await run.agent.runTurn(long('first question'), signal);
		await run.agent.runTurn('second question', signal);
		assert.equal(hooks.calls.filter(call => call.event !== 'context_budget').length, 0, 'two turns that fit compact nothing');
		hooks.calls.length = 0;
		run.events.length = 0;

		const outcome = await run.agent.runTurn('third question', signal);
		assert.deepEqual(outcome, {reason: 'stop', steps: 1});
		assert.deepEqual(
			hooks.calls.map(call => call.event),
			['context_budget', 'compact_plan', 'before_compact', 'context_budget', 'after_compact', 'before_compact_commit', 'context_budget', 'context_budget'],
		);
		// The plan's state reaches the later hooks; the summary is the summary request's answer.
		const [, plan, prepare, , after, commit] = hooks.calls;
		assert.equal((plan!.data.history as Message[]).length, 6);
		assert.deepEqual(prepare!.data.state, {plan: 'test'});
		assert.deepEqual(after!.data, {summary: 'SUMMARY', state: {plan: 'test'}});
		assert.equal(commit!.data.cut, 3);

		// The summary request: the prompt and a transcript of what is cut, no tools; its text is not shown as the answer.
		const [, , summaryRequest, answered] = run.model.requests;
		assert.deepEqual(summaryRequest!.tools, []);
		assert.equal(summaryRequest!.messages[0]!.content, 'Summarise the conversation.');
		assert.match(String(summaryRequest!.messages[1]!.content), /first question: lorem/);
		assert.ok(!run.events.some(event => event.type === 'text_delta' && event.text === 'SUMMARY'));

		const compaction = run.events.find(event => event.type === 'compaction');
		assert.equal(compaction?.type === 'compaction' && compaction.cut, 3);
		assert.ok(compaction?.type === 'compaction' && compaction.after_bytes < compaction.before_bytes);

		// The request after the commit: system prompt, the summary, the kept tail verbatim.
		const committed = answered!.messages;
		assert.equal(committed.length, FITTING_MESSAGES);
		assert.deepEqual(committed[0], {role: 'system', content: 'You are a scripted test agent.'});
		assert.equal(committed[1]!.role, 'user');
		assert.match(String(committed[1]!.content), /SUMMARY \(checked\)/);
		assert.deepEqual(committed.slice(2), [
			{role: 'user', content: 'second question'},
			{role: 'assistant', content: 'second answer'},
			{role: 'user', content: 'third question'},
		]);
		// Saved as one step that replaces the history; a resume sees the compacted history and the answer.
		const saved = withoutSentAt(await run.saved());
		assert.deepEqual(saved.slice(0, 2), withoutSentAt(run.agent.session.messages.slice(0, 2)));
		assert.deepEqual(saved.slice(2), [...committed.slice(2), {role: 'assistant', content: 'third answer'}]);
		assert.ok(!JSON.stringify(saved).includes('first question'));
	} finally {
		await run.close();
	}
});

test('a compaction whose commit hook fails changes nothing, and the request that did not fit is never sent', async () => {
	const hooks = recordingHooks({
		context_budget: data => ({...data, fits: (data.history as Message[]).length <= FITTING_MESSAGES}),
		compact_plan: () => ({cut: 3}),
		before_compact: () => ({summary: 'short'}),
		after_compact: data => data,
		before_compact_commit: () => {
			throw new Error('snapshot store unavailable');
		},
	});
	const run = await scriptedAgent({replies: [{text: long('first answer')}, {text: 'second answer'}, {text: 'never sent'}], hooks});
	try {
		const signal = new AbortController().signal;
		await run.agent.runTurn(long('first question'), signal);
		await run.agent.runTurn('second question', signal);
		const before = withoutSentAt(structuredClone(run.agent.session.messages));
		run.events.length = 0;
		const outcome = await run.agent.runTurn('third question', signal);
		assert.equal(outcome.reason, 'error');
		assert.equal(run.model.requests.length, 2);
		assert.deepEqual(run.events, [
			{type: 'error', kind: 'hook', message: 'before_compact_commit hook of the test failed: snapshot store unavailable'},
			{type: 'done', reason: 'error', steps: 1},
		]);
		// The third question was saved before the budget was asked; nothing else changed.
		assert.deepEqual(withoutSentAt(await run.saved()), [...before, {role: 'user', content: 'third question'}]);
	} finally {
		await run.close();
	}
});
