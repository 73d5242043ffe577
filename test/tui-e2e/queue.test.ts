// The message queue in a real pseudo-terminal (issue 45, point 4): Enter
// while a turn runs queues the message, shown above the editor; one typed
// during a tool batch reaches the model right after the batch's results, in
// the same turn; one typed while the model streams a plain answer starts the
// next turn after it; /queue lists what waits.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import type {TerminalRun} from '../helpers/pty.js';
import {startChat, textOf} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const WORKING = 'working — Esc to stop';

/** The request's messages after the system prompt, as `role: text`. */
const history = (body: any): string[] => body.messages.slice(1).map((message: any) => `${message.role}: ${textOf(message.content)}`);

async function turnEnded(run: TerminalRun, answer: string): Promise<void> {
	await run.waitFor(screen => screen.includes(answer) && !screen.includes(WORKING), `the turn that answers ${answer} ended`);
}

test('a message typed during the tool batch is queued, listed by /queue, and sent right after the tool results in the same turn', async () => {
	const {run, box} = await startChat(mock, {args: ['--yolo']});
	try {
		const sent = mock.requests.length;
		// The command waits for a file the test writes once the message is queued: the batch is running all the while.
		mock.enqueue({toolCalls: [{id: 'w1', name: 'shell', arguments: JSON.stringify({command: 'while [ ! -f release ]; do sleep 0.05; done; echo released'})}]}, {text: 'Looked at both.'});
		run.type('run the slow check\r');
		await run.waitUntil(() => mock.requests.length > sent, 'the first request');
		await run.waitFor(screen => screen.includes(WORKING) && screen.includes('while ['), 'the shell call running');

		run.type('also read the README\r');
		await run.waitFor(screen => screen.includes('queued: also read the README'), 'the queued line');
		run.type('/queue\r');
		await run.waitFor(screen => screen.includes('1. also read the README'), 'the /queue list');
		assert.ok(run.screen().some(row => row.includes('1 queued message, sent in this order')));

		writeFileSync(join(box.workspace, 'release'), '');
		await turnEnded(run, 'Looked at both.');
		assert.equal(mock.requests.length, sent + 2, 'one turn, two requests: the queued message started none of its own');
		assert.deepEqual(history(mock.requests[sent + 1]!.body), ['user: run the slow check', 'assistant: ', 'tool: released\nexit code 0', 'user: also read the README']);
		const screen = run.screen();
		assert.ok(!screen.some(row => row.startsWith('queued')), 'nothing waits any more');
		// The transcript shows it where it reached the model: after the tool call, before the answer.
		const lines = run.lines();
		const shownAt = lines.findIndex(line => line.startsWith('› also read the README'));
		assert.ok(shownAt > lines.findIndex(line => line.includes('while [')), lines.join('\n'));
		assert.ok(shownAt < lines.findIndex(line => line.includes('Looked at both.')), lines.join('\n'));
	} finally {
		await run.close();
	}
});

test('a message typed while the model streams a plain answer starts the next turn after it', async () => {
	const {run} = await startChat(mock);
	try {
		const sent = mock.requests.length;
		const long = 'Part one of the answer. Part two of the answer. Part three of the answer. Part four of the answer.';
		mock.enqueue({text: long, chunkDelayMs: 150}, {text: 'The second answer.'});
		run.type('tell me something\r');
		await run.waitFor(screen => screen.includes('Part one'), 'the answer streaming');
		run.type('and then this\r');
		await run.waitFor(screen => screen.includes('queued: and then this'), 'the queued line');
		await turnEnded(run, 'The second answer.');
		assert.equal(mock.requests.length, sent + 2);
		assert.deepEqual(history(mock.requests[sent + 1]!.body), ['user: tell me something', `assistant: ${long}`, 'user: and then this']);
		const lines = run.lines();
		assert.ok(lines.findIndex(line => line.startsWith('› and then this')) > lines.findIndex(line => line.includes('Part four')), lines.join('\n'));
	} finally {
		await run.close();
	}
});

test('Esc on the empty editor drops the last queued message first; Ctrl-C stops the turn and keeps the queue, which Enter then sends', async () => {
	const {run} = await startChat(mock);
	try {
		const sent = mock.requests.length;
		mock.enqueue({text: 'Streaming part one. Streaming part two. Streaming part three.', hangAfterEvents: 3}, {text: 'Answered the kept one.'});
		run.type('a long story\r');
		await run.waitFor(screen => screen.includes('Streaming part one.'), 'the answer streaming');
		run.type('keep this\r');
		run.type('drop this\r');
		await run.waitFor(screen => screen.includes('queued 2/2: drop this'), 'two queued lines');
		run.type('\u001B');
		await run.waitFor(screen => screen.includes('dropped from the queue: drop this (1 queued message left)'), 'the drop notice');
		assert.ok(
			run.screen().some(row => row.includes(WORKING)),
			'Esc did not stop the turn',
		);

		run.type('\u0003');
		await run.waitFor(screen => screen.includes('1 queued message kept') && !screen.includes(WORKING), 'the stop, the queue kept');
		assert.ok(run.screen().some(row => row.startsWith('queued: keep this')));
		assert.equal(mock.requests.length, sent + 1);

		run.type('\r');
		await turnEnded(run, 'Answered the kept one.');
		assert.deepEqual(history(mock.requests[sent + 1]!.body), ['user: a long story', 'user: keep this']);
	} finally {
		await run.close();
	}
});
