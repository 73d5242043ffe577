import {test} from 'node:test';
import assert from 'node:assert/strict';
import {MAX_TOOL_UPDATE_CHARS, runToolCall, type ToolCallContext} from '../../source/core/agent/run-tool-call.js';
import {createApprovalGate} from '../../source/core/agent/approval-gate.js';
import {ToolInputError, ToolRunError, type Tool, type ToolPlan, type ToolResult} from '../../source/core/tools/types.js';
import type {CoreEvent} from '../../source/core/events.js';
import type {HookChain} from '../../source/core/lifecycle/hook-chain.js';

function fakeTool(name: string, plan: (args: Record<string, unknown>, context: Parameters<Tool['plan']>[1]) => Promise<ToolPlan>): Tool {
	return {name, description: name, parameters: {type: 'object'}, plan};
}

const returning =
	(result: ToolResult, ask: ToolPlan['ask'] = null) =>
	async () => ({ask, run: async () => result});

function context(tools: Tool[], overrides: Partial<ToolCallContext> = {}): ToolCallContext & {events: CoreEvent[]} {
	const events: CoreEvent[] = [];
	return {
		tools: new Map(tools.map(tool => [tool.name, tool])),
		gate: createApprovalGate({mode: {current: 'default'}, askPerson: async () => ({decision: 'deny', by: 'no_terminal', reason: 'nobody to ask'})}),
		emit: event => events.push(event),
		workspace: '/w',
		signal: new AbortController().signal,
		outputLimit: 1000,
		events,
		...overrides,
	};
}

const call = (name: string, args = '{}') => ({id: 'c1', type: 'function' as const, function: {name, arguments: args}});

test('a result over the output limit is cut with a visible marker, in the message and the event alike', async () => {
	const ctx = context([fakeTool('big', returning({output: 'x'.repeat(100_000)}))]);
	const outcome = await runToolCall(call('big'), ctx);
	assert.ok(outcome.message.content.length <= 1000);
	assert.match(outcome.message.content, /characters truncated/);
	const event = ctx.events.find(item => item.type === 'tool_result');
	assert.deepEqual(event, {type: 'tool_result', id: 'c1', name: 'big', output: outcome.message.content, is_error: false, images: 0});
});

test('a result exactly at the limit is kept whole', async () => {
	const ctx = context([fakeTool('fit', returning({output: 'y'.repeat(1000)}))]);
	assert.equal((await runToolCall(call('fit'), ctx)).message.content, 'y'.repeat(1000));
});

test('wrong arguments, planning and running failures become error results for the model', async () => {
	const cases: Array<[Tool, string, RegExp]> = [
		[fakeTool('t', returning({output: ''})), '[1]', /arguments must be a JSON object/],
		[fakeTool('t', async () => Promise.reject(new ToolInputError('t: path is required'))), '{}', /^Error: t: path is required$/],
		[fakeTool('t', async () => ({ask: null, run: async () => Promise.reject(new ToolRunError('t: gone'))})), '{}', /^Error: t: gone$/],
		[fakeTool('t', async () => ({ask: null, run: async () => Promise.reject(new TypeError('boom'))})), '{}', /^Error: t failed: boom$/],
	];
	for (const [tool, args, message] of cases) {
		const outcome = await runToolCall(call('t', args), context([tool]));
		assert.match(outcome.message.content, message);
		assert.equal(outcome.message.tool_call_id, 'c1');
		assert.equal(outcome.message._is_error, true);
	}

	const fine = await runToolCall(call('t'), context([fakeTool('t', returning({output: 'ok'}))]));
	assert.equal('_is_error' in fine.message, false);
});

test('an unknown tool name lists the tools there are', async () => {
	const outcome = await runToolCall(call('nope'), context([fakeTool('read', returning({output: ''}))]));
	assert.match(outcome.message.content, /no tool named "nope"; available tools: read/);
});

test('a denied call never runs, and the denial is an event and a result', async () => {
	let ran = false;
	const tool = fakeTool('edit', async () => ({
		ask: {title: 'Edit a', detail: 'diff'},
		run: async () => {
			ran = true;
			return {output: 'done'};
		},
	}));
	const ctx = context([tool]);
	const outcome = await runToolCall(call('edit'), ctx);
	assert.equal(ran, false);
	assert.match(outcome.message.content, /not run: approval was denied\. Reason: nobody to ask/);
	assert.deepEqual(ctx.events[0], {type: 'approval', id: 'c1', name: 'edit', title: 'Edit a', owner: 'native', decision: 'deny', by: 'no_terminal', reason: 'nobody to ask'});
});

test("the approval names the tool's owner: native, the one the tool declares, and an external tool without one never as native", async () => {
	const asked: Array<[string, string]> = [];
	const gate = createApprovalGate({
		mode: {current: 'default'},
		askPerson: async request => {
			asked.push([request.owner, request.ask.title]);
			return {decision: 'deny', by: 'user', reason: null};
		},
	});
	const ask = {title: 'Run it', detail: '{}'};
	const tools: Tool[] = [
		fakeTool('shell', returning({output: ''}, ask)),
		{...fakeTool('memory_write', returning({output: ''}, ask)), external: true, owner: 'official module memory'},
		{...fakeTool('lookup', returning({output: ''}, null)), external: true},
	];
	const ctx = context(tools, {gate});
	for (const tool of tools) await runToolCall(call(tool.name), ctx);
	assert.deepEqual(asked, [
		['native', 'Run it'],
		['official module memory', 'Run it'],
		// No ask of its own: the gate's stands in, with the call's arguments.
		['external tool', 'Run lookup'],
	]);
	assert.deepEqual(
		ctx.events.filter(event => event.type === 'approval').map(event => event.owner),
		['native', 'official module memory', 'external tool'],
	);
});

test('images a tool returns are checked; bad ones are refused as an error result', async () => {
	const tool = fakeTool('img', returning({output: 'here', images: [{type: 'image_url', image_url: {url: 'data:image/png;base64,AAAA'}}]}));
	const outcome = await runToolCall(call('img'), context([tool]));
	assert.deepEqual(outcome.images, []);
	assert.match(outcome.message.content, /returned images that were refused/);
});

test('cancellation propagates instead of becoming a result', async () => {
	const controller = new AbortController();
	const tool = fakeTool('slow', async () => ({
		ask: null,
		async run() {
			controller.abort(new Error('interrupted'));
			throw new Error('killed');
		},
	}));
	await assert.rejects(runToolCall(call('slow'), context([tool], {signal: controller.signal})), /interrupted/);
});

const png = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64')}`;
const image = (url = png) => ({type: 'image_url', image_url: {url}});
const link = image('https://example.com/a.png');

/** An after_tool hook chain that answers with `rewrite(data)`. */
function afterTool(rewrite: (data: Record<string, unknown>) => Record<string, unknown>): HookChain & {seen: Array<Record<string, unknown>>} {
	const seen: Array<Record<string, unknown>> = [];
	return {
		seen,
		has: event => event === 'after_tool',
		run: async (_event, data) => {
			seen.push(data);
			return rewrite(data);
		},
		warnings: () => [],
	};
}

test('a result goes through after_tool before its images are checked (spec/platform.md §5): a hook can repair or drop them', async () => {
	const tool = fakeTool('shot', returning({output: 'took a picture', images: [link]}));
	// Without a hook the link is refused, naming the tool.
	const refused = await runToolCall(call('shot'), context([tool]));
	assert.match(refused.message.content, /^Error: shot returned images that were refused: images\[0\]: the url must be a base64 data URL/);
	assert.deepEqual(refused.images, []);

	const repairing = afterTool(data => ({...data, images: [image()]}));
	const repaired = await runToolCall(call('shot'), context([tool], {hooks: repairing}));
	assert.deepEqual(repairing.seen[0]!.images, [link], 'the hook saw the images as the tool returned them');
	assert.equal(repaired.message.content, 'took a picture');
	assert.deepEqual(repaired.images, [image()]);

	const dropped = await runToolCall(call('shot'), context([tool], {hooks: afterTool(data => ({...data, images: []}))}));
	assert.equal(dropped.message.content, 'took a picture');
	assert.equal('_is_error' in dropped.message, false);
});

test('the 8-image cap holds per batch of tool calls: a result that would take the batch past 8 is refused', async () => {
	const five = fakeTool('five', returning({output: 'five pictures', images: Array.from({length: 5}, () => image())}));
	const first = await runToolCall(call('five'), context([five], {imagesLeft: 8}));
	assert.equal(first.images.length, 5);
	const second = await runToolCall(call('five'), context([five], {imagesLeft: 8 - first.images.length}));
	assert.deepEqual(second.images, []);
	assert.equal(second.message._is_error, true);
	assert.equal(second.message.content, 'Error: five returned 5 images, which were refused: a batch of tool calls carries at most 8 images and earlier calls of this batch took 5');
	// At the limit: exactly what is left fits.
	const three = fakeTool('three', returning({output: 'three', images: Array.from({length: 3}, () => image())}));
	assert.equal((await runToolCall(call('three'), context([three], {imagesLeft: 3}))).images.length, 3);
	assert.equal((await runToolCall(call('three'), context([three], {imagesLeft: 2}))).images.length, 0);
});

test('progress becomes tool_update events: kept whole at 4096 characters, cut with a marker one past', async () => {
	const atLimit = 'a'.repeat(MAX_TOOL_UPDATE_CHARS);
	const tool = fakeTool('slow', async (_args, toolContext) => ({
		ask: null,
		run: async () => {
			toolContext.onUpdate?.(atLimit);
			toolContext.onUpdate?.(`${atLimit}b`);
			return {output: 'done'};
		},
	}));
	const ctx = context([tool], {gate: createApprovalGate({mode: {current: 'bypassPermissions'}, askPerson: async () => ({decision: 'deny', by: 'no_terminal', reason: null})})});
	await runToolCall(call('slow'), ctx);
	const updates = ctx.events.filter(event => event.type === 'tool_update');
	assert.deepEqual(
		updates.map(event => event.type === 'tool_update' && [event.id, event.name, event.text.length]),
		[
			['c1', 'slow', MAX_TOOL_UPDATE_CHARS],
			['c1', 'slow', MAX_TOOL_UPDATE_CHARS + 1],
		],
	);
	assert.equal(updates[0]!.type === 'tool_update' && updates[0]!.text, atLimit);
	assert.equal(updates[1]!.type === 'tool_update' && updates[1]!.text, `${atLimit}…`);
});
