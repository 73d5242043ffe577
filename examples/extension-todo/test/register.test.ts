// The extension as the host drives it, without the host: register with an
// api of the slots it needs, then execute the tool as i does after
// validating the model's arguments (with the host's `__i` added).
import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import type {ExtensionApi, ExtensionTool, ExtensionToolResult} from 'i-agent/extension';
import register, {apiVersion} from '../src/index.js';

function registered(): ExtensionTool {
	const tools: ExtensionTool[] = [];
	const api: ExtensionApi = {apiVersion: '1.0', registerTool: tool => void tools.push(tool)};
	register(api);
	assert.equal(tools.length, 1);
	return tools[0]!;
}

function workspace(t: TestContext): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), 'todo-register-')));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

const ctx = () => ({signal: new AbortController().signal, onUpdate: () => {}});

async function call(tool: ExtensionTool, params: Record<string, unknown>): Promise<ExtensionToolResult> {
	return tool.execute(params, ctx());
}

test('written for API major 1; registers one tool named todo with a strict object schema', () => {
	assert.equal(apiVersion, '1');
	const tool = registered();
	assert.equal(tool.name, 'todo');
	assert.equal((tool.parameters as {type: string}).type, 'object');
	assert.deepEqual((tool.parameters as {required: string[]}).required, ['action']);
});

test('a host without registerTool gets a clear error naming what is missing', () => {
	assert.throws(() => register({apiVersion: '1.0'}), /i-extension-todo needs api\.registerTool, which this i \(extension API 1\.0\) does not have: upgrade i/);
});

test("with a session ID: the list is that session's file and the replies show it", async t => {
	const cwd = workspace(t);
	const tool = registered();
	const __i = {cwd, sessionId: '01adb026-7230-708b-855b-91eab6b056b8'};
	assert.deepEqual(await call(tool, {action: 'add', text: 'write the docs', __i}), {output: 'Added #1.\n#1 [ ] write the docs\n(1 open, 0 done)'});
	assert.deepEqual(await call(tool, {action: 'done', id: 1, __i}), {output: 'Marked #1 done.\n#1 [x] write the docs\n(0 open, 1 done)'});
	assert.deepEqual(readdirSync(join(cwd, '.i', 'todos')), [`${__i.sessionId}.json`]);
	// Another session has its own list.
	assert.deepEqual(await call(tool, {action: 'list', __i: {cwd, sessionId: 'other'}}), {output: 'The list is empty.'});
	assert.deepEqual(await call(tool, {action: 'remove', id: 9, __i}), {error: 'there is no item #9; the items are #1'});
});

test('without a session ID the project list is used, and every reply says so', async t => {
	const cwd = workspace(t);
	const tool = registered();
	const result = await call(tool, {action: 'add', text: 'shared item', __i: {cwd}});
	assert.ok('output' in result);
	assert.match(result.output, /^No session ID came from the host \(an ephemeral session, or an older i\), so this is the project's shared list, \.i\/todos\/_project\.json\.\nAdded #1\./);
	assert.ok(existsSync(join(cwd, '.i', 'todos', '_project.json')));
	const listed = await call(tool, {action: 'list', __i: {cwd, sessionId: ''}});
	assert.ok('output' in listed && listed.output.includes("project's shared list") && listed.output.endsWith('#1 [ ] shared item\n(1 open, 0 done)'));
});

test('a hostile session ID stays inside .i/todos/', async t => {
	const cwd = workspace(t);
	const tool = registered();
	await call(tool, {action: 'add', text: 'x', __i: {cwd, sessionId: '../../escaped'}});
	assert.deepEqual(readdirSync(cwd), ['.i']);
	const [name] = readdirSync(join(cwd, '.i', 'todos'));
	assert.match(name!, /^_id-[0-9a-f]{32}\.json$/);
	assert.equal(JSON.parse(readFileSync(join(cwd, '.i', 'todos', name!), 'utf8')).items[0].text, 'x');
});

test('without a usable workspace, or with a bad action, the tool answers an error and writes nothing', async t => {
	const cwd = workspace(t);
	const tool = registered();
	assert.match(((await call(tool, {action: 'list'})) as {error: string}).error, /the host gave no workspace folder \(__i\.cwd\)/);
	assert.match(((await call(tool, {action: 'list', __i: {cwd: 'relative/dir'}})) as {error: string}).error, /no workspace folder/);
	assert.deepEqual(await call(tool, {action: 'purge', __i: {cwd}}), {error: '"action" must be one of list, add, done, remove'});
	assert.deepEqual(readdirSync(cwd), []);
});

test('a call cancelled before the save changes nothing', async t => {
	const cwd = workspace(t);
	const tool = registered();
	const controller = new AbortController();
	controller.abort();
	assert.deepEqual(await tool.execute({action: 'add', text: 'late', __i: {cwd, sessionId: 's'}}, {signal: controller.signal, onUpdate: () => {}}), {error: 'cancelled before the list was saved'});
	assert.equal(existsSync(join(cwd, '.i', 'todos', 's.json')), false);
});
