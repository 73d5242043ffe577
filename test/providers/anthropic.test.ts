import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createAnthropicAdapter} from '../../source/core/providers/anthropic.js';
import {ProviderError, StreamProtocolError} from '../../source/core/providers/errors.js';
import type {Message} from '../../source/core/messages.js';
import {adapterOptions, assemble, sse, texts} from './helpers.js';

const tools = [{name: 'read', description: 'Read files', parameters: {type: 'object'}}];

test('prepare: URL, headers, required max_tokens, top-level system, input_schema tools', () => {
	const adapter = createAnthropicAdapter(adapterOptions());
	const {url, body} = adapter.prepare(
		[
			{role: 'system', content: 'Be brief.'},
			{role: 'system', content: 'Be kind.'},
			{role: 'user', content: 'hi'},
		],
		tools,
	);
	assert.equal(url, 'https://api.anthropic.com/v1/messages');
	assert.deepEqual(adapter.headers('sk-ant'), {'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01'});
	assert.equal(body.max_tokens, 8192);
	assert.equal(body.stream, true);
	assert.equal(body.system, 'Be brief.\n\nBe kind.');
	assert.deepEqual(body.tools, [{name: 'read', description: 'Read files', input_schema: {type: 'object'}}]);
	assert.deepEqual(body.messages, [{role: 'user', content: [{type: 'text', text: 'hi'}]}]);

	const configured = createAnthropicAdapter(adapterOptions({maxTokens: 1000, baseUrl: 'http://127.0.0.1:9/', extraBody: {thinking: {type: 'enabled', budget_tokens: 500}}}));
	const prepared = configured.prepare([{role: 'user', content: 'x'}], []);
	assert.equal(prepared.url, 'http://127.0.0.1:9/v1/messages');
	assert.equal(prepared.body.max_tokens, 1000);
	assert.deepEqual(prepared.body.thinking, {type: 'enabled', budget_tokens: 500});
	assert.equal('system' in prepared.body, false);
	assert.equal('tools' in prepared.body, false);
	assert.throws(() => createAnthropicAdapter(adapterOptions({extraBody: {system: 'x'}})).prepare([], []), /extra_body may not set "system"/);
});

test('prepare: tool results and the image a tool produced form one user turn; replayed blocks stay verbatim', () => {
	const replayed = [
		{type: 'thinking', thinking: 'plan', signature: 'sig=='},
		{type: 'redacted_thinking', data: 'opaque'},
		{type: 'tool_use', id: 'tu_1', name: 'view_image', input: {path: 'a.png'}},
		{type: 'tool_use', id: 'tu_2', name: 'read', input: {path: 'b'}},
	];
	const history: Message[] = [
		{role: 'user', content: 'show me'},
		{role: 'assistant', content: null, tool_calls: [], _anthropic_content: replayed},
		{role: 'tool', tool_call_id: 'tu_1', content: 'image attached'},
		{role: 'tool', tool_call_id: 'tu_2', content: 'text of b'},
		{role: 'user', content: [{type: 'image_url', image_url: {url: 'data:image/png;base64,iVBORw0KGgo='}}], _tool_call_id: 'tu_1'},
		{role: 'assistant', content: 'Seen.'},
		{role: 'assistant', content: 'Also.', tool_calls: [{id: 'tu_3', type: 'function', function: {name: 'read', arguments: '{"path":"c"}'}}]},
		{role: 'tool', tool_call_id: 'tu_3', content: 'c'},
		{role: 'user', content: ''},
		{
			role: 'user',
			content: [
				{type: 'text', text: 'and now?'},
				{type: 'image_url', image_url: {url: 'https://example.com/x.jpg'}},
			],
		},
	];
	const {body} = createAnthropicAdapter(adapterOptions()).prepare(history, []);
	assert.deepEqual(body.messages, [
		{role: 'user', content: [{type: 'text', text: 'show me'}]},
		{role: 'assistant', content: replayed},
		{
			role: 'user',
			content: [
				{type: 'tool_result', tool_use_id: 'tu_1', content: 'image attached'},
				{type: 'tool_result', tool_use_id: 'tu_2', content: 'text of b'},
				{type: 'image', source: {type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo='}},
			],
		},
		{
			role: 'assistant',
			content: [
				{type: 'text', text: 'Seen.'},
				{type: 'text', text: 'Also.'},
				{type: 'tool_use', id: 'tu_3', name: 'read', input: {path: 'c'}},
			],
		},
		{
			role: 'user',
			content: [
				{type: 'tool_result', tool_use_id: 'tu_3', content: 'c'},
				{type: 'text', text: 'and now?'},
				{type: 'image', source: {type: 'url', url: 'https://example.com/x.jpg'}},
			],
		},
	]);
	assert.doesNotMatch(JSON.stringify(body), /"_/);
});

test('prepare: the result of a failed tool says is_error; a successful one does not', () => {
	const {body} = createAnthropicAdapter(adapterOptions()).prepare(
		[
			{role: 'assistant', content: null, tool_calls: [{id: 'tu_1', type: 'function', function: {name: 'read', arguments: '{}'}}]},
			{role: 'tool', tool_call_id: 'tu_1', content: 'Error: no such file', _is_error: true},
			{role: 'tool', tool_call_id: 'tu_2', content: 'fine', _is_error: false},
		],
		[],
	);
	assert.deepEqual(body.messages, [
		{role: 'assistant', content: [{type: 'tool_use', id: 'tu_1', name: 'read', input: {}}]},
		{
			role: 'user',
			content: [
				{type: 'tool_result', tool_use_id: 'tu_1', content: 'Error: no such file', is_error: true},
				{type: 'tool_result', tool_use_id: 'tu_2', content: 'fine'},
			],
		},
	]);
	assert.doesNotMatch(JSON.stringify(body), /"_/);
});

test('prepare: empty text blocks in a replayed reply are dropped; a reply with nothing else left is rebuilt or skipped', () => {
	const thinking = {type: 'thinking', thinking: 'hm', signature: 'sig'};
	const use = {type: 'tool_use', id: 'tu_1', name: 'read', input: {path: 'a'}};
	const {body} = createAnthropicAdapter(adapterOptions()).prepare(
		[
			{role: 'user', content: 'one'},
			{role: 'assistant', content: null, tool_calls: [], _anthropic_content: [thinking, {type: 'text', text: ''}, use, {type: 'text', text: ' \n'}]},
			{role: 'user', content: 'two'},
			{role: 'assistant', content: null, _anthropic_content: [{type: 'text', text: ''}]},
			{role: 'user', content: 'three'},
			{role: 'assistant', content: 'Rebuilt.', _anthropic_content: [{type: 'text', text: ''}]},
		],
		[],
	);
	assert.deepEqual(body.messages, [
		{role: 'user', content: [{type: 'text', text: 'one'}]},
		{role: 'assistant', content: [thinking, use]},
		// The empty reply is no turn, so the user turns around it merge.
		{
			role: 'user',
			content: [
				{type: 'text', text: 'two'},
				{type: 'text', text: 'three'},
			],
		},
		{role: 'assistant', content: [{type: 'text', text: 'Rebuilt.'}]},
	]);
});

test('prepare: tool arguments that are not a JSON object replay as an empty input', () => {
	const {body} = createAnthropicAdapter(adapterOptions()).prepare([{role: 'assistant', content: null, tool_calls: [{id: 't', type: 'function', function: {name: 'read', arguments: '{broken'}}]}], []);
	assert.deepEqual(body.messages, [{role: 'assistant', content: [{type: 'tool_use', id: 't', name: 'read', input: {}}]}]);
});

const ev = (data: Record<string, unknown>) => sse(data, String(data.type));
const start = ev({
	type: 'message_start',
	message: {
		id: 'msg_1',
		type: 'message',
		role: 'assistant',
		content: [],
		usage: {input_tokens: 20, cache_creation_input_tokens: 300, cache_read_input_tokens: 4000, output_tokens: 1},
	},
});
const block = (index: number, content_block: Record<string, unknown>, deltas: Array<Record<string, unknown>>) =>
	ev({type: 'content_block_start', index, content_block}) + deltas.map(delta => ev({type: 'content_block_delta', index, delta})).join('') + ev({type: 'content_block_stop', index});
const end = (stop_reason: string, output_tokens = 77) => ev({type: 'message_delta', delta: {stop_reason, stop_sequence: null}, usage: {output_tokens}}) + ev({type: 'message_stop'});

test('assembly: thinking with signature, redacted thinking, text and tool use become the reply and its replay blocks', async () => {
	const body =
		start +
		block(0, {type: 'thinking', thinking: '', signature: ''}, [
			{type: 'thinking_delta', thinking: 'I should '},
			{type: 'thinking_delta', thinking: 'read it.'},
			{type: 'signature_delta', signature: 'EqQBCkYI'},
		]) +
		ev({type: 'ping'}) +
		block(1, {type: 'redacted_thinking', data: 'cipher'}, []) +
		block(2, {type: 'text', text: ''}, [
			{type: 'text_delta', text: 'Reading '},
			{type: 'text_delta', text: 'the file.'},
		]) +
		block(3, {type: 'tool_use', id: 'toolu_1', name: 'read', input: {}}, [
			{type: 'input_json_delta', partial_json: ''},
			{type: 'input_json_delta', partial_json: '{"path": "a'},
			{type: 'input_json_delta', partial_json: '.txt"}'},
		]) +
		block(4, {type: 'tool_use', id: 'toolu_2', name: 'list', input: {}}, []) +
		end('tool_use');
	const {reply, events} = await assemble(createAnthropicAdapter(adapterOptions()), body);
	assert.equal(texts(events, 'thinking_delta'), 'I should read it.');
	assert.equal(texts(events, 'text_delta'), 'Reading the file.');
	assert.deepEqual(reply?.message, {
		role: 'assistant',
		content: 'Reading the file.',
		tool_calls: [
			{id: 'toolu_1', type: 'function', function: {name: 'read', arguments: '{"path": "a.txt"}'}},
			{id: 'toolu_2', type: 'function', function: {name: 'list', arguments: '{}'}},
		],
		_anthropic_content: [
			{type: 'thinking', thinking: 'I should read it.', signature: 'EqQBCkYI'},
			{type: 'redacted_thinking', data: 'cipher'},
			{type: 'text', text: 'Reading the file.'},
			{type: 'tool_use', id: 'toolu_1', name: 'read', input: {path: 'a.txt'}},
			{type: 'tool_use', id: 'toolu_2', name: 'list', input: {}},
		],
	});
	assert.equal(reply?.finishReason, 'tool_calls');
	assert.equal(reply?.rawFinishReason, 'tool_use');
	assert.deepEqual(reply?.usage, {
		input: 4320,
		output: 77,
		cacheRead: 4000,
		cacheWrite: 300,
		raw: {input_tokens: 20, cache_creation_input_tokens: 300, cache_read_input_tokens: 4000, output_tokens: 77},
	});
});

test('assembly: stop reasons map', async () => {
	const adapter = createAnthropicAdapter(adapterOptions());
	for (const [raw, mapped] of [
		['end_turn', 'stop'],
		['stop_sequence', 'stop'],
		['max_tokens', 'length'],
		['refusal', 'content_filter'],
		['pause_turn', 'other'],
	]) {
		const {reply} = await assemble(adapter, start + block(0, {type: 'text', text: ''}, [{type: 'text_delta', text: 'x'}]) + end(raw!));
		assert.equal(reply?.finishReason, mapped, raw);
	}
});

test('assembly: a stream without message_stop is truncated and keeps its partial text', async () => {
	const body = start + ev({type: 'content_block_start', index: 0, content_block: {type: 'text', text: ''}}) + ev({type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text: 'Half an ans'}});
	const {error, partialText} = await assemble(createAnthropicAdapter(adapterOptions()), body);
	assert.ok(error instanceof StreamProtocolError);
	assert.equal(error.message, 'anthropic stream ended before message_stop (truncated response)');
	assert.equal(partialText, 'Half an ans');
});

test('assembly: an error event fails with the provider type and message', async () => {
	const body = start + ev({type: 'error', error: {type: 'overloaded_error', message: 'Overloaded'}});
	const {error} = await assemble(createAnthropicAdapter(adapterOptions()), body);
	assert.ok(error instanceof ProviderError);
	assert.equal(error.kind, 'stream');
	assert.equal(error.retryable, true);
	assert.equal(error.message, 'anthropic: error in stream: overloaded_error: Overloaded');
});

test('assembly: malformed JSON, broken tool input and a missing tool id are protocol errors', async () => {
	const adapter = createAnthropicAdapter(adapterOptions());
	const malformed = await assemble(adapter, start + 'event: content_block_start\ndata: {nope\n\n');
	assert.match(malformed.error?.message ?? '', /^anthropic stream: malformed JSON in data line: \{nope$/);

	const badInput = await assemble(adapter, start + block(0, {type: 'tool_use', id: 't', name: 'read', input: {}}, [{type: 'input_json_delta', partial_json: '{"a":'}]) + end('tool_use'));
	assert.match(badInput.error?.message ?? '', /anthropic stream: tool input of content block 0 is not valid JSON/);

	const noId = await assemble(adapter, start + block(0, {type: 'tool_use', name: 'read', input: {}}, []) + end('tool_use'));
	assert.match(noId.error?.message ?? '', /anthropic stream: tool_use block 0 has no id/);

	const strayDelta = await assemble(adapter, start + ev({type: 'content_block_delta', index: 3, delta: {type: 'text_delta', text: 'x'}}));
	assert.match(strayDelta.error?.message ?? '', /delta for content block 3, which is not open/);
});
