// An extension's tool as a core tool: validation, the `__i` host context,
// progress, cancellation with its 2 s grace, results and errors
// (spec/extensions.md §4).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {CANCEL_GRACE_MS, createExtensionTool, DEFAULT_EXTENSION_TOOL_TIMEOUT_SECONDS} from '../../source/core/extensions/extension-tool.js';
import {checkExtensionTool, MAX_TOOL_TIMEOUT_SECONDS} from '../../source/core/extensions/check-tool.js';
import type {ExtensionTool} from '../../source/core/extensions/api.js';
import {ToolInputError, ToolRunError, type ToolContext} from '../../source/core/tools/types.js';

const owner = {name: 'todo', file: '/x/todo.mjs'};
const parameters = {type: 'object', properties: {text: {type: 'string'}}, required: ['text'], additionalProperties: false};

function context(overrides: Partial<ToolContext> = {}): ToolContext {
	return {workspace: '/w', signal: new AbortController().signal, outputLimit: 10_000, sessionId: 's-1', ...overrides};
}

function make(execute: ExtensionTool['execute'], more: Partial<ExtensionTool> = {}) {
	return createExtensionTool(checkExtensionTool({name: 'todo', description: 'd', parameters, execute, ...more}), owner);
}

test('__i is added after validation: a strict schema passes, a forged __i is overwritten, the model args are untouched', async () => {
	let seen: Record<string, unknown> | undefined;
	const tool = make(params => {
		seen = params;
		return {output: 'done'};
	});
	const args = {text: 'a', __i: {cwd: '/forged', sessionId: 'forged'}};
	const plan = await tool.plan(args, context());
	// Approval is asked like an external tool's, and shows neither the forged nor the real key.
	assert.equal(tool.external, true);
	assert.equal(plan.ask?.title, 'Run todo');
	assert.equal(tool.owner, 'extension todo (/x/todo.mjs)', 'the owner names the extension and its file');
	assert.doesNotMatch(plan.ask!.detail, /__i|forged/);
	assert.deepEqual(await plan.run(), {output: 'done'});
	assert.deepEqual(seen, {text: 'a', __i: {cwd: '/w', sessionId: 's-1'}});
	assert.deepEqual(args, {text: 'a', __i: {cwd: '/forged', sessionId: 'forged'}});
});

test('without a session ID, __i has the workspace only', async () => {
	let seen: unknown;
	const tool = make(params => {
		seen = params.__i;
		return {output: ''};
	});
	await (await tool.plan({text: 'a'}, context({sessionId: undefined}))).run();
	assert.deepEqual(seen, {cwd: '/w'});
});

test('arguments the schema refuses are a ToolInputError the model can act on', async () => {
	const tool = make(() => ({output: ''}));
	await assert.rejects(tool.plan({text: 1}, context()), (error: Error) => error instanceof ToolInputError && /todo: .*text/.test(error.message));
});

test('{error} is a tool error; a throw is a ToolRunError; a malformed result names the extension', async () => {
	const failing = make(() => ({error: 'no such list'}));
	assert.deepEqual(await (await failing.plan({text: 'a'}, context())).run(), {output: 'Error: no such list', isError: true});
	const throwing = make(() => {
		throw new Error('disk full');
	});
	await assert.rejects((await throwing.plan({text: 'a'}, context())).run(), (error: Error) => error instanceof ToolRunError && error.message === 'todo failed: disk full');
	const malformed = make(() => ({result: 'x'}) as never);
	await assert.rejects(
		(await malformed.plan({text: 'a'}, context())).run(),
		/tool "todo" of extension todo returned an object with the fields result; a tool returns \{output: string, images\?\} or \{error: string\}/,
	);
});

test('progress reaches the context while the tool runs and is dropped after it settled', async () => {
	const updates: string[] = [];
	let later: ((text: string) => void) | undefined;
	const tool = make(async (_params, ctx) => {
		ctx.onUpdate('half');
		later = ctx.onUpdate;
		return {output: 'done'};
	});
	await (await tool.plan({text: 'a'}, context({onUpdate: text => updates.push(text)}))).run();
	later!('too late');
	assert.deepEqual(updates, ['half']);
});

test('a cancel ends the call as cancelled; a success the tool sends after the cancel is ignored', async () => {
	const controller = new AbortController();
	let toolSignal: AbortSignal | undefined;
	const tool = make(async (_params, ctx) => {
		toolSignal = ctx.signal;
		// Ignores its signal for a while, then succeeds.
		await new Promise(resolve => setTimeout(resolve, 150));
		return {output: 'late success'};
	});
	const running = (await tool.plan({text: 'a'}, context({signal: controller.signal}))).run();
	setTimeout(() => controller.abort(new Error('cancelled by the user')), 20);
	await assert.rejects(running, /cancelled by the user/);
	assert.equal(toolSignal?.aborted, true);
});

test('a tool that ignores its signal ends as cancelled after the 2 s grace, and its promise settles unobserved', async () => {
	const controller = new AbortController();
	const tool = make(() => new Promise(() => {}));
	const running = (await tool.plan({text: 'a'}, context({signal: controller.signal}))).run();
	const start = Date.now();
	controller.abort(new Error('turn ended'));
	await assert.rejects(running, /turn ended/);
	const waited = Date.now() - start;
	assert.ok(waited >= CANCEL_GRACE_MS - 50 && waited < CANCEL_GRACE_MS + 1500, `ended after ${waited} ms`);
});

test('a tool that rejects on its signal ends at once', async () => {
	const controller = new AbortController();
	const tool = make(
		(_params, ctx) =>
			new Promise((_resolve, reject) => {
				ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
			}),
	);
	const running = (await tool.plan({text: 'a'}, context({signal: controller.signal}))).run();
	const start = Date.now();
	controller.abort(new Error('cancel'));
	await assert.rejects(running, /cancel/);
	assert.ok(Date.now() - start < 1000);
});

test('a call past its deadline aborts its signal and ends in a tool error naming the tool, the extension and the deadline', async () => {
	let signal: AbortSignal | undefined;
	const tool = make(
		(_params, ctx) => {
			signal = ctx.signal;
			return new Promise(() => {});
		},
		{timeoutSeconds: 1},
	);
	const running = (await tool.plan({text: 'a'}, context())).run();
	await assert.rejects(
		running,
		(error: Error) =>
			error instanceof ToolRunError &&
			error.message ===
				`tool "todo" of extension todo did not finish within its deadline of 1 s, so its signal was aborted and the call ended (a tool may declare timeoutSeconds up to ${MAX_TOOL_TIMEOUT_SECONDS})`,
	);
	assert.equal(signal?.aborted, true);
	assert.equal((signal!.reason as Error).name, 'TimeoutError');
});

test('a call that answers within its deadline keeps its answer, with its signal not aborted', async () => {
	let signal: AbortSignal | undefined;
	const tool = make(
		async (_params, ctx) => {
			signal = ctx.signal;
			await new Promise(resolve => setTimeout(resolve, 50));
			return {output: 'in time'};
		},
		{timeoutSeconds: 1},
	);
	assert.deepEqual(await (await tool.plan({text: 'a'}, context())).run(), {output: 'in time'});
	assert.equal(signal?.aborted, false);
});

test(`timeoutSeconds is a whole number from 1 to ${MAX_TOOL_TIMEOUT_SECONDS}; without it the deadline is ${DEFAULT_EXTENSION_TOOL_TIMEOUT_SECONDS} s`, () => {
	const base = {name: 'todo', description: 'd', parameters, execute: () => ({output: ''})};
	assert.equal(checkExtensionTool({...base, timeoutSeconds: 1}).timeoutSeconds, 1);
	assert.equal(checkExtensionTool({...base, timeoutSeconds: MAX_TOOL_TIMEOUT_SECONDS}).timeoutSeconds, MAX_TOOL_TIMEOUT_SECONDS);
	assert.equal(checkExtensionTool(base).timeoutSeconds, undefined);
	for (const wrong of [0, MAX_TOOL_TIMEOUT_SECONDS + 1, 1.5, '10']) {
		assert.throws(
			() => checkExtensionTool({...base, timeoutSeconds: wrong}),
			new RegExp(`registerTool "todo": timeoutSeconds must be a whole number of seconds from 1 to ${MAX_TOOL_TIMEOUT_SECONDS} \\(got ${JSON.stringify(wrong)}\\)`),
		);
	}
});

test('the checked tool is a copy: changing the registered object later changes nothing', () => {
	const original = {name: 'todo', description: 'd', parameters: {type: 'object', properties: {}}, execute: () => ({output: ''})};
	const checked = checkExtensionTool(original);
	original.parameters.properties = {evil: {type: 'string'}};
	original.name = 'other';
	assert.equal(checked.name, 'todo');
	assert.deepEqual(checked.parameters, {type: 'object', properties: {}});
	assert.throws(() => checkExtensionTool({...original, parameters: {type: 'array'}}), /parameters must be a JSON Schema object with "type": "object"/);
	assert.throws(() => checkExtensionTool({...original, execute: 'x'}), /execute must be a function/);
});

test('readOnly: true marks the tool read-only (it still asks); false or absent does not; anything else is refused naming the field', async () => {
	const base = {name: 'peek', description: 'd', parameters: {type: 'object', properties: {}}, execute: () => ({output: ''})};
	const tool = createExtensionTool(checkExtensionTool({...base, readOnly: true}), owner);
	assert.equal(tool.readOnly, true);
	assert.notEqual((await tool.plan({}, context())).ask, null, 'a read-only extension tool still asks for approval');
	assert.equal(createExtensionTool(checkExtensionTool({...base, readOnly: false}), owner).readOnly, undefined);
	assert.equal(createExtensionTool(checkExtensionTool(base), owner).readOnly, undefined);
	assert.throws(() => checkExtensionTool({...base, readOnly: 'yes'}), /registerTool "peek": readOnly must be true or false \(got "yes"\)/);
});
