// The chat screen's message queue (issue 45, point 4) in one process: a real
// agent around the scripted model, the screen's turn controller and queue,
// and the steer delivery the extensions use. A message typed during a tool
// batch reaches the model right after the batch's results, one typed while
// the model answers starts the next turn, Esc keeps the queue, and the
// queue has a bound.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {fakeTool, recordingHooks, scriptedAgent, untilAborted, type ScriptedAgentOptions} from '../fixtures/scripted-agent.js';
import {promptContent, describeAttachments} from '../../source/core/mentions/attach-mentions.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {MAX_QUEUED_MESSAGES, MessageQueue} from '../../source/tui/message-queue.js';
import {TurnController, type TurnParts} from '../../source/tui/turn-controller.js';
import type {Message} from '../../source/core/messages.js';

/** The screen's parts around a scripted agent, the queue wired to its delivery as run-tui.ts wires it. */
async function screen(options: ScriptedAgentOptions) {
	const run = await scriptedAgent(options);
	const store = new ChatStore({model: 'm', workspace: run.agent.workspace, session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	const queue = new MessageQueue();
	const parts: TurnParts = {
		agent: run.agent,
		core: {promptContent, describeAttachments} as unknown as TurnParts['core'],
		store,
		notifier: {turnStarted() {}, turnEnded() {}},
		broker: {cancel() {}},
		queue,
	};
	const turns = new TurnController(parts);
	run.agent.delivery.provideSteering(turns.steering);
	const queueText = (text: string) => turns.enqueue({typed: text, text});
	const shown = () => store.getSnapshot().finished.flatMap(item => (item.kind === 'user' ? [`user: ${item.text}`] : item.kind === 'notice' ? [`${item.level}: ${item.text}`] : []));
	/** Waits until no run is going on, however many the queue started. */
	const idle = async () => {
		for (let waited = 0; waited < 5000; waited += 5) {
			await turns.running;
			if (!store.getSnapshot().busy) return;
			await new Promise(resolve => setTimeout(resolve, 5));
		}

		throw new Error('the screen never became idle');
	};

	return {run, store, queue, turns, queueText, shown, idle};
}

const roles = (messages: readonly Message[]) => messages.map(message => `${message.role}: ${typeof message.content === 'string' ? message.content : ''}`);

test('a message typed during a tool batch is in the next request, right after the batch results, and shown where it reached the model', async () => {
	let typed: ((text: string) => boolean) | undefined;
	const slow = fakeTool('slow', async () => {
		// The person types while the tool runs.
		assert.equal(typed!('also look at the tests'), true);
		return {output: 'slow done'};
	});
	const hooks = recordingHooks({user_input: data => ({content: `${String(data.content)} (checked)`})});
	const {run, queue, queueText, shown, turns, idle} = await screen({replies: [{toolCalls: [{id: 'c1', name: 'slow'}]}, {text: 'looked at both'}], tools: [slow], hooks});
	typed = queueText;
	try {
		turns.start('fix the bug');
		await idle();
		assert.equal(run.model.requests.length, 2, 'the queued message went into this turn: no turn of its own');
		assert.deepEqual(roles(run.model.requests[1]!.messages).slice(1), ['user: fix the bug (checked)', 'assistant: ', 'tool: slow done', 'user: also look at the tests (checked)']);
		assert.equal(queue.size, 0);
		assert.deepEqual(shown(), ['user: fix the bug', 'user: also look at the tests']);
		// A prompt of the person's: a rewind point, with no extension's metadata.
		const saved = (await run.saved()).find(message => message.role === 'user' && message.content === 'also look at the tests (checked)');
		assert.equal(typeof (saved as {_sent_at?: unknown})._sent_at, 'number');
		assert.ok(!('_extension_message' in saved!));
	} finally {
		await run.close();
	}
});

test('a message typed while the model answers without tools starts the next turn once it ended, in order', async () => {
	const {run, queueText, shown, turns, idle} = await screen({replies: [{text: 'answer one'}, {text: 'answer two'}, {text: 'answer three'}]});
	try {
		turns.start('first');
		assert.equal(queueText('second'), true);
		assert.equal(queueText('third'), true);
		await idle();
		assert.equal(run.model.requests.length, 3);
		assert.deepEqual(roles(run.model.requests[2]!.messages).slice(1), ['user: first', 'assistant: answer one', 'user: second', 'assistant: answer two', 'user: third']);
		assert.deepEqual(shown(), ['user: first', 'user: second', 'user: third']);
	} finally {
		await run.close();
	}
});

test('Esc during the batch keeps the queue and says so; Enter on the empty editor sends it then', async () => {
	const stuck = fakeTool('stuck', async (_args, context) => untilAborted(context, {output: 'stopped'}));
	const {run, queue, queueText, shown, turns, idle} = await screen({replies: [{toolCalls: [{id: 'c1', name: 'stuck'}]}, {text: 'the queued one answered'}], tools: [stuck]});
	try {
		turns.start('go');
		await run.nextEvent(event => event.type === 'tool_started');
		queueText('after the tool');
		turns.interrupt();
		await idle();
		assert.equal(run.model.requests.length, 1, 'nothing was sent after the interrupt');
		assert.deepEqual(
			queue.getSnapshot().map(message => message.text),
			['after the tool'],
		);
		assert.ok(shown().includes('info: 1 queued message kept: Enter on the empty editor sends them, ↑ takes the last back to edit, /queue clear drops them'), shown().join('\n'));
		assert.ok(!run.agent.session.messages.some(message => message.content === 'after the tool'));

		turns.sendQueued();
		await idle();
		assert.equal(queue.size, 0);
		assert.deepEqual(roles(run.model.requests[1]!.messages).at(-1), 'user: after the tool');
	} finally {
		await run.close();
	}
});

test(`the queue takes ${MAX_QUEUED_MESSAGES} messages; one more is refused with a notice and stays with the person`, async () => {
	const stuck = fakeTool('stuck', async (_args, context) => untilAborted(context, {output: 'stopped'}));
	const {run, queue, queueText, shown, turns, idle} = await screen({replies: [{toolCalls: [{id: 'c1', name: 'stuck'}]}], tools: [stuck]});
	try {
		turns.start('go');
		await run.nextEvent(event => event.type === 'tool_started');
		for (let index = 1; index <= MAX_QUEUED_MESSAGES; index++) assert.equal(queueText(`message ${index}`), true);
		assert.equal(queueText('one too many'), false);
		assert.equal(queue.size, MAX_QUEUED_MESSAGES);
		assert.equal(shown().at(-1), `warning: not queued: the queue holds ${MAX_QUEUED_MESSAGES} messages (the most it takes); wait for the turn, or /queue clear`);
		turns.interrupt();
		await idle();
	} finally {
		await run.close();
	}
});
