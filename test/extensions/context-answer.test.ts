// A Context answer is checked as a hook's history is (issue 47, point 6).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {Message} from '../../source/core/messages.js';
import {readContextAnswer} from '../../source/core/extensions/event-answers.js';

const given: {messages: Message[]} = {
	messages: [
		{role: 'system', content: 'be brief'},
		{role: 'user', content: 'hi'},
	],
};

test('a well-formed history replaces what the request carries; no answer keeps it', () => {
	const messages: Message[] = [
		...given.messages,
		{role: 'assistant', content: null, tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}}]},
		{role: 'tool', tool_call_id: 'c1', content: 'ok'},
	];
	assert.deepEqual(readContextAnswer({messages}, given)?.messages, messages);
	assert.equal(readContextAnswer({}, given), undefined);
});

test('a history the provider would refuse is refused, saying which message and why', () => {
	const refusals: Array<[unknown, RegExp]> = [
		[[...given.messages, {role: 'tool', tool_call_id: 'ghost', content: 'stray'}], /message 2 \(tool\): the tool result for "ghost" answers no tool call/],
		[
			[...given.messages, {role: 'assistant', content: null, tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}}]}],
			/message 2 \(assistant\): tool call "c1" \(read\) gets no result/,
		],
		[[given.messages[1], given.messages[0]], /message 1 \(system\): a system message may only come first/],
		[[...given.messages, {role: 'user', content: 42}], /message 2: content: /],
		[[...given.messages, {role: 'robot', content: 'beep'}], /message 2: /],
		[[], /"messages" is empty/],
		['not a list', /must be a list of messages/],
	];
	for (const [messages, reason] of refusals) assert.throws(() => readContextAnswer({messages}, given), reason, JSON.stringify(messages));
});
