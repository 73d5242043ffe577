import {isAbsolute} from 'node:path';
import type {ExtensionTool, ExtensionToolContext, ExtensionToolResult, HostContext} from 'i-agent/extension';
import {listFile, PROJECT_LIST, readList, TODO_FOLDER, writeList} from './todo-file.js';
import {addItem, describeList, markDone, MAX_ITEMS, MAX_TEXT_CHARS, removeItem, TodoError, type TodoList} from './todo-list.js';

const actions = ['list', 'add', 'done', 'remove'] as const;
type Action = (typeof actions)[number];

/**
 * The `todo` tool: one list per session, kept in the workspace at
 * `.i/todos/<sessionId>.json`, found through the host context `__i` (the
 * model never sees it). Without a session ID (an ephemeral session, an
 * older host) it keeps the project's shared list and says so in its reply,
 * rather than pretending a session of its own.
 */
export const todoTool: ExtensionTool = {
	name: 'todo',
	label: 'todo list',
	description: [
		"Keep this session's todo list (stored in the workspace under .i/todos/).",
		'action "list" shows it; "add" adds an item (text); "done" marks item id finished; "remove" deletes item id.',
		`Every reply shows the whole list. At most ${MAX_ITEMS} items of ${MAX_TEXT_CHARS} characters.`,
	].join(' '),
	// The host checks the model's arguments against this before `execute`, without the host's own `__i`.
	parameters: {
		type: 'object',
		properties: {
			action: {type: 'string', enum: [...actions], description: 'What to do: list, add, done or remove'},
			text: {type: 'string', maxLength: MAX_TEXT_CHARS, description: 'The item to add (action add)'},
			id: {type: 'integer', minimum: 1, description: 'The item number, as the list shows it (#3 is 3; actions done and remove)'},
		},
		required: ['action'],
		additionalProperties: false,
	},
	execute: async (params, ctx) => runTodo(params, ctx),
};

async function runTodo(params: Record<string, unknown>, ctx: ExtensionToolContext): Promise<ExtensionToolResult> {
	const host = hostContext(params.__i);
	if (host.cwd === undefined) return {error: 'the host gave no workspace folder (__i.cwd), and the list is kept in one; this i is too old for this tool'};
	const action = params.action;
	if (!isAction(action)) return {error: `"action" must be one of ${actions.join(', ')}`};
	const {path, shared} = listFile(host.cwd, host.sessionId);
	// Said in every reply of the shared list: the model must not take it for this session's own.
	const where = shared ? `No session ID came from the host (an ephemeral session, or an older i), so this is the project's shared list, ${TODO_FOLDER}/${PROJECT_LIST}.json.\n` : '';
	try {
		const list = await readList(path);
		if (action === 'list') return {output: where + describeList(list)};
		const changed = change(list, action, params);
		// A cancelled call changes nothing.
		if (ctx.signal.aborted) return {error: 'cancelled before the list was saved'};
		await writeList(path, changed.list);
		return {output: `${where}${changed.said}\n${describeList(changed.list)}`};
	} catch (error) {
		if (error instanceof TodoError) return {error: error.message};
		throw error;
	}
}

function change(list: TodoList, action: Exclude<Action, 'list'>, params: Record<string, unknown>): {list: TodoList; said: string} {
	if (action === 'add') {
		const added = addItem(list, params.text);
		return {list: added.list, said: `Added #${added.item.id}.`};
	}

	if (action === 'done') {
		const done = markDone(list, params.id);
		return {list: done.list, said: `Marked #${done.item.id} done.`};
	}

	const removed = removeItem(list, params.id);
	return {list: removed.list, said: `Removed #${removed.item.id} (${removed.item.text}).`};
}

function isAction(value: unknown): value is Action {
	return typeof value === 'string' && (actions as readonly string[]).includes(value);
}

/**
 * `__i` as this tool can use it. Either field may be missing, or the whole
 * key (an older host); what is not usable (a relative folder, an empty
 * ID) is taken as missing.
 */
function hostContext(value: unknown): HostContext {
	if (value === null || typeof value !== 'object') return {};
	const {cwd, sessionId} = value as Record<string, unknown>;
	return {
		// A relative folder would be read against wherever the host process happens to run.
		...(typeof cwd === 'string' && isAbsolute(cwd) ? {cwd} : {}),
		...(typeof sessionId === 'string' && sessionId.length > 0 ? {sessionId} : {}),
	};
}
