// How a turn ends other than by the model stopping, driven through the agent
// object (test/fixtures/scripted-agent.ts): the step cap, a denied call, a
// failing hook, and an interrupt while the model streams or a tool runs.
// Each says what the heads were told, what the model was sent and what
// the session file keeps.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {fakeTool, recordingHooks, scriptedAgent, untilAborted} from '../fixtures/scripted-agent.js';
import type {CoreEvent} from '../../source/core/events.js';
import {CANCELLED_OUTPUT} from '../../source/core/lifecycle/call-outputs.js';

const signal = () => new AbortController().signal;
const types = (events: CoreEvent[]) => events.map(event => event.type);
const call = (id: string, name = 'look') => ({toolCalls: [{id, name, arguments: {}}]});

test('max_steps: exactly that many requests, then an error naming the cap and done max_steps; every step is saved', async () => {
	const tool = fakeTool('look', () => ({output: 'more to see'}));
	// A fourth reply is queued: the cap, not the script, ends the turn.
	const run = await scriptedAgent({replies: [call('c1'), call('c2'), call('c3'), {text: 'never sent'}], tools: [tool], maxSteps: 3});
	try {
		const outcome = await run.agent.runTurn('keep looking', signal());
		assert.equal(outcome.reason, 'max_steps');
		assert.equal(outcome.steps, 3);
		assert.equal(run.model.requests.length, 3);
		assert.equal(run.model.left, 1);
		assert.equal(tool.ran.length, 3);
		const error = run.events.find(event => event.type === 'error');
		assert.deepEqual(error, {
			type: 'error',
			kind: 'turn',
			message: 'stopped after 3 model requests (max_steps); the session is saved, send another message to continue or raise max_steps',
		});
		assert.deepEqual(run.events.slice(-2), [error, {type: 'done', reason: 'max_steps', steps: 3}]);
		const saved = await run.saved();
		assert.deepEqual(
			saved.map(message => message.role),
			['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool'],
		);
	} finally {
		await run.close();
	}
});

test("a denied call never runs; the model is sent the denial as the call's error result and answers it", async () => {
	const tool = fakeTool('edit', () => ({output: 'edited'}), {ask: {title: 'Edit a.txt', detail: '-a\n+b'}});
	const run = await scriptedAgent({
		replies: [call('c1', 'edit'), {text: 'I was not allowed to edit.'}],
		tools: [tool],
		askPerson: async () => ({decision: 'deny', by: 'user', reason: 'not now'}),
	});
	try {
		const outcome = await run.agent.runTurn('edit a.txt', signal());
		assert.deepEqual(outcome, {reason: 'stop', steps: 2});
		assert.deepEqual(tool.ran, []);
		assert.deepEqual(
			run.events.filter(event => ['approval', 'tool_started', 'tool_result'].includes(event.type)),
			[
				{type: 'approval', id: 'c1', name: 'edit', title: 'Edit a.txt', owner: 'native', decision: 'deny', by: 'user', reason: 'not now'},
				{type: 'tool_result', id: 'c1', name: 'edit', output: 'The call was not run: approval was denied. Reason: not now', is_error: true, images: 0},
			],
		);
		// Marked as an error: the adapters tell the providers that have a flag for it (Anthropic's is_error).
		assert.deepEqual(run.model.requests[1]!.messages.at(-1), {role: 'tool', tool_call_id: 'c1', content: 'The call was not run: approval was denied. Reason: not now', _is_error: true});
	} finally {
		await run.close();
	}
});

test('a failing before_turn hook ends the turn before any request: a hook error, done error, nothing saved', async () => {
	const hooks = recordingHooks({
		before_turn: () => {
			throw new Error('the memory store is locked');
		},
	});
	const run = await scriptedAgent({replies: [{text: 'never sent'}], hooks});
	try {
		const outcome = await run.agent.runTurn('hello', signal());
		assert.equal(outcome.reason, 'error');
		assert.equal(run.model.requests.length, 0);
		assert.deepEqual(run.events, [
			{type: 'error', kind: 'hook', message: 'before_turn hook of the test failed: the memory store is locked'},
			{type: 'done', reason: 'error', steps: 0},
		]);
		assert.deepEqual(await run.saved(), []);
	} finally {
		await run.close();
	}
});

test('a failing before_tool hook ends the turn before the tool runs; the call without its result is not saved', async () => {
	const tool = fakeTool('look', () => ({output: 'seen'}));
	const hooks = recordingHooks({
		before_tool: () => {
			throw new Error('policy worker crashed');
		},
	});
	const run = await scriptedAgent({replies: [call('c1'), {text: 'never sent'}], tools: [tool], hooks});
	try {
		const outcome = await run.agent.runTurn('look', signal());
		assert.equal(outcome.reason, 'error');
		assert.deepEqual(tool.ran, []);
		assert.equal(run.model.requests.length, 1);
		assert.deepEqual(types(run.events), ['tool_call', 'error', 'done']);
		assert.deepEqual(run.events.slice(1), [
			{type: 'error', kind: 'hook', message: 'before_tool hook of the test failed: policy worker crashed'},
			{type: 'done', reason: 'error', steps: 1},
		]);
		assert.deepEqual(
			(await run.saved()).map(message => message.role),
			['system', 'user'],
		);
	} finally {
		await run.close();
	}
});

test('an interrupt while the model streams: done interrupted, no error, the partial answer is not saved, the next turn goes on', async () => {
	const run = await scriptedAgent({replies: [{deltas: ['Hel', 'lo'], hang: true}, {text: 'Again.'}]});
	try {
		const controller = new AbortController();
		const turn = run.agent.runTurn('say hello', controller.signal);
		await run.nextEvent(event => event.type === 'text_delta' && event.text === 'lo');
		controller.abort(new Error('the person pressed Esc'));
		assert.deepEqual(await turn, {reason: 'interrupted', steps: 1});
		assert.deepEqual(run.events, [
			{type: 'text_delta', text: 'Hel'},
			{type: 'text_delta', text: 'lo'},
			{type: 'done', reason: 'interrupted', steps: 1},
		]);
		assert.deepEqual(
			run.agent.session.messages.map(message => message.role),
			['system', 'user'],
		);
		// The session is whole: the next turn is sent it and answered.
		assert.equal((await run.agent.runTurn('try again', signal())).reason, 'stop');
		assert.deepEqual(run.model.requests[1]!.messages.slice(1), [
			{role: 'user', content: 'say hello'},
			{role: 'user', content: 'try again'},
		]);
		assert.deepEqual(
			(await run.saved()).map(message => message.role),
			['system', 'user', 'user', 'assistant'],
		);
	} finally {
		await run.close();
	}
});

test('an interrupt while a tool runs: the tool is cancelled, no further request; a result it still gave is saved with its call', async () => {
	for (const onAbort of ['throw', {output: 'stopped early', isError: true}] as const) {
		let started: (() => void) | undefined;
		const running = new Promise<void>(resolve => (started = resolve));
		const tool = fakeTool('slow', async (_args, context) => {
			started!();
			return untilAborted(context, onAbort);
		});
		const run = await scriptedAgent({replies: [call('c1', 'slow'), {text: 'never sent'}], tools: [tool]});
		try {
			const controller = new AbortController();
			const turn = run.agent.runTurn('run it', controller.signal);
			await running;
			controller.abort(new Error('the person pressed Esc'));
			assert.deepEqual(await turn, {reason: 'interrupted', steps: 1});
			assert.equal(run.model.requests.length, 1, 'no request after the interrupt');
			assert.ok(!run.events.some(event => event.type === 'error'));
			assert.deepEqual(run.events.at(-1), {type: 'done', reason: 'interrupted', steps: 1});
			const saved = await run.saved();
			if (onAbort === 'throw') {
				// The heads hear the call ended as cancelled (cancelled-calls.test.ts); a call without a result would break every later request: its step is not saved.
				assert.deepEqual(
					run.events.filter(event => event.type === 'tool_result').map(event => event.type === 'tool_result' && event.output),
					[CANCELLED_OUTPUT],
				);
				assert.deepEqual(
					saved.map(message => message.role),
					['system', 'user'],
				);
			} else {
				assert.deepEqual(saved.slice(2), [
					{role: 'assistant', content: null, tool_calls: [{id: 'c1', type: 'function', function: {name: 'slow', arguments: '{}'}}]},
					{role: 'tool', tool_call_id: 'c1', content: 'stopped early', _is_error: true},
				]);
			}
		} finally {
			await run.close();
		}
	}
});
