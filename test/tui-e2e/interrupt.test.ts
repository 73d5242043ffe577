import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {lastUserText, sessionSteps, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const ESC = '\u001B';
const CTRL_C = '\u0003';
const INTERRUPTED = 'interrupted; the session keeps its last complete step';

// Six deltas of a long answer; the stream stops after the role chunk and two of them and hangs until the client goes away.
const slow = {text: 'Streaming part one. Streaming part two. Streaming part three. Streaming part four.', hangAfterEvents: 3};

test('Esc stops a streaming answer; the session keeps the question without the partial answer; the next message works', async () => {
	const {run, box} = await startChat(mock, {args: ['--session', 'chat.json']});
	try {
		const session = join(box.workspace, 'chat.json');
		mock.enqueue(slow);
		run.type('tell me a long story\r');
		await run.waitFor(screen => screen.includes('Streaming part one.'), 'the first text');
		assert.ok(
			run.screen().some(row => row.endsWith('Esc to stop')),
			'the status line says how to stop',
		);
		run.type(ESC);
		await run.waitFor(screen => screen.includes(INTERRUPTED), 'the interrupt notice');
		await run.waitFor(screen => screen.split('\n').some(row => row.endsWith('/help')), 'the idle status line');

		const steps = sessionSteps(session);
		const messages = steps.flat();
		assert.deepEqual(
			steps.at(-1)!.map(message => message.role),
			['system', 'user'],
			'the last checkpoint is the question',
		);
		assert.equal(steps.at(-1)!.at(-1)!.content, 'tell me a long story');
		assert.ok(!messages.some(message => message.role === 'assistant'), 'no partial answer was saved');

		// The editor takes the next message, and the model sees the history as saved.
		const sent = mock.requests.length;
		mock.enqueue({text: 'A short one instead.'});
		run.type('then a short one\r');
		await run.waitFor(screen => screen.includes('A short one instead.'), 'the second answer');
		const roles = mock.requests[sent]!.body.messages.map((message: any) => `${message.role}:${typeof message.content === 'string' ? message.content : ''}`);
		assert.deepEqual(roles.slice(1), ['user:tell me a long story', 'user:then a short one']);
		assert.equal(lastUserText(mock.requests[sent]!.body), 'then a short one');
	} finally {
		await run.close();
	}
});

test('Ctrl-C stops a streaming answer; Ctrl-C twice on the empty idle prompt leaves with code 0', async () => {
	const {run} = await startChat(mock);
	try {
		mock.enqueue(slow);
		run.type('another long story\r');
		await run.waitFor(screen => screen.includes('Streaming part one.'), 'the first text');
		run.type(CTRL_C);
		await run.waitFor(screen => screen.includes(INTERRUPTED), 'the interrupt notice');
		await run.waitFor(screen => screen.split('\n').some(row => row.endsWith('/help')), 'the idle status line');

		run.type(CTRL_C);
		await run.waitFor(screen => screen.includes('press Ctrl-C again to leave'), 'the confirmation notice');
		run.type(CTRL_C);
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 0);
	} finally {
		await run.close();
	}
});
