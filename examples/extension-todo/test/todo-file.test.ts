import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {fileNameFor, listFile, MAX_FILE_BYTES, readList, writeList} from '../src/todo-file.js';
import {addItem, emptyList, MAX_ITEMS, MAX_TEXT_CHARS} from '../src/todo-list.js';

function workspace(t: TestContext): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), 'todo-file-')));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

test("a session's list is .i/todos/<sessionId>.json; without an ID it is the project's shared list", () => {
	assert.deepEqual(listFile('/w', '01adb026-7230-708b-855b-91eab6b056b8'), {path: '/w/.i/todos/01adb026-7230-708b-855b-91eab6b056b8.json', shared: false});
	assert.deepEqual(listFile('/w', undefined), {path: '/w/.i/todos/_project.json', shared: true});
});

test('a hostile session ID never leaves .i/todos/ nor takes the project file or another session', () => {
	const hostile = ['../../etc/passwd', '..', '.', '/etc/passwd', 'a/b', 'a\\b', 'C:\\x', 'x\u0000y', '', '_project', 'x'.repeat(129), ' spaced ', '.hidden'];
	const names = hostile.map(fileNameFor);
	for (const [index, name] of names.entries()) {
		assert.match(name, /^_id-[0-9a-f]{32}\.json$/, `${JSON.stringify(hostile[index])} became ${name}`);
		assert.equal(dirname(listFile('/w', hostile[index]).path), '/w/.i/todos');
	}

	assert.equal(new Set(names).size, names.length, 'different IDs, different files');
	// The longest plain ID is kept as it is.
	assert.equal(fileNameFor('a'.repeat(128)), `${'a'.repeat(128)}.json`);
});

test('no file yet is an empty list; a written list reads back; the write leaves no temp file', async t => {
	const path = listFile(workspace(t), 'session-1').path;
	assert.deepEqual(await readList(path), emptyList());
	const list = addItem(emptyList(), 'a').list;
	await writeList(path, list);
	assert.deepEqual(await readList(path), list);
	await writeList(path, addItem(list, 'b').list);
	assert.deepEqual(readdirSync(dirname(path)), ['session-1.json']);
	assert.equal(JSON.parse(readFileSync(path, 'utf8')).items.length, 2);
});

test('the largest list the tool can make fits the file limit; a bigger or broken file is refused and left as it was', async t => {
	const dir = workspace(t);
	// 200 items of 500 three-byte characters, with the JSON's quotes to escape: the most the tool ever writes.
	let largest = emptyList();
	for (let index = 0; index < MAX_ITEMS; index++) largest = addItem(largest, `"${'字'.repeat(MAX_TEXT_CHARS - 2)}"`).list;
	const path = listFile(dir, 'big').path;
	await writeList(path, largest);
	assert.ok(readFileSync(path).length < MAX_FILE_BYTES);
	assert.equal((await readList(path)).items.length, MAX_ITEMS);

	const over = listFile(dir, 'over').path;
	writeFileSync(over, ' '.repeat(MAX_FILE_BYTES + 1));
	await assert.rejects(readList(over), /is 524289 bytes, over the 512 KiB a todo list takes; it was not written by this tool/);
	const broken = listFile(dir, 'broken').path;
	writeFileSync(broken, '{"version": 1, "items": [');
	await assert.rejects(readList(broken), /broken\.json is not valid JSON .*; fix or delete the file/);
	assert.equal(readFileSync(broken, 'utf8'), '{"version": 1, "items": [');
	const folder = listFile(dir, 'folder').path;
	mkdirSync(folder);
	await assert.rejects(readList(folder), /folder\.json is not a file/);
});
