import assert from 'node:assert/strict';
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {createEditTool} from '../../source/core/tools/edit.js';
import {createWriteTool} from '../../source/core/tools/write.js';
import {FileHistory} from '../../source/core/rewind/file-history.js';
import {planRewind} from '../../source/core/rewind/plan-rewind.js';
import {applyRewind} from '../../source/core/rewind/apply-rewind.js';
import {promptMessage, rewindPoints} from '../../source/core/rewind/rewind-points.js';
import {openSession} from '../../source/core/session/session-store.js';
import type {Message} from '../../source/core/messages.js';
import {run, tempDir, toolContext} from '../tools/helpers.js';

const both = {conversation: true, files: true, overwrite: false};

async function setUp(t: Parameters<typeof tempDir>[0], options: {maxBytes?: number; maxChanges?: number} = {}) {
	const workspace = await tempDir(t, 'i-rewind-ws-');
	const state = await tempDir(t, 'i-rewind-state-');
	const warnings: string[] = [];
	const history = new FileHistory({folder: async () => state, warn: message => warnings.push(message), ...options});
	const session = await openSession({path: join(state, 'session.json'), workspace});
	t.after(async () => session.close());
	const context = {...toolContext(workspace), sessionId: session.id};
	const edit = createEditTool({history});
	const write = createWriteTool({history});
	/** A prompt saved as the turn saves it, then the tool calls of its turn, then its answer. */
	const turn = async (text: string, calls: () => Promise<unknown>) => {
		await session.appendStep([...(session.messages.length === 0 ? [{role: 'system', content: 'sys'} as Message] : []), promptMessage(text, Date.now())]);
		await calls();
		await session.appendStep([{role: 'assistant', content: `done: ${text}`}]);
	};
	return {workspace, state, history, session, context, edit, write, turn, warnings};
}

test('rewinding to a prompt puts back the files edit and write changed since, removes the files they created, and cuts the conversation there', async t => {
	const {workspace, history, session, context, edit, write, turn} = await setUp(t);
	await writeFile(join(workspace, 'a.txt'), 'one\n');
	await turn('first', async () => run(edit, {path: 'a.txt', old_text: 'one', new_text: 'two'}, context));
	await turn('second', async () => {
		await run(edit, {path: 'a.txt', old_text: 'two', new_text: 'three'}, context);
		await run(write, {files: [{path: 'new/b.txt', content: 'bee\n'}]}, context);
	});
	const points = rewindPoints(session.messages);
	assert.deepEqual(
		points.map(point => point.text),
		['first', 'second'],
	);
	const plan = await planRewind(session.messages, points[1]!, session.id, workspace, history);
	assert.deepEqual(
		plan.files.map(file => [file.display, file.action, file.changedOutside, file.lost]),
		[
			['a.txt', 'restore', false, null],
			[join('new', 'b.txt'), 'remove', false, null],
		],
	);
	const outcome = await applyRewind(plan, both, session, history);
	assert.deepEqual(outcome, {conversation: true, restored: ['a.txt', join('new', 'b.txt')], skipped: []});
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), 'two\n');
	await assert.rejects(readFile(join(workspace, 'new', 'b.txt')), {code: 'ENOENT'});
	assert.deepEqual(
		session.messages.map(message => message.content),
		['sys', 'first', 'done: first'],
	);

	// Further back: the rewind's own restore is a change of this session, so the file is not taken for one changed outside.
	const first = await planRewind(session.messages, rewindPoints(session.messages)[0]!, session.id, workspace, history);
	assert.deepEqual(
		first.files.map(file => [file.display, file.changedOutside]),
		[['a.txt', false]],
	);
	await applyRewind(first, both, session, history);
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), 'one\n');
	assert.deepEqual(
		session.messages.map(message => message.content),
		['sys'],
	);
});

test('a file changed since by something else is named and left alone unless overwriting is confirmed', async t => {
	const {workspace, history, session, context, edit, turn} = await setUp(t);
	await writeFile(join(workspace, 'a.txt'), 'one\n');
	await turn('change it', async () => run(edit, {path: 'a.txt', old_text: 'one', new_text: 'two'}, context));
	await writeFile(join(workspace, 'a.txt'), 'two, and the person’s own line\n');
	const plan = await planRewind(session.messages, rewindPoints(session.messages)[0]!, session.id, workspace, history);
	assert.equal(plan.files[0]?.changedOutside, true);
	const kept = await applyRewind(plan, {conversation: false, files: true, overwrite: false}, session, history);
	assert.deepEqual(kept.skipped, [{display: 'a.txt', why: 'it changed since (not by this session), and overwriting it was not confirmed'}]);
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), 'two, and the person’s own line\n');
	assert.equal(kept.conversation, false);
	assert.equal(session.messages.length, 3);

	const overwritten = await applyRewind(plan, {conversation: false, files: true, overwrite: true}, session, history);
	assert.deepEqual(overwritten.restored, ['a.txt']);
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), 'one\n');
	// What the overwrite replaced is kept too: a later rewind can have it back.
	const journal = await history.read();
	assert.equal(journal.changes.at(-1)?.by, 'rewind');
	assert.equal((await history.blob(journal.changes.at(-1)!.before as string))?.toString(), 'two, and the person’s own line\n');
});

test('a file changed between the plan and the rewind is left alone', async t => {
	const {workspace, history, session, context, edit, turn} = await setUp(t);
	await writeFile(join(workspace, 'a.txt'), 'one\n');
	await turn('change it', async () => run(edit, {path: 'a.txt', old_text: 'one', new_text: 'two'}, context));
	const plan = await planRewind(session.messages, rewindPoints(session.messages)[0]!, session.id, workspace, history);
	await writeFile(join(workspace, 'a.txt'), 'meanwhile\n');
	const outcome = await applyRewind(plan, {conversation: true, files: true, overwrite: true}, session, history);
	assert.deepEqual(outcome.skipped, [{display: 'a.txt', why: 'it changed while the rewind was being chosen'}]);
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), 'meanwhile\n');
});

test('file history stays within its bound: the oldest before-images go, and a rewind past them says which files it cannot restore', async t => {
	// Room for two 100-byte before-images.
	const {workspace, state, history, session, context, write, turn} = await setUp(t, {maxBytes: 250});
	for (const name of ['a', 'b', 'c']) await writeFile(join(workspace, `${name}.txt`), name.repeat(100));
	await turn('first', async () => run(write, {files: [{path: 'a.txt', content: 'A'}]}, context));
	await turn('second', async () => run(write, {files: [{path: 'b.txt', content: 'B'}]}, context));
	await turn('third', async () => run(write, {files: [{path: 'c.txt', content: 'C'}]}, context));
	assert.equal((await readdir(join(state, 'blobs'))).length, 2);
	const journal = await history.read();
	assert.deepEqual(
		journal.changes.map(change => change.path),
		[join(workspace, 'b.txt'), join(workspace, 'c.txt')],
	);
	const plan = await planRewind(session.messages, rewindPoints(session.messages)[0]!, session.id, workspace, history);
	assert.match(plan.notes.join('\n'), /^1 earlier change was dropped to keep file history within 200 MB \(a\.txt\): those files are not restored$/);
	const outcome = await applyRewind(plan, both, session, history);
	assert.deepEqual(outcome.restored.sort(), ['b.txt', 'c.txt']);
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), 'A');
});

test('file history keeps at most maxChanges changes: at the bound all stay, one past it drops the oldest with its note', async t => {
	const {workspace, history, session, context, write, turn} = await setUp(t, {maxChanges: 2});
	await turn('first', async () => run(write, {files: [{path: 'a.txt', content: 'A'}]}, context));
	await turn('second', async () => run(write, {files: [{path: 'b.txt', content: 'B'}]}, context));
	assert.equal((await history.read()).changes.length, 2);
	await turn('third', async () => run(write, {files: [{path: 'c.txt', content: 'C'}]}, context));
	const journal = await history.read();
	assert.deepEqual(
		journal.changes.map(change => change.path),
		[join(workspace, 'b.txt'), join(workspace, 'c.txt')],
	);
	assert.deepEqual(
		journal.dropped.map(note => [note.session, note.count, note.paths]),
		[[session.id, 1, [join(workspace, 'a.txt')]]],
	);
});

test('a store that cannot be written warns once and never stops the edit; a broken journal line is left out with a note', async t => {
	const workspace = await tempDir(t, 'i-rewind-ws-');
	const blocked = join(workspace, 'not-a-folder');
	await writeFile(blocked, 'a file where the store should be');
	const warnings: string[] = [];
	const history = new FileHistory({folder: async () => join(blocked, 'rewind'), warn: message => warnings.push(message)});
	const edit = createEditTool({history});
	await writeFile(join(workspace, 'a.txt'), 'one two\n');
	const context = {...toolContext(workspace), sessionId: 'a-session'};
	await run(edit, {path: 'a.txt', old_text: 'one', new_text: '1'}, context);
	await run(edit, {path: 'a.txt', old_text: 'two', new_text: '2'}, context);
	assert.equal(await readFile(join(workspace, 'a.txt'), 'utf8'), '1 2\n');
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /^cannot keep the before-image of .*a\.txt for \/rewind: .*; \/rewind may not restore files changed from now on$/);

	const {state, history: good, session, context: sessionContext, edit: goodEdit, turn} = await setUp(t);
	await turn('x', async () => run(goodEdit, {path: join(workspace, 'a.txt'), old_text: '1', new_text: 'one'}, sessionContext));
	await writeFile(join(state, 'journal.jsonl'), `${await readFile(join(state, 'journal.jsonl'), 'utf8')}{"type":"change","torn\n`);
	const plan = await planRewind(session.messages, rewindPoints(session.messages)[0]!, session.id, workspace, good);
	assert.deepEqual(plan.notes, ['1 line of the rewind journal could not be read and was left out']);
	assert.equal(plan.files.length, 1);
});

test("the prompts are the person's: a tool's images, an extension's message and a hook's addition are none; an older session's plain user messages are", async t => {
	const dir = await tempDir(t);
	await mkdir(dir, {recursive: true});
	const timed: Message[] = [
		{role: 'system', content: 's'},
		promptMessage(
			[
				{type: 'text', text: 'look'},
				{type: 'image_url', image_url: {url: 'data:image/png;base64,AA'}},
			],
			5,
		),
		{role: 'user', content: 'what a before_turn hook added'},
		{role: 'assistant', content: 'ok'},
		{role: 'user', content: [{type: 'text', text: 'Images from tool call c1:'}], _tool_call_id: 'c1'},
		{role: 'user', content: 'from an extension', _extension_message: {id: 'e1', extension: 'x', display: true}} as Message,
		promptMessage('next', 9),
	];
	assert.deepEqual(rewindPoints(timed), [
		{index: 1, text: 'look', images: 1, sentAt: 5},
		{index: 6, text: 'next', images: 0, sentAt: 9},
	]);
	const legacy: Message[] = [
		{role: 'system', content: 's'},
		{role: 'user', content: 'old'},
		{role: 'assistant', content: 'a'},
	];
	assert.deepEqual(rewindPoints(legacy), [{index: 1, text: 'old', images: 0, sentAt: null}]);
	const plan = await planRewind(legacy, rewindPoints(legacy)[0]!, 'id', dir, new FileHistory({folder: async () => dir, warn() {}}));
	assert.deepEqual(plan.notes, ['this prompt was saved before i kept file history: only the conversation can be rewound']);
	assert.deepEqual(plan.messages, [{role: 'system', content: 's'}]);
});
