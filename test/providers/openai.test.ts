import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createOpenAiAdapter} from '../../source/core/providers/openai.js';
import {ProviderError, StreamProtocolError} from '../../source/core/providers/errors.js';
import type {Message} from '../../source/core/messages.js';
import {adapterOptions, assemble, sse, texts} from './helpers.js';

const tools = [{name: 'read', description: 'Read files', parameters: {type: 'object', properties: {path: {type: 'string'}}}}];

const history: Message[] = [
	{role: 'system', content: 'You are terse.'},
	{
		role: 'user',
		content: [
			{type: 'text', text: 'look'},
			{type: 'image_url', image_url: {url: 'data:image/png;base64,AAAA'}},
		],
	},
	{
		role: 'assistant',
		content: null,
		reasoning_content: 'secret thoughts',
		_anthropic_content: [{type: 'thinking', thinking: 'x', signature: 's'}],
		tool_calls: [{id: 'call_1', type: 'function', function: {name: 'read', arguments: '{"path":"a"}'}}],
	},
	{role: 'tool', tool_call_id: 'call_1', content: 'file a', _is_error: true},
	{role: 'user', content: 'thanks', _tool_call_id: 'call_1'},
	{role: 'assistant', content: null},
];

test('prepare: URL, streaming with usage, tools, and max_completion_tokens by default', () => {
	const adapter = createOpenAiAdapter(adapterOptions({maxTokens: 100}));
	const {url, body} = adapter.prepare([{role: 'user', content: 'hi'}], tools);
	assert.equal(url, 'https://api.openai.com/v1/chat/completions');
	assert.equal(body.model, 'test-model');
	assert.equal(body.stream, true);
	assert.deepEqual(body.stream_options, {include_usage: true});
	assert.equal(body.max_completion_tokens, 100);
	assert.equal('max_tokens' in body, false);
	assert.deepEqual(body.tools, [{type: 'function', function: tools[0]}]);
	assert.deepEqual(adapter.headers('sk-1'), {authorization: 'Bearer sk-1'});
});

test('prepare: use_max_tokens sends max_tokens; no tools means no tools field; one trailing slash is dropped', () => {
	const adapter = createOpenAiAdapter(adapterOptions({maxTokens: 5, useMaxTokens: true, baseUrl: 'http://proxy.local/v1/'}));
	const {url, body} = adapter.prepare([{role: 'user', content: 'hi'}], []);
	assert.equal(url, 'http://proxy.local/v1/chat/completions');
	assert.equal(body.max_tokens, 5);
	assert.equal('max_completion_tokens' in body, false);
	assert.equal('tools' in body, false);
	assert.equal('max_tokens' in createOpenAiAdapter(adapterOptions()).prepare([], []).body, false);
});

test('prepare: history converts to Chat messages and no local field or reasoning leaves', () => {
	const {body} = createOpenAiAdapter(adapterOptions()).prepare(history, []);
	assert.deepEqual(body.messages, [
		{role: 'system', content: 'You are terse.'},
		{
			role: 'user',
			content: [
				{type: 'text', text: 'look'},
				{type: 'image_url', image_url: {url: 'data:image/png;base64,AAAA'}},
			],
		},
		{
			role: 'assistant',
			content: null,
			tool_calls: [{id: 'call_1', type: 'function', function: {name: 'read', arguments: '{"path":"a"}'}}],
		},
		{role: 'tool', tool_call_id: 'call_1', content: 'file a'},
		{role: 'user', content: 'thanks'},
		{role: 'assistant', content: ''},
	]);
	assert.doesNotMatch(JSON.stringify(body), /reasoning_content|"_/);
});

test('prepare: extra_body merges at the top level and may not touch reserved fields', () => {
	const {body} = createOpenAiAdapter(adapterOptions({extraBody: {temperature: 0.2, prompt_cache_key: 'k'}})).prepare([], []);
	assert.equal(body.temperature, 0.2);
	assert.equal(body.prompt_cache_key, 'k');
	const adapter = createOpenAiAdapter(adapterOptions({extraBody: {stream: false}}));
	assert.throws(() => adapter.prepare([], []), /openai: extra_body may not set "stream"/);
	assert.ok(adapter.reservedBodyFields.includes('max_completion_tokens'));
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sse({id: 'c', object: 'chat.completion.chunk', choices: [{index: 0, delta, finish_reason: finish}], usage: null});
const usage = sse({
	id: 'c',
	choices: [],
	usage: {prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: {cached_tokens: 100}},
});

test('assembly: text deltas stream live, usage maps with the cached part inside input', async () => {
	const body = chunk({role: 'assistant', content: ''}) + chunk({content: 'Hel'}) + chunk({content: 'lo 你好'}) + chunk({}, 'stop') + usage + 'data: [DONE]\n\n';
	const {reply, events} = await assemble(createOpenAiAdapter(adapterOptions()), body);
	assert.deepEqual(events, [
		{type: 'text_delta', text: 'Hel'},
		{type: 'text_delta', text: 'lo 你好'},
	]);
	assert.deepEqual(reply?.message, {role: 'assistant', content: 'Hello 你好'});
	assert.equal(reply?.finishReason, 'stop');
	assert.equal(reply?.rawFinishReason, 'stop');
	assert.deepEqual(reply?.usage, {
		input: 120,
		output: 30,
		cacheRead: 100,
		cacheWrite: 0,
		raw: {prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: {cached_tokens: 100}},
	});
});

test('assembly: tool calls assemble from fragments keyed by index', async () => {
	const body =
		chunk({role: 'assistant', content: null}) +
		chunk({tool_calls: [{index: 0, id: 'call_a', type: 'function', function: {name: 'read', arguments: ''}}]}) +
		chunk({tool_calls: [{index: 0, function: {arguments: '{"pa'}}]}) +
		chunk({tool_calls: [{index: 1, id: 'call_b', type: 'function', function: {name: 'glob', arguments: '{"pattern"'}}]}) +
		chunk({tool_calls: [{index: 0, function: {arguments: 'th":"a"}'}}]}) +
		chunk({tool_calls: [{index: 1, function: {arguments: ':"*"}'}}]}) +
		chunk({}, 'tool_calls') +
		'data: [DONE]\n\n';
	const {reply} = await assemble(createOpenAiAdapter(adapterOptions()), body);
	assert.deepEqual(reply?.message, {
		role: 'assistant',
		content: null,
		tool_calls: [
			{id: 'call_a', type: 'function', function: {name: 'read', arguments: '{"path":"a"}'}},
			{id: 'call_b', type: 'function', function: {name: 'glob', arguments: '{"pattern":"*"}'}},
		],
	});
	assert.equal(reply?.finishReason, 'tool_calls');
	assert.equal(reply?.usage, null);
});

test('assembly: finish reasons map; an unknown one is "other"', async () => {
	const adapter = createOpenAiAdapter(adapterOptions());
	for (const [raw, mapped] of [
		['length', 'length'],
		['content_filter', 'content_filter'],
		['tool_calls', 'tool_calls'],
		['something_new', 'other'],
	]) {
		const {reply} = await assemble(adapter, chunk({content: 'x'}, raw) + 'data: [DONE]\n\n');
		assert.equal(reply?.finishReason, mapped);
		assert.equal(reply?.rawFinishReason, raw);
	}
});

test('assembly: a stream without [DONE] is truncated, and keeps its partial text', async () => {
	const {error, partialText} = await assemble(createOpenAiAdapter(adapterOptions()), chunk({content: 'Hel'}) + chunk({content: 'lo'}));
	assert.ok(error instanceof StreamProtocolError);
	assert.equal(error.message, 'openai stream ended before [DONE] (truncated response)');
	assert.equal(partialText, 'Hello');
});

test('assembly: a malformed data line is a protocol error quoting the line', async () => {
	const {error, partialText} = await assemble(createOpenAiAdapter(adapterOptions()), chunk({content: 'Hi'}) + 'data: {"choices": [oops\n\n');
	assert.ok(error instanceof StreamProtocolError);
	assert.equal(error.message, 'openai stream: malformed JSON in data line: {"choices": [oops');
	assert.equal(partialText, 'Hi');
});

test('assembly: a chunk of the wrong shape is a protocol error naming the field', async () => {
	const {error} = await assemble(createOpenAiAdapter(adapterOptions()), sse({choices: [{index: 0, delta: {content: 5}}]}));
	assert.ok(error instanceof StreamProtocolError);
	assert.match(error.message, /openai stream: unexpected chunk at choices\.0\.delta\.content/);
});

test('assembly: an error object in the stream fails with the provider message', async () => {
	const {error} = await assemble(createOpenAiAdapter(adapterOptions()), chunk({content: 'a'}) + sse({error: {message: 'The server had an error', type: 'server_error'}}));
	assert.ok(error instanceof ProviderError);
	assert.equal(error.kind, 'stream');
	assert.equal(error.message, 'openai: error in stream: The server had an error');
});

test('assembly: a tool call without an id or a name fails at finish', async () => {
	const adapter = createOpenAiAdapter(adapterOptions());
	const noId = await assemble(adapter, chunk({tool_calls: [{index: 0, function: {name: 'read', arguments: '{}'}}]}) + 'data: [DONE]\n\n');
	assert.match(noId.error?.message ?? '', /openai stream: tool call at index 0 has no id/);
	const noName = await assemble(adapter, chunk({tool_calls: [{index: 0, id: 'x', function: {arguments: '{}'}}]}) + 'data: [DONE]\n\n');
	assert.match(noName.error?.message ?? '', /openai stream: tool call at index 0 has no function name/);
});

test('assembly: reasoning_content from an OpenAI-compatible server shows as thinking but is not kept', async () => {
	const {reply, events} = await assemble(createOpenAiAdapter(adapterOptions()), chunk({reasoning_content: 'hmm'}) + chunk({content: 'ok'}, 'stop') + 'data: [DONE]\n\n');
	assert.equal(texts(events, 'thinking_delta'), 'hmm');
	assert.deepEqual(reply?.message, {role: 'assistant', content: 'ok'});
});
