import {test} from 'node:test';
import assert from 'node:assert/strict';
import {parseArguments, validateBatch} from '../../source/core/agent/validate-batch.js';
import type {ModelReply} from '../../source/core/providers/types.js';
import {TurnError} from '../../source/core/errors.js';

function reply(toolCalls: unknown, finishReason: ModelReply['finishReason'] = 'tool_calls'): ModelReply {
	return {
		message: {role: 'assistant', content: null, tool_calls: toolCalls as never},
		finishReason,
		rawFinishReason: finishReason,
		usage: null,
	};
}

const call = (id: string, name = 'read', args = '{}') => ({id, type: 'function', function: {name, arguments: args}});

test('a well-formed batch passes whole, in order', () => {
	const calls = validateBatch(reply([call('a'), call('b', 'edit', '{"path":"x"}')]));
	assert.deepEqual(
		calls.map(item => item.id),
		['a', 'b'],
	);
});

test('a reply without tool calls is an empty batch', () => {
	assert.deepEqual(validateBatch(reply(undefined, 'stop')), []);
	assert.deepEqual(validateBatch(reply([], 'stop')), []);
});

test('every structural fault fails the whole batch before anything runs', () => {
	const cases: Array<[unknown, RegExp]> = [
		['not a list', /not a list/],
		[[null], /#1 is not an object/],
		[[{...call('a'), id: ''}], /#1 has no ID/],
		[[{...call('a'), id: 'x'.repeat(257)}], /longer than 256/],
		[[call('a'), call('a')], /#2 repeats the ID "a"/],
		[[{...call('a'), type: 'custom'}], /type "custom", not "function"/],
		[[{id: 'a', type: 'function'}], /has no function/],
		[[call('a', '')], /has no tool name/],
		[[{id: 'a', type: 'function', function: {name: 'read', arguments: {path: 'x'}}}], /arguments that are not a JSON string/],
	];
	for (const [calls, message] of cases) {
		assert.throws(
			() => validateBatch(reply(calls)),
			(error: Error) => error instanceof TurnError && message.test(error.message),
			String(message),
		);
	}
});

test('an ID of exactly 256 characters is accepted', () => {
	assert.equal(validateBatch(reply([call('x'.repeat(256))])).length, 1);
});

test('tool calls in a reply cut off at max_tokens or by a content filter are refused', () => {
	assert.throws(() => validateBatch(reply([call('a')], 'length')), /cut off .* raise max_tokens/);
	assert.throws(() => validateBatch(reply([call('a')], 'content_filter')), /content filter/);
	assert.equal(validateBatch(reply([call('a')], 'stop')).length, 1);
});

test('argument strings: objects pass, everything else is a message for the model', () => {
	assert.deepEqual(parseArguments('{"a":1}'), {ok: true, value: {a: 1}});
	assert.deepEqual(parseArguments(''), {ok: true, value: {}});
	for (const [text, message] of [
		['{"a":', /not valid JSON/],
		['[1,2]', /must be a JSON object/],
		['"text"', /must be a JSON object/],
		['null', /must be a JSON object/],
	] as const) {
		const result = parseArguments(text);
		assert.equal(result.ok, false);
		assert.match((result as {message: string}).message, message);
	}
});
