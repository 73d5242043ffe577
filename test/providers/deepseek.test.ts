import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createDeepSeekAdapter} from '../../source/core/providers/deepseek.js';
import type {Message} from '../../source/core/messages.js';
import {adapterOptions, assemble, sse, texts} from './helpers.js';

const call = (id: string) => [{id, type: 'function' as const, function: {name: 'read', arguments: '{}'}}];

test('prepare: default URL, max_tokens, streaming with usage', () => {
	const adapter = createDeepSeekAdapter(adapterOptions({maxTokens: 64, useMaxTokens: false}));
	const {url, body} = adapter.prepare([{role: 'user', content: 'hi'}], []);
	assert.equal(url, 'https://api.deepseek.com/chat/completions');
	assert.equal(body.max_tokens, 64);
	assert.equal('max_completion_tokens' in body, false);
	assert.deepEqual(body.stream_options, {include_usage: true});
	assert.deepEqual(adapter.headers('k-123'), {authorization: 'Bearer k-123'});
	assert.equal(createDeepSeekAdapter(adapterOptions({baseUrl: 'https://api.deepseek.com/'})).prepare([], []).url, 'https://api.deepseek.com/chat/completions');
});

test('prepare: reasoning_content goes back for a turn that called tools and is dropped elsewhere', () => {
	const history: Message[] = [
		{role: 'user', content: 'first'},
		{role: 'assistant', content: 'plain answer', reasoning_content: 'r0'},
		{role: 'user', content: 'second'},
		{role: 'assistant', content: null, reasoning_content: 'r1', tool_calls: call('c1')},
		{role: 'tool', tool_call_id: 'c1', content: 'out'},
		{role: 'user', content: [{type: 'image_url', image_url: {url: 'data:image/png;base64,AA'}}], _tool_call_id: 'c1'},
		{role: 'assistant', content: 'done', reasoning_content: 'r2'},
		{role: 'user', content: 'third'},
		{role: 'assistant', content: 'again', reasoning_content: 'r3'},
		{role: 'user', content: 'fourth'},
	];
	const messages = createDeepSeekAdapter(adapterOptions()).prepare(history, []).body.messages as Array<Record<string, unknown>>;
	const reasoning = messages.filter(message => message.role === 'assistant').map(message => message.reasoning_content);
	// r1 had tool calls; r2 is the same user turn's answer; r0 and r3 are plain turns.
	assert.deepEqual(reasoning, [undefined, 'r1', 'r2', undefined]);
	assert.deepEqual(messages[3], {role: 'assistant', content: null, reasoning_content: 'r1', tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}}]});
	assert.doesNotMatch(JSON.stringify(messages), /"_/);
});

test('prepare: text-only content parts become a plain string', () => {
	const messages = createDeepSeekAdapter(adapterOptions()).prepare(
		[
			{
				role: 'user',
				content: [
					{type: 'text', text: 'a'},
					{type: 'text', text: 'b'},
				],
			},
		],
		[],
	).body.messages;
	assert.deepEqual(messages, [{role: 'user', content: 'a\nb'}]);
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sse({id: 'd', choices: [{index: 0, delta, finish_reason: finish}]});

test('assembly: reasoning_content streams as thinking and is kept on the reply; cache hits map to cacheRead', async () => {
	const body =
		chunk({role: 'assistant', content: null, reasoning_content: ''}) +
		chunk({content: null, reasoning_content: 'Let me '}) +
		chunk({content: null, reasoning_content: 'think.'}) +
		chunk({content: 'Answer'}) +
		chunk({tool_calls: [{index: 0, id: 'call_0', type: 'function', function: {name: 'read', arguments: '{"p'}}]}) +
		chunk({tool_calls: [{index: 0, function: {arguments: '":1}'}}]}) +
		chunk({}, 'tool_calls') +
		sse({
			id: 'd',
			choices: [],
			usage: {prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050, prompt_cache_hit_tokens: 960, prompt_cache_miss_tokens: 40},
		}) +
		'data: [DONE]\n\n';
	const {reply, events} = await assemble(createDeepSeekAdapter(adapterOptions()), body);
	assert.equal(texts(events, 'thinking_delta'), 'Let me think.');
	assert.equal(texts(events, 'text_delta'), 'Answer');
	assert.deepEqual(reply?.message, {
		role: 'assistant',
		content: 'Answer',
		reasoning_content: 'Let me think.',
		tool_calls: [{id: 'call_0', type: 'function', function: {name: 'read', arguments: '{"p":1}'}}],
	});
	assert.equal(reply?.usage?.input, 1000);
	assert.equal(reply?.usage?.cacheRead, 960);
	assert.equal(reply?.usage?.output, 50);
	assert.equal(reply?.usage?.cacheWrite, 0);
});

test('assembly: an insufficient_system_resource finish is "other"; malformed usage is no usage', async () => {
	const {reply} = await assemble(createDeepSeekAdapter(adapterOptions()), chunk({content: 'x'}, 'insufficient_system_resource') + sse({choices: [], usage: {prompt_tokens: -1}}) + 'data: [DONE]\n\n');
	assert.equal(reply?.finishReason, 'other');
	assert.equal(reply?.usage, null);
	assert.equal(reply?.message.reasoning_content, undefined);
});
