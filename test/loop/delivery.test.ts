// The delivery modes of an extension's sendMessage (spec/extensions.md §3, the
// triggerTurn / deliverAs table) in one process, through the agent's
// MessageDelivery with requests checked as the runtime checks them: what
// each request sent the model, and when. test/delivery/send-message.test.ts
// runs the same table through real `i` processes and an extension.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {fakeTool, scriptedAgent} from '../fixtures/scripted-agent.js';
import {checkSendMessage} from '../../source/core/extensions/check-delivery.js';
import type {Agent} from '../../source/core/session/agent.js';
import type {Message} from '../../source/core/messages.js';
import type {SentRequest} from '../fixtures/scripted-model.js';

const send = async (agent: Agent, request: Record<string, unknown>) => agent.delivery.sendMessage('tester', checkSendMessage('tester', request));
const userTexts = (request: SentRequest | undefined) => request!.messages.filter(message => message.role === 'user').map(message => message.content);
const signal = () => new AbortController().signal;

test('during a tool batch: steer and context after the batch, followUp once the model stopped (the run goes on), nextTurn before the next input', async () => {
	let results: unknown[] = [];
	let agent: Agent | undefined;
	// The tool stands in for an extension tool that sends while it runs.
	const deliver = fakeTool('deliver', async () => {
		results = [
			await send(agent!, {text: 'steer'}),
			await send(agent!, {text: 'follow-up', deliverAs: 'followUp'}),
			await send(agent!, {text: 'context', triggerTurn: false}),
			await send(agent!, {text: 'next', deliverAs: 'nextTurn'}),
		];
		return {output: 'delivered'};
	});
	const run = await scriptedAgent({
		replies: [{toolCalls: [{id: 'd1', name: 'deliver'}]}, {text: 'answer'}, {text: 'after the follow-up'}, {text: 'second answer'}],
		tools: [deliver],
	});
	agent = run.agent;
	try {
		assert.deepEqual(await run.agent.runTurn('go', signal()), {reason: 'stop', steps: 3});
		assert.deepEqual(
			results.map(result => ({...(result as object), entryId: typeof (result as {entryId: unknown}).entryId})),
			[
				{status: 'queued', entryId: 'string', deliverAs: 'steer'},
				{status: 'queued', entryId: 'string', deliverAs: 'followUp'},
				{status: 'queued', entryId: 'string', queue: 'context'},
				{status: 'queued', entryId: 'string', deliverAs: 'nextTurn'},
			],
		);
		const [, afterBatch, afterStop] = run.model.requests;
		// Never into the batch: right after the tool's result.
		assert.deepEqual(
			afterBatch!.messages.slice(-3).map(message => [message.role, message.content]),
			[
				['tool', 'delivered'],
				['user', 'steer'],
				['user', 'context'],
			],
		);
		assert.deepEqual(
			afterStop!.messages.slice(-2).map(message => [message.role, message.content]),
			[
				['assistant', 'answer'],
				['user', 'follow-up'],
			],
		);
		assert.ok(!userTexts(afterStop).includes('next'), 'nextTurn waits for an explicit run');
		assert.deepEqual(
			run.events.filter(event => event.type === 'custom_message').map(event => event.type === 'custom_message' && event.content),
			['steer', 'context', 'follow-up'],
		);

		await run.agent.runTurn('second', signal());
		assert.deepEqual(userTexts(run.model.requests[3]).slice(-2), ['next', 'second']);
		// The extension metadata stays local: the model sees plain user messages.
		for (const request of run.model.requests) assert.doesNotMatch(JSON.stringify(request.messages), /_extension_message/);
		const saved = await run.saved();
		assert.deepEqual(
			saved.filter((message): message is Message & {role: 'user'} => message.role === 'user').map(message => message.content),
			['go', 'steer', 'context', 'follow-up', 'next', 'second'],
		);
	} finally {
		await run.close();
	}
});

test('idle: without triggerTurn a message joins the history with no reply; triggerTurn true starts a run through the head; without a head that can start one it is refused', async () => {
	const run = await scriptedAgent({replies: [{text: 'answered the extension'}]});
	try {
		assert.deepEqual({...(await send(run.agent, {text: 'quiet note'})), entryId: 'id'}, {status: 'appended', entryId: 'id'});
		assert.equal(run.model.requests.length, 0);
		assert.deepEqual(
			run.agent.session.messages.map(message => [message.role, message.content]),
			[
				['system', 'You are a scripted test agent.'],
				['user', 'quiet note'],
			],
		);

		await assert.rejects(send(run.agent, {text: 'wake up', triggerTurn: true}), {code: 'unavailable'});
		run.agent.delivery.provideStarter({canStart: () => true, start: async () => run.agent.runTurn(null, signal())});
		// The send resolves with the run's status once the run it started ended.
		const sent = await send(run.agent, {text: 'wake up', triggerTurn: true});
		assert.deepEqual({...sent, entryId: 'id'}, {status: 'stop', entryId: 'id'});
		assert.deepEqual(userTexts(run.model.requests[0]), ['quiet note', 'wake up']);
		assert.deepEqual(run.agent.session.messages.at(-1), {role: 'assistant', content: 'answered the extension'});
	} finally {
		await run.close();
	}
});
