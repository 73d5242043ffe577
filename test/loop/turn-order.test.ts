// What a turn with one tool call does, in order, driven through the agent
// object (test/fixtures/scripted-agent.ts): the core events every head
// renders, the lifecycle hooks (docs/dev/lifecycle.md), the
// extensions' observe events, and what each request sent the model.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fakeTool, recordingHooks, scriptedAgent, withoutSentAt} from '../fixtures/scripted-agent.js';
import type {LifecycleEvent} from '../../source/core/lifecycle/event-names.js';

const readTool = () => fakeTool('look', args => ({output: `looked at ${String(args.path)}`}));
const oneToolCall = [
	{text: 'Let me look.', toolCalls: [{id: 'call-1', name: 'look', arguments: {path: 'a.txt'}}], usage: {input: 100, output: 10}},
	{deltas: ['It says ', 'hello.'], usage: {input: 130, output: 5}},
];

test('a turn with one tool call emits exactly this sequence of core events', async () => {
	const tool = readTool();
	const run = await scriptedAgent({replies: oneToolCall, tools: [tool]});
	try {
		const outcome = await run.agent.runTurn('what does a.txt say?', new AbortController().signal);
		assert.deepEqual(outcome, {reason: 'stop', steps: 2});
		const unknownCost = {dollars: 0, unknown: true};
		assert.deepEqual(run.events, [
			{type: 'text_delta', text: 'Let me look.'},
			{type: 'usage', model: 'scripted', usage: {input: 100, output: 10, cacheRead: 0, cacheWrite: 0, raw: {input: 100, output: 10}}, cost: unknownCost, session_cost: unknownCost, prices: null},
			{type: 'tool_call', id: 'call-1', name: 'look', arguments: '{"path":"a.txt"}'},
			{type: 'tool_started', id: 'call-1', name: 'look'},
			{type: 'tool_result', id: 'call-1', name: 'look', output: 'looked at a.txt', is_error: false, images: 0},
			{type: 'text_delta', text: 'It says '},
			{type: 'text_delta', text: 'hello.'},
			{type: 'usage', model: 'scripted', usage: {input: 130, output: 5, cacheRead: 0, cacheWrite: 0, raw: {input: 130, output: 5}}, cost: unknownCost, session_cost: unknownCost, prices: null},
			{type: 'done', reason: 'stop', steps: 2},
		]);
		assert.deepEqual(tool.ran, [{path: 'a.txt'}]);
		assert.equal(run.model.left, 0);

		// The model saw the history as it stood at each request, and the tool schema.
		const [first, second] = run.model.requests;
		assert.deepEqual(first!.messages, [
			{role: 'system', content: 'You are a scripted test agent.'},
			{role: 'user', content: 'what does a.txt say?'},
		]);
		assert.deepEqual(first!.tools, [{name: 'look', description: 'the look test tool', parameters: {type: 'object', properties: {}}}]);
		assert.deepEqual(second!.messages.slice(2), [
			{role: 'assistant', content: 'Let me look.', tool_calls: [{id: 'call-1', type: 'function', function: {name: 'look', arguments: '{"path":"a.txt"}'}}]},
			{role: 'tool', tool_call_id: 'call-1', content: 'looked at a.txt'},
		]);
		// Saved: the user step, the tool step, the answer.
		assert.deepEqual(withoutSentAt(await run.saved()), [...second!.messages, {role: 'assistant', content: 'It says hello.'}]);
	} finally {
		await run.close();
	}
});

test('the lifecycle hooks of a turn with one tool call run in this order', async () => {
	const every: LifecycleEvent[] = ['user_input', 'before_turn', 'context_budget', 'before_request', 'after_response', 'before_tool', 'tool_approval', 'after_tool', 'before_save', 'after_save', 'finish'];
	// Each hook hands its data back unchanged: only the order is looked at.
	const hooks = recordingHooks(Object.fromEntries(every.map(event => [event, (data: Record<string, unknown>) => data])));
	const run = await scriptedAgent({replies: oneToolCall, tools: [readTool()], hooks});
	try {
		const outcome = await run.agent.runTurn('what does a.txt say?', new AbortController().signal);
		assert.equal(outcome.reason, 'stop');
		assert.deepEqual(
			hooks.calls.map(call => (call.event === 'context_budget' ? `context_budget(pending ${String(call.data.pending)})` : call.event)),
			[
				'user_input',
				'before_turn',
				// The user's step is saved before the first request.
				'before_save',
				'after_save',
				'context_budget(pending 0)',
				'before_request',
				'after_response',
				// The share of the window each result of the batch may take.
				'context_budget(pending 1)',
				'before_tool',
				'tool_approval',
				'after_tool',
				'before_save',
				'after_save',
				'context_budget(pending 0)',
				'before_request',
				'after_response',
				'before_save',
				'after_save',
				'finish',
			],
		);
	} finally {
		await run.close();
	}
});

test("an extension hears a turn's observe events in this order", async () => {
	const folder = mkdtempSync(join(tmpdir(), 'i-loop-extension-'));
	const file = join(folder, 'observer.mjs');
	// Observe events reach an extension on its own queue, in the order they happened.
	writeFileSync(
		file,
		`const heard = (globalThis[Symbol.for('i-loop-test.heard')] ??= []);
const tags = ['BeforeAgentStart', 'AgentStart', 'TurnStart', 'MessageStart', 'MessageUpdate', 'AfterProviderResponse', 'ToolExecutionStart', 'ToolExecutionEnd', 'TurnEnd', 'AgentEnd', 'AgentSettled'];
export default function register(api) {
	for (const tag of tags) api.registerEventHandler(tag, event => { heard.push(tag === 'TurnStart' || tag === 'TurnEnd' ? tag + ' ' + event.step : tag); });
}
`,
	);
	const heard: string[] = [];
	(globalThis as Record<symbol, unknown>)[Symbol.for('i-loop-test.heard')] = heard;
	const run = await scriptedAgent({replies: oneToolCall, tools: [readTool()], extensions: [file]});
	try {
		await run.agent.runTurn('what does a.txt say?', new AbortController().signal);
		await run.agent.extensionEvents!.drained();
		assert.deepEqual(heard, [
			'BeforeAgentStart',
			'AgentStart',
			'TurnStart 1',
			'MessageStart',
			'MessageUpdate',
			'AfterProviderResponse',
			'ToolExecutionStart',
			'ToolExecutionEnd',
			'TurnEnd 1',
			'TurnStart 2',
			'MessageStart',
			'MessageUpdate',
			'MessageUpdate',
			'AfterProviderResponse',
			'TurnEnd 2',
			'AgentEnd',
			'AgentSettled',
		]);
	} finally {
		await run.close();
		rmSync(folder, {recursive: true, force: true});
	}
});
