import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout} from 'node:timers/promises';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import type {TerminalRun} from '../helpers/pty.js';
import {startChat, textOf} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const DOWN = '\u001B[B';
const ESC = '\u001B';

/** One prompt whose turn makes one tool call and then answers `answer`. */
async function turn(run: TerminalRun, prompt: string, call: {id: string; name: string; arguments: unknown}, answer: string): Promise<void> {
	mock.enqueue({toolCalls: [{...call, arguments: JSON.stringify(call.arguments)}]}, {text: answer});
	run.type(`${prompt}\r`);
	await run.waitFor(screen => screen.includes(answer) && !screen.includes('working — Esc to stop'), `the answer "${answer}" and the turn's end`);
}

/** The row the editor is on: the one starting with its prompt mark. */
function editorRow(run: TerminalRun): string {
	return run.screen().findLast(row => row.startsWith('› ')) ?? '';
}

test('/rewind restores the files edit and write changed and the conversation, and puts the prompt back in the editor', async () => {
	const {run, box} = await startChat(mock, {args: ['--permission-mode', 'acceptEdits']});
	try {
		writeFileSync(join(box.workspace, 'a.txt'), 'one\n');
		await turn(run, 'change a', {id: 'e1', name: 'edit', arguments: {path: 'a.txt', old_text: 'one', new_text: 'two'}}, 'Edited a.');
		await turn(run, 'add a file', {id: 'w1', name: 'write', arguments: {files: [{path: 'new.txt', content: 'new\n'}]}}, 'Wrote it.');
		assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'two\n');

		run.type('/rewind\r');
		await run.waitFor(screen => screen.includes('Rewind to just before which prompt?') && screen.includes('1. change a') && screen.includes('2. add a file'), 'the list of prompts');
		// Newest first: down to the first prompt.
		run.type(DOWN);
		run.type('\r');
		await run.waitFor(screen => screen.includes('Rewind the conversation and the files'), 'what to rewind');
		assert.ok(run.screen().some(row => row.includes('restore a.txt, new.txt (remove)')));
		run.type('\r');
		await run.waitFor(screen => screen.includes('restored a.txt, new.txt'), 'the files restored');
		await run.waitFor(screen => screen.includes('rewound the conversation to just before "change a"'), 'the conversation rewound');
		assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'one\n');
		assert.equal(existsSync(join(box.workspace, 'new.txt')), false);
		await run.waitUntil(() => editorRow(run).includes('change a'), 'the prompt back in the editor');

		// Sent again, the request holds the system prompt and this prompt only.
		const sent = mock.requests.length;
		mock.enqueue({text: 'A fresh start.'});
		run.type('\r');
		await run.waitFor(screen => screen.includes('A fresh start.') && !screen.includes('working — Esc to stop'), 'the answer after the rewind');
		const messages = mock.requests[sent]!.body.messages as Array<{role: string; content: unknown}>;
		assert.deepEqual(
			messages.map(message => [message.role, message.role === 'system' ? '' : textOf(message.content)]),
			[
				['system', ''],
				['user', 'change a'],
			],
		);
	} finally {
		await run.close();
	}
});

test('Esc twice on an empty editor opens the rewind; a file changed outside is named and left as it is unless overwriting is confirmed', async () => {
	const {run, box} = await startChat(mock, {args: ['--permission-mode', 'acceptEdits']});
	try {
		writeFileSync(join(box.workspace, 'a.txt'), 'one\n');
		await turn(run, 'change a', {id: 'e1', name: 'edit', arguments: {path: 'a.txt', old_text: 'one', new_text: 'two'}}, 'Edited a.');
		writeFileSync(join(box.workspace, 'a.txt'), 'two, and my own line\n');

		// Two presses, as a person makes them: apart, not one read of both bytes.
		run.type(ESC);
		await setTimeout(150);
		run.type(ESC);
		await run.waitFor(screen => screen.includes('Rewind to just before which prompt?'), 'the list of prompts');
		run.type('\r');
		await run.waitFor(screen => screen.includes('Rewind the conversation and the files'), 'what to rewind');
		run.type('\r');
		await run.waitFor(screen => screen.includes('a.txt changed since, not by this session: overwrite it?'), 'the question about the changed file');
		run.type('\r');
		await run.waitFor(screen => screen.includes('left a.txt as it is: it changed since (not by this session)'), 'the file named and left');
		assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'two, and my own line\n');
		await run.waitFor(screen => screen.includes('rewound the conversation to just before "change a"'), 'the conversation rewound');
	} finally {
		await run.close();
	}
});

test('overwriting a file changed outside, when confirmed, restores it', async () => {
	const {run, box} = await startChat(mock, {args: ['--permission-mode', 'acceptEdits']});
	try {
		writeFileSync(join(box.workspace, 'a.txt'), 'one\n');
		await turn(run, 'change a', {id: 'e1', name: 'edit', arguments: {path: 'a.txt', old_text: 'one', new_text: 'two'}}, 'Edited a.');
		writeFileSync(join(box.workspace, 'a.txt'), 'changed outside\n');
		run.type('/rewind\r');
		await run.waitFor(screen => screen.includes('Rewind to just before which prompt?'), 'the list of prompts');
		run.type('\r');
		// Files only: the conversation stays.
		await run.waitFor(screen => screen.includes('Restore the files only'), 'what to rewind');
		run.type(DOWN + DOWN);
		run.type('\r');
		await run.waitFor(screen => screen.includes('overwrite it?'), 'the question about the changed file');
		run.type(DOWN);
		run.type('\r');
		await run.waitFor(screen => screen.includes('restored a.txt'), 'the file restored');
		assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'one\n');
		assert.ok(!run.screen().some(row => row.includes('rewound the conversation')), 'the conversation stays');
	} finally {
		await run.close();
	}
});
