/**
 * The todo list itself, as plain data and pure functions: no files, no
 * host. What the tool stores is checked here on the way in (a model's
 * text) and on the way back (a file someone may have edited), with bounds
 * on both (spec/extensions.md §6: limits on counts and sizes).
 */

/** Items one list holds: a plan, not a backlog. */
export const MAX_ITEMS = 200;
/** Characters of one item's text: one line a person reads at a glance. */
export const MAX_TEXT_CHARS = 500;

export interface TodoItem {
	id: number;
	text: string;
	done: boolean;
}

export interface TodoList {
	version: 1;
	/** The next item's id: ids are never reused, so "#3" keeps meaning one item. */
	nextId: number;
	items: TodoItem[];
}

/** A mistake the model (or whoever edited the file) can fix: the tool answers it as a tool error. */
export class TodoError extends Error {
	override name = 'TodoError';
}

export function emptyList(): TodoList {
	return {version: 1, nextId: 1, items: []};
}

/** Control characters would break the one-line listing (and a file's JSON stays plain). */
const controlCharacter = /[\u0000-\u001f\u007f]/;

/** An item's text as given, trimmed; throws a TodoError saying what is wrong with it. */
export function checkText(text: unknown): string {
	if (typeof text !== 'string') throw new TodoError('"text" must be a string: the item to add');
	const trimmed = text.trim();
	if (trimmed.length === 0) throw new TodoError('"text" is empty: say what there is to do');
	if (trimmed.length > MAX_TEXT_CHARS) throw new TodoError(`"text" is ${trimmed.length} characters; an item has at most ${MAX_TEXT_CHARS}`);
	if (controlCharacter.test(trimmed)) throw new TodoError('"text" contains a line break or another control character; an item is one line');
	return trimmed;
}

export function addItem(list: TodoList, text: unknown): {list: TodoList; item: TodoItem} {
	const checked = checkText(text);
	if (list.items.length >= MAX_ITEMS) throw new TodoError(`the list already has ${MAX_ITEMS} items, its limit; remove finished ones first`);
	const item: TodoItem = {id: list.nextId, text: checked, done: false};
	return {list: {...list, nextId: list.nextId + 1, items: [...list.items, item]}, item};
}

export function markDone(list: TodoList, id: unknown): {list: TodoList; item: TodoItem} {
	const item = findItem(list, id);
	const done = {...item, done: true};
	return {list: {...list, items: list.items.map(other => (other.id === item.id ? done : other))}, item: done};
}

export function removeItem(list: TodoList, id: unknown): {list: TodoList; item: TodoItem} {
	const item = findItem(list, id);
	return {list: {...list, items: list.items.filter(other => other.id !== item.id)}, item};
}

function findItem(list: TodoList, id: unknown): TodoItem {
	if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new TodoError('"id" must be the number of an item (#1 is 1)');
	const item = list.items.find(candidate => candidate.id === id);
	if (item) return item;
	const ids = list.items.map(candidate => `#${candidate.id}`).join(', ');
	throw new TodoError(`there is no item #${id}; ${ids === '' ? 'the list is empty' : `the items are ${ids}`}`);
}

/** The list as the model reads it: one line an item, then the counts. */
export function describeList(list: TodoList): string {
	if (list.items.length === 0) return 'The list is empty.';
	const open = list.items.filter(item => !item.done).length;
	const lines = list.items.map(item => `#${item.id} [${item.done ? 'x' : ' '}] ${item.text}`);
	return [...lines, `(${open} open, ${list.items.length - open} done)`].join('\n');
}

/** A stored list, checked field by field; `file` names it in the error. */
export function parseList(data: unknown, file: string): TodoList {
	const fail = (problem: string): never => {
		throw new TodoError(`${file} is not a todo list this tool can read: ${problem}; fix or delete the file`);
	};

	if (data === null || typeof data !== 'object' || Array.isArray(data)) return fail('it is not a JSON object');
	const {version, nextId, items} = data as Record<string, unknown>;
	if (version !== 1) fail(`"version" is ${JSON.stringify(version)}, not 1`);
	if (typeof nextId !== 'number' || !Number.isSafeInteger(nextId) || nextId < 1) fail('"nextId" must be a whole number from 1');
	if (!Array.isArray(items)) return fail('"items" must be a list');
	if (items.length > MAX_ITEMS) fail(`it has ${items.length} items; at most ${MAX_ITEMS}`);
	const seen = new Set<number>();
	const checked = items.map((value: unknown, index): TodoItem => {
		if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(`items[${index}] is not an object`);
		const {id, text, done} = value as Record<string, unknown>;
		if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1 || id >= (nextId as number) || seen.has(id)) fail(`items[${index}].id must be a unique whole number below "nextId"`);
		if (typeof done !== 'boolean') fail(`items[${index}].done must be true or false`);
		let valid: string;
		try {
			valid = checkText(text);
		} catch (error) {
			return fail(`items[${index}]: ${(error as Error).message}`);
		}

		seen.add(id as number);
		return {id: id as number, text: valid, done: done as boolean};
	});
	return {version: 1, nextId: nextId as number, items: checked};
}
