import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandbox(): Sandbox {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	return box;
}

const edit = (id: string, from: string, to: string) => ({toolCalls: [{id, name: 'edit', arguments: JSON.stringify({path: 'a.txt', old_text: from, new_text: to})}]});

/** Two one-shots of one session: the first edits a.txt, the second edits it again and writes b.txt. */
async function twoTurns(box: Sandbox): Promise<void> {
	writeFileSync(join(box.workspace, 'a.txt'), 'one\n');
	mock.enqueue(edit('e1', 'one', 'two'), {text: 'first done'});
	const first = await runCli(['-p', 'first prompt', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(first.code, 0, first.stderr);
	mock.enqueue({toolCalls: [...edit('e2', 'two', 'three').toolCalls, {id: 'w1', name: 'write', arguments: JSON.stringify({files: [{path: 'b.txt', content: 'bee\n'}]})}]}, {text: 'second done'});
	const second = await runCli(['-p', '-c', 'second prompt', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(second.code, 0, second.stderr);
	assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'three\n');
}

test('i rewind lists the prompts of the latest session; i rewind N puts the files back and cuts the conversation, and -c goes on from there', async () => {
	const box = sandbox();
	await twoTurns(box);
	const listed = await runCli(['rewind', '-C', box.workspace], {env: box.env});
	assert.equal(listed.code, 0, listed.stderr);
	assert.match(listed.stdout, /\n {2}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}first prompt\n {2}2 {2}[\d :-]+ {2}second prompt\n$/);

	const json = JSON.parse((await runCli(['rewind', '--json', '-C', box.workspace], {env: box.env})).stdout);
	assert.deepEqual(
		json.prompts.map((prompt: {number: number; text: string}) => [prompt.number, prompt.text]),
		[
			[1, 'first prompt'],
			[2, 'second prompt'],
		],
	);

	const rewound = await runCli(['rewind', '2', '-C', box.workspace], {env: box.env});
	assert.equal(rewound.code, 0, rewound.stderr);
	assert.equal(rewound.stdout, 'rewound the conversation to just before prompt 2 ("second prompt")\nrestored a.txt, b.txt\n');
	assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'two\n');
	assert.equal(existsSync(join(box.workspace, 'b.txt')), false);

	mock.enqueue({text: 'again'});
	const sent = mock.requests.length;
	const next = await runCli(['-p', '-c', 'another try', '-C', box.workspace], {env: box.env});
	assert.equal(next.code, 0, next.stderr);
	assert.deepEqual(
		mock.requests[sent]!.body.messages.slice(1).map((message: {content: unknown}) => message.content),
		['first prompt', null, 'Edited a.txt: 1 replacement, +1 −1 lines from line 1', 'first done', 'another try'],
	);
	// The before-images live in the workspace's state folder, never in the project.
	assert.deepEqual(readdirSync(box.workspace).sort(), ['a.txt']);
});

test('a file changed outside stops i rewind with nothing changed, naming it; --keep-files rewinds the conversation only; --overwrite restores it', async () => {
	const box = sandbox();
	await twoTurns(box);
	writeFileSync(join(box.workspace, 'a.txt'), 'mine now\n');
	const stopped = await runCli(['rewind', '1', '-C', box.workspace], {env: box.env});
	assert.equal(stopped.code, 1);
	assert.equal(stopped.stdout, '');
	assert.match(stopped.stderr, /^i: rewind: nothing changed: a\.txt changed since prompt 1's changes, not by this session; --overwrite restores it anyway .*, --keep-files rewinds the conversation only\n$/);
	assert.equal(existsSync(join(box.workspace, 'b.txt')), true);

	const kept = await runCli(['rewind', '2', '--keep-files', '-C', box.workspace], {env: box.env});
	assert.equal(kept.code, 0, kept.stderr);
	assert.match(kept.stdout, /files left as they are \(--keep-files\): a\.txt, b\.txt changed since\n$/);
	assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'mine now\n');
	assert.match((await runCli(['rewind', '-C', box.workspace], {env: box.env})).stdout, /first prompt\n$/);

	// Back to before prompt 1: the changes of the prompt rewound away count too, for they came after it.
	const overwritten = await runCli(['rewind', '1', '--overwrite', '-C', box.workspace], {env: box.env});
	assert.equal(overwritten.code, 0, overwritten.stderr);
	assert.match(overwritten.stdout, /restored a\.txt, b\.txt\n$/);
	assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'one\n');
	assert.equal(existsSync(join(box.workspace, 'b.txt')), false);
});

test('i rewind refuses what it cannot do: no session, a prompt that is not there, a word that is no number, two sessions chosen', async () => {
	const box = sandbox();
	const none = await runCli(['rewind', '-C', box.workspace], {env: box.env});
	assert.equal(none.code, 2);
	assert.match(none.stderr, /^i: rewind: there is no saved session in this workspace \(.*\) to rewind\n$/);
	await twoTurns(box);
	const far = await runCli(['rewind', '3', '-C', box.workspace], {env: box.env});
	assert.equal(far.code, 2);
	assert.match(far.stderr, /has prompts 1 to 2; there is no prompt 3 \(i rewind lists them\)/);
	const word = await runCli(['rewind', 'two', '-C', box.workspace], {env: box.env});
	assert.equal(word.code, 2);
	assert.match(word.stderr, /"two" is not a prompt number/);
	const both = await runCli(['rewind', '--session', 'x.json', '--session-name', 'y', '-C', box.workspace], {env: box.env});
	assert.equal(both.code, 2);
	assert.match(both.stderr, /--session and --session-name each choose the session/);
	const missing = await runCli(['rewind', '--session-name', 'nope', '-C', box.workspace], {env: box.env});
	assert.equal(missing.code, 2);
	assert.match(missing.stderr, /there is no session .*nope\.json to rewind/);
	assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'three\n');
});
