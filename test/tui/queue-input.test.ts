// What Enter does with each kind of text while a turn runs (issue 45, point
// 4): a message or prompt template is queued and kept in the prompt
// history, /queue and the commands that only read run, any other command or
// `!` command is refused with the text left in the editor; /queue lists and
// clears the queue.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {Agent} from '../../source/core/session/agent.js';
import {submitText, type InputParts} from '../../source/tui/chat-input.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import type {CommandContext} from '../../source/tui/commands/command-context.js';
import {CommandRegistry} from '../../source/tui/commands/command-registry.js';
import {MessageQueue, type QueuedMessage} from '../../source/tui/message-queue.js';

function input(busy: boolean) {
	const store = new ChatStore({model: 'm', workspace: '/w', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	store.started({workspace: '/w'});
	store.setBusy(busy);
	const queue = new MessageQueue();
	const calls: string[] = [];
	const recorded: string[] = [];
	const registry = new CommandRegistry();
	const context = {agent: {promptTemplateFolders: null} as unknown as Agent, store, queue, commands: registry} as unknown as CommandContext;
	const parts: InputParts = {
		registry,
		turns: {
			mayStart: () => {
				if (busy) store.notice('info', 'a turn is running: wait for it, or press Esc to stop it');
				return !busy;
			},
			start: text => void calls.push(`start ${text}`),
			runBang: command => void calls.push(`bang ${command}`),
			enqueue: (message: QueuedMessage) => queue.add(message),
			sendQueued: () => void calls.push('send queued'),
		},
		queue,
		context,
		history: {record: text => void recorded.push(text)},
	};
	const notices = () => store.getSnapshot().finished.flatMap(item => (item.kind === 'notice' ? [item.text] : []));
	const settle = async () => new Promise(resolve => setImmediate(resolve));
	return {parts, queue, calls, recorded, notices, settle};
}

test('while a turn runs a message is queued and kept in the history; `\\!` is sent as a message', () => {
	const {parts, queue, calls, recorded} = input(true);
	assert.equal(submitText('also check the tests', parts), true);
	assert.equal(submitText('\\!not a command', parts), true);
	assert.deepEqual(queue.getSnapshot(), [
		{typed: 'also check the tests', text: 'also check the tests'},
		{typed: '\\!not a command', text: '!not a command'},
	]);
	assert.deepEqual(recorded, ['also check the tests', '\\!not a command']);
	assert.deepEqual(calls, []);
});

test('while a turn runs a command that changes things and a `!` command are refused, the text kept; /queue and /help run', async () => {
	const {parts, queue, calls, recorded, notices, settle} = input(true);
	assert.equal(submitText('/model other', parts), false);
	assert.equal(notices().at(-1), "a turn is running: wait for it, or press Esc to stop it (/model can't run during a turn; messages are queued)");
	assert.equal(submitText('!ls', parts), false);
	assert.deepEqual(calls, []);
	assert.deepEqual(recorded, []);

	queue.add({typed: 'first\nsecond line', text: 'first\nsecond line'});
	queue.add({typed: 'then this', text: 'then this'});
	assert.equal(submitText('/queue', parts), true);
	await settle();
	assert.equal(notices().at(-1), '2 queued messages, sent in this order after the tool batch running now, or as the next turn:\n1. first …\n2. then this');
	assert.equal(submitText('/help', parts), true);
	await settle();
	assert.match(notices().at(-1)!, /Enter while a turn runs queues the message/);
	assert.equal(submitText('/queue clear', parts), true);
	await settle();
	assert.equal(notices().at(-1), 'dropped 2 queued messages');
	assert.equal(queue.size, 0);
	assert.equal(submitText('/queue', parts), true);
	await settle();
	assert.equal(notices().at(-1), 'nothing is queued: Enter while a turn runs queues a message');
	assert.equal(submitText('/queue all', parts), true);
	await settle();
	assert.equal(notices().at(-1), 'usage: /queue lists the queued messages; /queue clear drops them');
});

test('idle, a message starts a turn at once; while a queue waits (after an interrupt) it goes behind it, and Enter on an empty editor sends it', () => {
	const {parts, queue, calls} = input(false);
	assert.equal(submitText('hello', parts), true);
	assert.deepEqual(calls, ['start hello']);
	queue.add({typed: 'kept', text: 'kept'});
	assert.equal(submitText('after it', parts), true);
	assert.deepEqual(
		queue.getSnapshot().map(message => message.text),
		['kept', 'after it'],
	);
	assert.equal(submitText('  ', parts), false);
	assert.deepEqual(calls, ['start hello', 'send queued']);
});
