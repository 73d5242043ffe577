import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

// Foreground or background colour in any form: 30–37, 39–47, 49, 90–97, 100–107, 38;… and 48;… (SGR parameters, possibly combined).
// eslint-disable-next-line no-control-regex
const COLOUR = /\u001B\[(?:[\d;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:[;m])/;
const GLYPH = '██';

async function converse(args: string[], env: NodeJS.ProcessEnv = {}) {
	const {run} = await startChat(mock, {args, env});
	try {
		const sent = mock.requests.length;
		mock.enqueue({text: 'the answer'});
		run.type('hello\r');
		await run.waitFor(screen => screen.includes('the answer'), 'the answer');
		await run.waitFor(screen => screen.split('\n').some(row => row.endsWith('/help')), 'the idle status line');
		return {screen: run.buffer().join('\n'), output: run.output(), request: JSON.stringify(mock.requests[sent]!.body)};
	} finally {
		await run.close();
	}
}

test('the chat screen opens with the coloured mark; the mark never reaches the model', async () => {
	const {screen, output, request} = await converse([]);
	assert.ok(screen.includes(GLYPH), screen);
	assert.ok(screen.includes('i — a terminal coding agent'), screen);
	assert.match(output, COLOUR);
	assert.ok(!request.includes('█') && !request.includes('▄'), 'no logo glyph in the request');
});

test('--no-logo leaves the mark out of the chat screen', async () => {
	const {screen} = await converse(['--no-logo']);
	assert.ok(!screen.includes(GLYPH) && !screen.includes('▄'), screen);
	assert.ok(screen.includes('› hello'), screen);
});

test('NO_COLOR draws the mark and the chat without any colour', async () => {
	const {screen, output} = await converse([], {NO_COLOR: '1'});
	assert.ok(screen.includes(GLYPH), screen);
	assert.doesNotMatch(output, COLOUR);
});
