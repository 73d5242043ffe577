// The chat screen's turn controller (source/tui/turn-controller.ts): the one
// place that says whether a run may start, which run Esc stops, and what a
// triggered run and the end wait for.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {Agent} from '../../source/core/session/agent.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {MessageQueue} from '../../source/tui/message-queue.js';
import {TurnController, type TurnParts} from '../../source/tui/turn-controller.js';

interface Deferred<T> {
	promise: Promise<T>;
	resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>(done => {
		resolve = done;
	});
	return {promise, resolve};
}

/** A controller over a real store, an agent whose turns run until `answer` is called or their signal aborts, and recording fakes. */
function controller() {
	const store = new ChatStore({model: 'm', workspace: '/w', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	const log: string[] = [];
	const turns: Array<{input: unknown; signal: AbortSignal; answer(reason: string): void}> = [];
	const agent = {
		workspace: '/w',
		session: {id: 's1'},
		systemPrompt: '',
		extensionEvents: null,
		mcp: {servers: null},
		async runTurn(input: unknown, signal: AbortSignal) {
			log.push(`runTurn ${JSON.stringify(input)}`);
			const done = deferred<{reason: string}>();
			signal.addEventListener('abort', () => done.resolve({reason: 'interrupted'}), {once: true});
			turns.push({input, signal, answer: reason => done.resolve({reason})});
			return done.promise;
		},
	} as unknown as Agent;
	const parts: TurnParts = {
		agent,
		core: {
			promptContent: async (text: string) => ({ok: true, text, content: text, attachments: [], notices: []}),
			describeAttachments: () => null,
		} as unknown as TurnParts['core'],
		store,
		notifier: {turnStarted: () => void log.push('turnStarted'), turnEnded: reason => void log.push(`turnEnded ${reason}`)},
		broker: {cancel: () => void log.push('approval withdrawn')},
		queue: new MessageQueue(),
	};
	const notices = () => store.getSnapshot().finished.flatMap(item => (item.kind === 'notice' ? [`${item.level}: ${item.text}`] : []));
	return {turns: new TurnController(parts), store, log, runs: turns, notices};
}

test('a second message while a turn runs is refused as the screen always said it, and accepted again once the turn ended', async () => {
	const {turns, store, runs, notices} = controller();
	assert.equal(turns.mayStart(), true);
	turns.start('hello');
	assert.equal(store.getSnapshot().busy, true);
	assert.equal(turns.mayStart(), false);
	assert.deepEqual(notices(), ['info: a turn is running: wait for it, or press Esc to stop it']);
	for (let wait = 0; runs.length === 0 && wait < 50; wait++) await new Promise(resolve => setImmediate(resolve));
	runs[0]!.answer('stop');
	await turns.running;
	assert.equal(store.getSnapshot().busy, false);
	assert.equal(turns.mayStart(), true);
	assert.equal(notices().length, 1);
});

test('interrupt withdraws the open approval and stops the running turn; the screen is idle again once it settled', async () => {
	const {turns, store, log, runs} = controller();
	turns.start('a long one');
	for (let wait = 0; runs.length === 0 && wait < 50; wait++) await new Promise(resolve => setImmediate(resolve));
	assert.equal(runs[0]!.signal.aborted, false);
	assert.equal(turns.mayTrigger(), true);
	turns.interrupt();
	assert.equal(runs[0]!.signal.aborted, true);
	// While Esc stops a run, an extension's triggered run may not start.
	assert.equal(turns.mayTrigger(), false);
	await turns.running;
	assert.deepEqual(log, ['turnStarted', 'runTurn "a long one"', 'approval withdrawn', 'turnEnded interrupted']);
	assert.equal(store.getSnapshot().busy, false);
	assert.equal(turns.mayTrigger(), true);
});

test('a triggered run waits for the extension command that is running, then answers the history as it stands', async () => {
	const {turns, store, log, runs} = controller();
	const answer = deferred<string>();
	turns.runExtensionCommand('slow', {extension: 'x', description: 'd', handler: async () => answer.promise}, '');
	assert.equal(store.getSnapshot().busy, true);
	// The command may be the one awaiting the send: there is no run's end to wait for.
	assert.equal(turns.startTriggered(), null);
	await new Promise(resolve => setTimeout(resolve, 20));
	assert.deepEqual(log, [], 'no run before the command ended');
	answer.resolve('done');
	for (let wait = 0; runs.length === 0 && wait < 50; wait++) await new Promise(resolve => setImmediate(resolve));
	assert.deepEqual(log, ['turnStarted', 'runTurn null']);
	assert.equal(store.getSnapshot().busy, true);
	runs[0]!.answer('stop');
	await turns.running;
	assert.deepEqual(log, ['turnStarted', 'runTurn null', 'turnEnded stop']);
	assert.equal(store.getSnapshot().busy, false);
	// Idle, what the extension's sendMessage resolves with: how the run ended.
	const ended = turns.startTriggered();
	for (let wait = 0; runs.length === 1 && wait < 50; wait++) await new Promise(resolve => setImmediate(resolve));
	runs[1]!.answer('max_steps');
	assert.equal((await ended)?.reason, 'max_steps');
});

test('once the person leaves no triggered run starts, and the end waits for the one running', async () => {
	const {turns, log, runs} = controller();
	turns.start('last words');
	// A turn holds the screen: null, and the run never starts.
	const triggered = turns.startTriggered();
	turns.leave();
	assert.equal(turns.mayTrigger(), false);
	for (let wait = 0; runs.length === 0 && wait < 50; wait++) await new Promise(resolve => setImmediate(resolve));
	turns.interrupt();
	await turns.running;
	assert.deepEqual(log, ['turnStarted', 'runTurn "last words"', 'approval withdrawn', 'turnEnded interrupted']);
	assert.equal(triggered, null);
});

test('an empty `!` says how it is used and starts nothing; work waiting for idle runs after the running turn', async () => {
	const {turns, store, log, runs, notices} = controller();
	turns.runBang('', false);
	assert.equal(store.getSnapshot().busy, false);
	assert.deepEqual(notices(), ['warning: usage: !COMMAND runs it in the workspace and adds its output to the context of your next message; !!COMMAND runs it without adding it']);
	turns.start('first');
	turns.whenIdle(async () => {
		log.push('idle work');
		throw new Error('the build failed');
	});
	for (let wait = 0; runs.length === 0 && wait < 50; wait++) await new Promise(resolve => setImmediate(resolve));
	runs[0]!.answer('stop');
	await turns.running;
	assert.deepEqual(log, ['turnStarted', 'runTurn "first"', 'turnEnded stop', 'idle work']);
	assert.equal(notices().at(-1), 'error: the build failed');
});
