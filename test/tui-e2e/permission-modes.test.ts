import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import type {TerminalRun} from '../helpers/pty.js';
import {lastUserText, startChat, toolResults} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const SHIFT_TAB = '\u001B[Z';
const labels = ['⏵⏵ accept edits', '⏸ plan mode', '⏵⏵ bypass permissions'];

/** The status line is the screen's last non-empty row. */
function statusLine(run: TerminalRun): string {
	return run
		.screen()
		.filter(row => row.trim() !== '')
		.at(-1)!;
}

async function waitForMode(run: TerminalRun, label: string | null): Promise<void> {
	await run.waitUntil(
		() => {
			const status = statusLine(run);
			return label === null ? status.includes('/help') && !labels.some(shown => status.includes(shown)) : status.includes(label);
		},
		`the status line showing ${label ?? 'no mode'}`,
	);
}

test('Shift+Tab cycles default → accept edits → plan → default, the status line showing each; bypass is not reached', async () => {
	const {run} = await startChat(mock);
	try {
		await waitForMode(run, null);
		run.type('draft');
		for (const label of ['⏵⏵ accept edits', '⏸ plan mode', null]) {
			run.type(SHIFT_TAB);
			await waitForMode(run, label);
		}

		// The editor's text is untouched by the key.
		assert.ok(
			run.screen().some(row => row.includes('draft')),
			'the draft stays',
		);
	} finally {
		await run.close();
	}
});

test('started with --permission-mode bypassPermissions, the status line says so and Shift+Tab cycles through bypass too', async () => {
	const {run} = await startChat(mock, {args: ['--permission-mode', 'bypassPermissions']});
	try {
		await waitForMode(run, '⏵⏵ bypass permissions');
		for (const label of [null, '⏵⏵ accept edits', '⏸ plan mode', '⏵⏵ bypass permissions']) {
			run.type(SHIFT_TAB);
			await waitForMode(run, label);
		}
	} finally {
		await run.close();
	}
});

test('in plan mode a write is refused without a question, and the model gets the refusal', async () => {
	const {run, box} = await startChat(mock);
	try {
		run.type(SHIFT_TAB + SHIFT_TAB);
		await waitForMode(run, '⏸ plan mode');
		const sent = mock.requests.length;
		mock.enqueue({toolCalls: [{id: 'w1', name: 'write', arguments: JSON.stringify({files: [{path: 'plan.txt', content: 'x'}]})}]}, {text: 'Here is my plan.'});
		run.type('make plan.txt\r');
		await run.waitFor(screen => screen.includes('Here is my plan.'), 'the answer after the refusal');
		assert.equal(existsSync(join(box.workspace, 'plan.txt')), false);
		assert.ok(!run.screen().some(row => row.includes('Allow?')), 'no question was asked');
		assert.match(toolResults(mock.requests[sent + 1]!.body).get('w1') ?? '', /not run: approval was denied\. Reason: plan mode: only read-only tools run .*write was not run/);
		assert.match(mock.requests[sent]!.body.messages[0].content, /You are in plan mode/);
	} finally {
		await run.close();
	}
});

/** Plan mode, one answer from the model: the plan's question shows under it. */
async function planAnswered(run: TerminalRun): Promise<number> {
	run.type(SHIFT_TAB + SHIFT_TAB);
	await waitForMode(run, '⏸ plan mode');
	mock.enqueue({text: 'Plan: 1. edit a.txt.'});
	const sent = mock.requests.length;
	run.type('plan the change\r');
	await run.waitFor(screen => screen.includes('The plan: accept it and leave plan mode?') && screen.includes('Keep planning'), 'the plan question');
	return sent;
}

test('accepting the plan leaves plan mode and sends "Go ahead with the plan." as the next message, without the planning note', async () => {
	const {run} = await startChat(mock);
	try {
		const sent = await planAnswered(run);
		mock.enqueue({text: 'Doing it.'});
		run.type('\r');
		await run.waitFor(screen => screen.includes('Doing it.'), 'the answer to the go-ahead');
		await waitForMode(run, null);
		const request = mock.requests[sent + 1]!.body;
		assert.equal(lastUserText(request), 'Go ahead with the plan.');
		assert.doesNotMatch(request.messages[0].content, /You are in plan mode/);
	} finally {
		await run.close();
	}
});

test('Esc at the plan question keeps planning: nothing is sent and the mode stays', async () => {
	const {run} = await startChat(mock);
	try {
		const sent = await planAnswered(run);
		run.type('\u001B');
		await run.waitUntil(() => !run.screen().some(row => row.includes('The plan: accept it')), 'the question gone');
		await waitForMode(run, '⏸ plan mode');
		assert.equal(mock.requests.length, sent + 1);
		mock.enqueue({text: 'Plan, revised.'});
		run.type('add tests to it\r');
		await run.waitFor(screen => screen.includes('Plan, revised.'), 'the revised plan');
		assert.match(mock.requests[sent + 1]!.body.messages[0].content, /You are in plan mode/);
	} finally {
		await run.close();
	}
});
