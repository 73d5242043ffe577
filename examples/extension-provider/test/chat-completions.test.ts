import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {ProviderRequest} from 'i-agent/extension';
import {ChatAssembler, chatBody} from '../src/chat-completions.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => JSON.stringify({choices: [{index: 0, delta, finish_reason: finish}]});

test('the body: extra fields first, the neutral messages without the host’s "_" fields, tools as functions, max_tokens, streamed with usage', () => {
	const req: ProviderRequest = {
		model: 'm',
		messages: [{role: 'user', content: 'hi', _tool_call_id: 'x'}],
		tools: [{name: 'read', description: 'reads', parameters: {type: 'object'}}],
		maxTokens: 64,
		extra: {temperature: 0.1, model: 'overridden', stream: false},
	};
	assert.deepEqual(chatBody(req), {
		temperature: 0.1,
		model: 'm',
		messages: [{role: 'user', content: 'hi'}],
		tools: [{type: 'function', function: {name: 'read', description: 'reads', parameters: {type: 'object'}}}],
		max_tokens: 64,
		stream: true,
		stream_options: {include_usage: true},
	});
	assert.equal('tools' in chatBody({...req, tools: [], maxTokens: null}), false);
});

test('chunks become frames: thinking, text, tool-call fragments and usage, each block with its own content index; [DONE] closes them; the message is the whole answer', () => {
	const assembler = new ChatAssembler();
	const frames = [
		...assembler.push(chunk({reasoning_content: 'let me see'})),
		...assembler.push(chunk({content: 'Reading '})),
		...assembler.push(chunk({tool_calls: [{index: 0, id: 'call_9', function: {name: 'read', arguments: '{"pa'}}]})),
		...assembler.push(chunk({tool_calls: [{index: 0, function: {arguments: 'th":"a"}'}}]}, 'tool_calls')),
		...assembler.push(JSON.stringify({choices: [], usage: {prompt_tokens: 20, completion_tokens: 7, prompt_tokens_details: {cached_tokens: 16}}})),
	];
	assert.equal(assembler.done, false);
	frames.push(...assembler.push('[DONE]'));
	assert.equal(assembler.done, true);
	assert.deepEqual(frames, [
		{type: 'thinking_start', contentIndex: 0},
		{type: 'thinking_delta', contentIndex: 0, delta: 'let me see'},
		{type: 'text_start', contentIndex: 1},
		{type: 'text_delta', contentIndex: 1, delta: 'Reading '},
		{type: 'toolcall_start', contentIndex: 2, id: 'call_9', name: 'read'},
		{type: 'toolcall_delta', contentIndex: 2, delta: '{"pa'},
		{type: 'toolcall_delta', contentIndex: 2, delta: 'th":"a"}'},
		{type: 'usage', usage: {input: 20, output: 7, cacheRead: 16}},
		{type: 'thinking_end', contentIndex: 0},
		{type: 'text_end', contentIndex: 1},
		{type: 'toolcall_end', contentIndex: 2},
	]);
	assert.deepEqual(assembler.message(), {
		role: 'assistant',
		content: 'Reading ',
		tool_calls: [{id: 'call_9', type: 'function', function: {name: 'read', arguments: '{"path":"a"}'}}],
		reasoning_content: 'let me see',
		finish_reason: 'tool_calls',
		usage: {input: 20, output: 7, cacheRead: 16},
	});
});

test('a data line that is not JSON, or an error in the stream, is an error saying so', () => {
	assert.throws(() => new ChatAssembler().push('{oops'), /the server sent a data line that is not JSON: \{oops/);
	assert.throws(() => new ChatAssembler().push(JSON.stringify({error: {message: 'overloaded'}})), /the server reported an error in the stream: overloaded/);
});
