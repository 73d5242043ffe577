import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {startChat, toolResults} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('the chat screen: an allow rule runs a command without a question, a deny rule refuses an edit and shows the rule', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({permissions: {allow: ['shell(touch allowed.txt)'], deny: ['edit(notes.txt)']}}));
	const {run} = await startChat(mock, {box});
	try {
		const notes = join(box.workspace, 'notes.txt');
		writeFileSync(notes, 'hello old world\n');
		const sent = mock.requests.length;
		mock.enqueue(
			{
				toolCalls: [
					{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'touch allowed.txt'})},
					{id: 'e1', name: 'edit', arguments: JSON.stringify({path: 'notes.txt', old_text: 'old', new_text: 'new'})},
				],
			},
			{text: 'One ran, one was refused.'},
		);
		run.type('go\r');
		await run.waitFor(screen => screen.includes('One ran, one was refused.'), 'the second answer');
		assert.ok(!run.screen().some(row => row.includes('Allow?')), 'nothing was asked');
		assert.ok(existsSync(join(box.workspace, 'allowed.txt')));
		assert.equal(readFileSync(notes, 'utf8'), 'hello old world\n');
		assert.ok(run.screen().join('\n').includes('denied by the permission rule "edit(notes.txt)"'), run.screen().join('\n'));
		const results = toolResults(mock.requests[sent + 1]!.body);
		assert.match(results.get('e1') ?? '', /denied by the permission rule "edit\(notes\.txt\)"/);
		assert.doesNotMatch(results.get('s1') ?? '', /not run/);
	} finally {
		await run.close();
	}
});

test('the chat screen: a rule that cannot be used is a notice naming it, the screen starts, and its file allows nothing', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({permissions: {allow: ['shell(touch x.txt)', 'shel(ls)']}}));
	const {run} = await startChat(mock, {box});
	try {
		await run.waitFor(screen => screen.includes('shel(ls)') && screen.includes('unknown tool'), 'the notice');
		mock.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'touch x.txt'})}]}, {text: 'done'});
		run.type('go\r');
		await run.waitFor(screen => screen.includes('Allow? Run: touch x.txt'), 'the question the broken rules no longer answer');
		assert.equal(existsSync(join(box.workspace, 'x.txt')), false);
	} finally {
		await run.close();
	}
});
