// delegate_task on the chat screen (spec/extensions.md §3): the running child is
// shown with its role, turn count and activity; its approval question comes
// to the parent's screen saying whose it is, and the person's answer is the
// child's; Esc cancels the child with the turn.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {startChat, toolResults} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const delegate = (id: string, task: string, role: string) => ({id, name: 'delegate_task', arguments: JSON.stringify({task, role})});
const write = (id: string, path: string) => ({id, name: 'write', arguments: JSON.stringify({files: [{path, content: 'from the child\n'}]})});

test('a child’s approval comes to the screen as child ROLE/ID; the person allows it and the report reaches the parent', async () => {
	const {run, box} = await startChat(mock);
	try {
		const sent = mock.requests.length;
		mock.enqueue({toolCalls: [delegate('d1', 'Write notes.txt.', 'scribe')]}, {toolCalls: [write('w1', 'notes.txt')]}, {text: 'I wrote notes.txt.'}, {text: 'The scribe wrote it.'});
		run.type('have a child write notes\r');
		await run.waitFor(screen => /Allow\? child scribe\/child-[0-9a-f]{12}: Write 1 file: notes\.txt/.test(screen), 'the child’s question, labelled');
		// While it asks, the child is shown running with its role and turn.
		assert.ok(
			run.screen().some(row => /child scribe child-[0-9a-f]{12} · turn 1 · calling write/.test(row)),
			run.screen().join('\n'),
		);
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await run.waitFor(screen => screen.includes('The scribe wrote it.'), 'the parent’s answer');
		assert.equal(readFileSync(join(box.workspace, 'notes.txt'), 'utf8'), 'from the child\n');
		// The parent's model got the child's report as the tool result, and nothing else of the child.
		assert.equal(toolResults(mock.requests[sent + 3]!.body).get('d1'), 'I wrote notes.txt.');
		assert.ok(!JSON.stringify(mock.requests[sent + 3]!.body).includes('"w1"'));
		await run.waitFor(screen => /child scribe \(child-[0-9a-f]{12}\) finished after 2 turns/.test(screen), 'the child’s end');
	} finally {
		await run.close();
	}
});

test('Esc cancels a running child with the turn: the child fails, the parent’s turn is interrupted', async () => {
	const {run} = await startChat(mock);
	try {
		const sent = mock.requests.length;
		// The child's answer starts and then hangs: only a cancel ends it.
		mock.enqueue({toolCalls: [delegate('d2', 'Think for a long time.', 'thinker')]}, {text: 'Thinking about it', hangAfterEvents: 3});
		run.type('have a child think\r');
		await run.waitFor(screen => /child thinker child-[0-9a-f]{12} · turn 1 · writing/.test(screen), 'the child writing');
		run.type('\u001B');
		await run.waitFor(screen => screen.includes('interrupted'), 'the interrupted turn');
		await run.waitFor(screen => /child thinker \(child-[0-9a-f]{12}\) failed after 1 turn: the tool call that started it was\s+cancelled/.test(screen), 'the child’s failure');
		assert.ok(!run.screen().some(row => row.includes('· turn 1 · writing')), 'no child is shown running');
		assert.equal(mock.requests.length, sent + 2, 'the parent sent nothing after the cancel');
	} finally {
		await run.close();
	}
});
