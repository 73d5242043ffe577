import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {cursorShown, lastUserText, rowOf, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const LEFT = '\u001B[D';
const BACKSPACE = '\u007F';

test('a Chinese sentence edited in the middle is sent as edited, with the real cursor at the caret', async () => {
	const {run} = await startChat(mock);
	try {
		const prompt = '› ';
		run.type('请帮我修复这个错误');
		await run.waitFor(screen => screen.includes('› 请帮我修复这个错误'), 'the typed sentence');
		const row = rowOf(run, '› 请帮我修复这个错误');
		// Every character is two columns wide; the caret is after the ninth.
		await run.waitUntil(() => run.cursor().x === 2 + 9 * 2 && run.cursor().y === row, 'the cursor after the sentence');

		// Four graphemes left: between 修复 and 这个错误.
		for (let count = 1; count <= 4; count++) {
			run.type(LEFT);
			await run.waitUntil(() => run.cursor().x === 2 + (9 - count) * 2, `the cursor ${count} characters left`);
		}

		run.type(BACKSPACE);
		await run.waitFor(screen => screen.includes(`${prompt}请帮我修这个错误`), 'the sentence without 复');
		await run.waitUntil(() => run.cursor().x === 2 + 4 * 2 && run.cursor().y === row, 'the cursor after 修');
		run.type('改');
		await run.waitFor(screen => screen.includes(`${prompt}请帮我修改这个错误`), 'the sentence with 改');
		await run.waitUntil(() => run.cursor().x === 2 + 5 * 2 && run.cursor().y === row, 'the cursor after 改');
		assert.ok(cursorShown(run.output()), 'the cursor is visible where the IME will show its candidates');

		const sent = mock.requests.length;
		mock.enqueue({text: '好的，我来看看这个错误。'});
		run.type('\r');
		await run.waitFor(screen => screen.includes('好的，我来看看这个错误。'), 'the answer');
		assert.equal(mock.requests.length, sent + 1);
		assert.equal(lastUserText(mock.requests[sent]!.body), '请帮我修改这个错误');
		// The sentence moved to the transcript as the person's line, above the answer.
		const screen = run.screen();
		const userRow = screen.indexOf('› 请帮我修改这个错误');
		assert.ok(userRow !== -1 && userRow < screen.indexOf('好的，我来看看这个错误。'), screen.join('\n'));
	} finally {
		await run.close();
	}
});

test('IME text committed in one burst with its Enter is sent whole', async () => {
	const {run} = await startChat(mock);
	try {
		const sent = mock.requests.length;
		mock.enqueue({text: 'burst received'});
		run.type('你好世界\r');
		await run.waitFor(screen => screen.includes('burst received'), 'the answer');
		assert.equal(mock.requests.length, sent + 1);
		assert.equal(lastUserText(mock.requests[sent]!.body), '你好世界');
		assert.ok(run.screen().includes('› 你好世界'), run.screen().join('\n'));
	} finally {
		await run.close();
	}
});

test('a bracketed paste of 2000 lines is one message with its newlines, not 2000 turns', async () => {
	const {run} = await startChat(mock);
	try {
		const lines = Array.from({length: 2000}, (_, index) => `line ${index + 1}: const 值${index} = ${index * 7}; // 注释`);
		const sent = mock.requests.length;
		mock.enqueue({text: 'paste received'});
		// Terminals send a pasted line break as CR, the same byte as Enter.
		run.type(`\u001B[200~${lines.join('\r')}\u001B[201~`);
		await run.waitFor(screen => screen.includes('› [pasted 2000 lines #1]'), 'the paste as one placeholder in the editor');
		assert.equal(mock.requests.length, sent, 'nothing was sent before Enter');
		run.type('\r');
		await run.waitFor(screen => screen.includes('paste received'), 'the answer');
		assert.equal(mock.requests.length, sent + 1, 'one request for the whole paste');
		assert.equal(lastUserText(mock.requests[sent]!.body), lines.join('\n'));
	} finally {
		await run.close();
	}
});
