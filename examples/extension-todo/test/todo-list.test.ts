import assert from 'node:assert/strict';
import {test} from 'node:test';
import {addItem, describeList, emptyList, markDone, MAX_ITEMS, MAX_TEXT_CHARS, parseList, removeItem, TodoError, type TodoList} from '../src/todo-list.js';

function listOf(...texts: string[]): TodoList {
	return texts.reduce((list, text) => addItem(list, text).list, emptyList());
}

test('add, done and remove; ids are never reused', () => {
	let list = listOf('write the parser', 'test it');
	list = markDone(list, 1).list;
	assert.equal(describeList(list), '#1 [x] write the parser\n#2 [ ] test it\n(1 open, 1 done)');
	list = removeItem(list, 2).list;
	const added = addItem(list, '  ship it  ');
	assert.deepEqual(added.item, {id: 3, text: 'ship it', done: false});
	assert.equal(describeList(added.list), '#1 [x] write the parser\n#3 [ ] ship it\n(1 open, 1 done)');
	assert.equal(describeList(emptyList()), 'The list is empty.');
});

test('a missing item or a bad id is a TodoError naming the items there are', () => {
	const list = listOf('a', 'b');
	assert.throws(() => markDone(list, 7), new TodoError('there is no item #7; the items are #1, #2'));
	assert.throws(() => removeItem(emptyList(), 1), new TodoError('there is no item #1; the list is empty'));
	assert.throws(() => markDone(list, '1'), /"id" must be the number of an item/);
	assert.throws(() => markDone(list, 1.5), /"id" must be the number of an item/);
});

test(`an item is one line of 1–${MAX_TEXT_CHARS} characters`, () => {
	assert.equal(addItem(emptyList(), 'x'.repeat(MAX_TEXT_CHARS)).item.text.length, MAX_TEXT_CHARS);
	assert.throws(() => addItem(emptyList(), 'x'.repeat(MAX_TEXT_CHARS + 1)), /"text" is 501 characters; an item has at most 500/);
	assert.throws(() => addItem(emptyList(), '   '), /"text" is empty/);
	assert.throws(() => addItem(emptyList(), 'two\nlines'), /one line/);
	assert.throws(() => addItem(emptyList(), undefined), /"text" must be a string/);
});

test(`a list holds at most ${MAX_ITEMS} items`, () => {
	const full = listOf(...Array.from({length: MAX_ITEMS}, (_, index) => `item ${index}`));
	assert.equal(full.items.length, MAX_ITEMS);
	assert.throws(() => addItem(full, 'one more'), /already has 200 items, its limit/);
	// Room again once one is removed.
	assert.equal(addItem(removeItem(full, 1).list, 'one more').item.id, MAX_ITEMS + 1);
});

test('a stored list is read back as written, and a broken one is refused naming the file and the field', () => {
	const list = markDone(listOf('a', 'b'), 2).list;
	assert.deepEqual(parseList(JSON.parse(JSON.stringify(list)), 'f.json'), list);
	const broken = (data: unknown) => () => parseList(data, '/w/.i/todos/s.json');
	assert.throws(broken([]), /^TodoError: \/w\/\.i\/todos\/s\.json is not a todo list this tool can read: it is not a JSON object; fix or delete the file$/);
	assert.throws(broken({version: 2, nextId: 1, items: []}), /"version" is 2, not 1/);
	assert.throws(broken({version: 1, nextId: 0, items: []}), /"nextId" must be a whole number from 1/);
	assert.throws(
		broken({
			version: 1,
			nextId: 3,
			items: [
				{id: 1, text: 'a', done: false},
				{id: 1, text: 'b', done: false},
			],
		}),
		/items\[1\]\.id must be a unique whole number below "nextId"/,
	);
	assert.throws(broken({version: 1, nextId: 2, items: [{id: 1, text: 'a', done: 'no'}]}), /items\[0\]\.done must be true or false/);
	assert.throws(broken({version: 1, nextId: 2, items: [{id: 1, text: 'x'.repeat(MAX_TEXT_CHARS + 1), done: false}]}), /items\[0\]: "text" is 501 characters/);
	assert.throws(broken({version: 1, nextId: MAX_ITEMS + 2, items: Array.from({length: MAX_ITEMS + 1}, (_, index) => ({id: index + 1, text: 'a', done: false}))}), /it has 201 items; at most 200/);
});
