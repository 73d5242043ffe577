import {test} from 'node:test';
import assert from 'node:assert/strict';
import {describeShapeProblem, historyShapeProblem, HistoryShape} from '../../source/core/history/history-shape.js';
import type {AssistantMessage, Message, ToolMessage} from '../../source/core/messages.js';

const call = (id: string, name = 'read') => ({id, type: 'function' as const, function: {name, arguments: '{}'}});
const calls = (...ids: string[]): AssistantMessage => ({role: 'assistant', content: null, tool_calls: ids.map(id => call(id))});
const result = (id: string): ToolMessage => ({role: 'tool', tool_call_id: id, content: `result of ${id}`});

/** Three steps after the opening one: parallel calls with an image, a single call, then an answer; a compaction summary and a context snapshot among them. */
function wellFormed(): Message[] {
	return [
		{role: 'system', content: 'You are i.'},
		{role: 'user', content: 'Summary of the earlier conversation', _compact_summary: true} as Message,
		{role: 'user', content: 'read a, b and show c.png'},
		{role: 'user', content: 'memory snapshot', _context: 'memory'} as Message,
		{...calls('a', 'b', 'c'), content: 'reading'},
		result('b'),
		result('a'),
		result('c'),
		{
			role: 'user',
			content: [
				{type: 'text', text: 'Images from tool call c:'},
				{type: 'image_url', image_url: {url: 'data:image/png;base64,AAAA'}},
			],
			_tool_call_id: 'c',
		},
		{
			role: 'assistant',
			content: null,
			tool_calls: [call('d')],
			_anthropic_content: [
				{type: 'thinking', thinking: 'hm', signature: 's'},
				{type: 'text', text: ''},
				{type: 'tool_use', id: 'd', name: 'read', input: {}},
			],
		},
		result('d'),
		{role: 'assistant', content: null, tool_calls: [call('e'), call('f')], _responses_output: [{type: 'reasoning'}, {type: 'function_call', call_id: 'f'}, {type: 'function_call', call_id: 'e'}]},
		result('e'),
		result('f'),
		{role: 'assistant', content: 'done', _anthropic_content: [{type: 'text', text: 'done'}]},
		{role: 'user', content: 'thanks'},
		{role: 'assistant', content: null, tool_calls: []},
	];
}

test('a well-formed history with parallel calls, results out of order, images and replay items passes', () => {
	assert.equal(historyShapeProblem(wellFormed()), null);
	assert.equal(historyShapeProblem([]), null);
	assert.equal(historyShapeProblem([{role: 'user', content: 'no system prompt is not a fault'}]), null);
	// Replay items that are nothing but empty text are not sent: the tool calls go instead.
	assert.equal(historyShapeProblem([{...calls('x'), _anthropic_content: [{type: 'text', text: ' '}]}, result('x')]), null);
});

const breaks: Array<[string, Message[], {index: number; role: string; problem: RegExp}]> = [
	[
		'an orphan tool result after a user message',
		[
			{role: 'system', content: 's'},
			{role: 'user', content: 'u'},
			{role: 'tool', tool_call_id: 'nope', content: 'x'},
		],
		{index: 2, role: 'tool', problem: /^the tool result for "nope" answers no tool call of the assistant message before it$/},
	],
	['a tool result first of all', [result('a')], {index: 0, role: 'tool', problem: /answers no tool call/}],
	[
		'a result for a call the assistant did not make',
		[calls('a', 'b'), result('a'), result('z')],
		{index: 2, role: 'tool', problem: /"z" answers no tool call of the assistant message before it \(message 0 called "a", "b"\)$/},
	],
	['a result for an earlier assistant message', [calls('a'), result('a'), {role: 'assistant', content: 'ok'}, result('a')], {index: 3, role: 'tool', problem: /"a" answers no tool call/}],
	['a second result for one call', [calls('a', 'b'), result('a'), result('a'), result('b')], {index: 2, role: 'tool', problem: /^a second result for tool call "a"; each call gets exactly one$/}],
	['calls with no results at the end', [{role: 'user', content: 'u'}, calls('a')], {index: 1, role: 'assistant', problem: /^tool call "a" \(read\) gets no result; every tool call needs exactly one$/}],
	[
		'a call left unanswered before the next user message',
		[calls('a', 'b'), result('b'), {role: 'user', content: 'u'}],
		{index: 0, role: 'assistant', problem: /^tool call "a" \(read\) gets no result before message 2/},
	],
	['a call left unanswered before the next assistant message', [calls('a'), {role: 'assistant', content: 'x'}], {index: 0, role: 'assistant', problem: /gets no result before message 1/}],
	[
		'a result after the image message that closed the run',
		[calls('a', 'b'), result('a'), {role: 'user', content: 'img', _tool_call_id: 'a'}, result('b')],
		{index: 0, role: 'assistant', problem: /"b" \(read\) gets no result before message 2/},
	],
	['one ID twice in one message', [calls('a', 'a'), result('a')], {index: 0, role: 'assistant', problem: /^tool call ID "a" appears twice in this message$/}],
	['a call with no ID', [{role: 'assistant', content: null, tool_calls: [call('')]}], {index: 0, role: 'assistant', problem: /^tool call 1 has no ID$/}],
	['a call with no tool name', [{role: 'assistant', content: null, tool_calls: [call('a', '')]}], {index: 0, role: 'assistant', problem: /^tool call "a" has no tool name$/}],
	[
		'a system message after the first',
		[
			{role: 'system', content: 's'},
			{role: 'user', content: 'u'},
			{role: 'system', content: 'again'},
		],
		{index: 2, role: 'system', problem: /^a system message may only come first in the history$/},
	],
	['an unknown role', [{role: 'user', content: 'u'}, {role: 'robot', content: 'x'} as unknown as Message], {index: 1, role: 'robot', problem: /^role "robot" is not system, user, assistant or tool$/}],
	[
		'Anthropic replay items naming other calls',
		[{...calls('a'), _anthropic_content: [{type: 'thinking', thinking: 't'}]}, result('a')],
		{index: 0, role: 'assistant', problem: /^its _anthropic_content, sent in its place, names tool calls \(none\) where tool_calls has "a"$/},
	],
	[
		'Responses replay items naming other calls',
		[{...calls('a'), _responses_output: [{type: 'function_call', call_id: 'b'}]}, result('a')],
		{index: 0, role: 'assistant', problem: /^its _responses_output, sent in its place, names tool calls "b" where tool_calls has "a"$/},
	],
	[
		'Responses replay items with a call the message lacks',
		[{role: 'assistant', content: 'x', _responses_output: [{type: 'function_call', call_id: 'b'}]}],
		{index: 0, role: 'assistant', problem: /names tool calls "b" where tool_calls has \(none\)/},
	],
];

for (const [name, messages, expected] of breaks) {
	test(`the check names ${name}`, () => {
		const found = historyShapeProblem(messages);
		assert.ok(found, 'a problem is found');
		assert.equal(found.index, expected.index);
		assert.equal(found.role, expected.role);
		assert.match(found.problem, expected.problem);
		// The first problem only: the well-formed history before it changes nothing.
		const rest = messages[0]?.role === 'system' ? messages.slice(1) : messages;
		const prefixed = historyShapeProblem([...wellFormed(), {role: 'user', content: 'next'}, ...rest]);
		assert.ok(prefixed, `${name}: still found after a long well-formed history`);
	});
}

test('the first problem is the one reported, and described with its index and role', () => {
	const found = historyShapeProblem([{role: 'user', content: 'u'}, result('x'), {role: 'system', content: 's'}]);
	assert.equal(describeShapeProblem(found!), 'message 1 (tool): the tool result for "x" answers no tool call of the assistant message before it');
});

test('awaitingResults: only the last message may still wait for its results', () => {
	const history: Message[] = [
		{role: 'system', content: 's'},
		{role: 'user', content: 'u'},
	];
	assert.equal(historyShapeProblem([...history, calls('a', 'b')], {awaitingResults: true}), null);
	assert.match(historyShapeProblem([...history, calls('a')])!.problem, /gets no result/);
	assert.match(historyShapeProblem([...history, calls('a'), {role: 'user', content: 'u'}, calls('b')], {awaitingResults: true})!.problem, /"a" \(read\) gets no result before message 3/);
	// Some OpenAI-compatible servers number calls afresh in every reply: an ID an earlier step used is fine.
	assert.equal(historyShapeProblem([...history, calls('a'), result('a'), {role: 'user', content: 'u'}, calls('a')], {awaitingResults: true}), null);
	assert.match(historyShapeProblem([...history, calls('a', 'b'), result('a')], {awaitingResults: true})!.problem, /"b" \(read\) gets no result/);
});

test('step by step: a result belongs to the step of its call, a refused step changes nothing, a compaction step starts afresh', () => {
	const shape = new HistoryShape();
	const opening: Message[] = [
		{role: 'system', content: 's'},
		{role: 'user', content: 'u'},
	];
	assert.equal(shape.problemOf(opening), null);
	shape.add(opening);
	// The call in one step, its result in the next: each step must be complete on its own.
	const unanswered = shape.problemOf([calls('a')]);
	assert.deepEqual(unanswered, {index: 0, role: 'assistant', problem: 'tool call "a" (read) gets no result; every tool call needs exactly one'});
	assert.match(shape.problemOf([result('a')])!.problem, /answers no tool call/);
	// Refused steps left no trace: "a" is still free, and a system message is still not first.
	assert.equal(shape.problemOf([calls('a'), result('a')]), null);
	shape.add([calls('a'), result('a')]);
	assert.equal(shape.problemOf([calls('a'), result('a')]), null, 'an ID an earlier step used');
	assert.deepEqual(shape.problemOf([{role: 'system', content: 's'}]), {index: 0, role: 'system', problem: 'a system message may only come first in the history'});
	// A compaction checkpoint is the whole history from then on.
	const compacted: Message[] = [{role: 'system', content: 's'}, {role: 'user', content: 'summary'}, calls('a'), result('a')];
	assert.equal(shape.problemOf(compacted, {replaces: true}), null);
	shape.add(compacted, {replaces: true});
	assert.match(shape.problemOf([{role: 'system', content: 's'}])!.problem, /may only come first/);
	assert.equal(shape.problemOf([{role: 'user', content: 'u'}, calls('b'), result('b')]), null);
});
