import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createResponsesAdapter} from '../../source/core/providers/responses.js';
import {ProviderError, StreamProtocolError} from '../../source/core/providers/errors.js';
import type {Message} from '../../source/core/messages.js';
import {adapterOptions, assemble, sse, texts} from './helpers.js';

test('prepare: URL, instructions from system messages, flat function tools, max_output_tokens', () => {
	const adapter = createResponsesAdapter(adapterOptions({maxTokens: 2048, extraBody: {store: false, reasoning: {effort: 'low'}}}));
	const {url, body} = adapter.prepare(
		[
			{role: 'system', content: 'Rules.'},
			{role: 'user', content: 'hi'},
		],
		[{name: 'read', description: 'Read', parameters: {type: 'object'}}],
	);
	assert.equal(url, 'https://api.openai.com/v1/responses');
	assert.equal(body.instructions, 'Rules.');
	assert.equal(body.stream, true);
	assert.equal(body.max_output_tokens, 2048);
	assert.equal(body.store, false);
	assert.deepEqual(body.reasoning, {effort: 'low'});
	// An omitted strict means true on this API, which makes every optional parameter required.
	assert.deepEqual(body.tools, [{type: 'function', name: 'read', description: 'Read', parameters: {type: 'object'}, strict: false}]);
	assert.deepEqual(body.input, [{role: 'user', content: 'hi'}]);
	assert.deepEqual(adapter.headers('sk-r'), {authorization: 'Bearer sk-r'});
	const bare = createResponsesAdapter(adapterOptions()).prepare([], []).body;
	assert.deepEqual(Object.keys(bare).sort(), ['input', 'model', 'stream']);
	assert.throws(() => createResponsesAdapter(adapterOptions({extraBody: {input: []}})).prepare([], []), /extra_body may not set "input"/);
});

test('prepare: with store false, replayed reasoning needs its encrypted content; include is asked for unless extra_body sets it', () => {
	const prepare = (extraBody: Record<string, unknown>) => createResponsesAdapter(adapterOptions({extraBody})).prepare([{role: 'user', content: 'hi'}], []).body;
	assert.deepEqual(prepare({store: false}).include, ['reasoning.encrypted_content']);
	assert.deepEqual(prepare({store: false, include: ['message.output_text.logprobs']}).include, ['message.output_text.logprobs']);
	assert.deepEqual(prepare({store: false, include: []}).include, []);
	assert.equal('include' in prepare({}), false);
	assert.equal('include' in prepare({store: true}), false);
});

test('prepare: output items replay verbatim; other history becomes input items', () => {
	const output = [
		{type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc'},
		{type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read', arguments: '{"path":"a.png"}', status: 'completed'},
	];
	const history: Message[] = [
		{
			role: 'user',
			content: [
				{type: 'text', text: 'look'},
				{type: 'image_url', image_url: {url: 'data:image/png;base64,AA'}},
			],
		},
		{role: 'assistant', content: null, tool_calls: [{id: 'call_1', type: 'function', function: {name: 'read', arguments: '{}'}}], _responses_output: output},
		{role: 'tool', tool_call_id: 'call_1', content: 'image attached'},
		{role: 'user', content: [{type: 'image_url', image_url: {url: 'data:image/png;base64,BB'}}], _tool_call_id: 'call_1'},
		{role: 'assistant', content: 'From another provider', tool_calls: [{id: 'call_2', type: 'function', function: {name: 'glob', arguments: '{"p":1}'}}]},
		{role: 'tool', tool_call_id: 'call_2', content: 'Error: no such pattern', _is_error: true},
	];
	const {body} = createResponsesAdapter(adapterOptions()).prepare(history, []);
	assert.deepEqual(body.input, [
		{
			role: 'user',
			content: [
				{type: 'input_text', text: 'look'},
				{type: 'input_image', image_url: 'data:image/png;base64,AA', detail: 'auto'},
			],
		},
		...output,
		{type: 'function_call_output', call_id: 'call_1', output: 'image attached'},
		{role: 'user', content: [{type: 'input_image', image_url: 'data:image/png;base64,BB', detail: 'auto'}]},
		{role: 'assistant', content: 'From another provider'},
		{type: 'function_call', call_id: 'call_2', name: 'glob', arguments: '{"p":1}'},
		{type: 'function_call_output', call_id: 'call_2', output: 'Error: no such pattern'},
	]);
	assert.equal('instructions' in body, false);
});

let seq = 0;
const ev = (type: string, fields: Record<string, unknown> = {}) => sse({type, sequence_number: seq++, ...fields}, type);
const usage = {input_tokens: 500, input_tokens_details: {cached_tokens: 384}, output_tokens: 42, output_tokens_details: {reasoning_tokens: 10}, total_tokens: 542};

test('assembly: reasoning summary is thinking, text streams, function calls assemble, usage maps', async () => {
	const reasoning = {id: 'rs_1', type: 'reasoning', summary: [{type: 'summary_text', text: 'Think.'}]};
	const message = {id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{type: 'output_text', text: 'Calling.', annotations: []}]};
	const call = {id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_9', name: 'read', arguments: '{"path":"x"}'};
	const body =
		ev('response.created', {response: {id: 'r', status: 'in_progress', output: []}}) +
		ev('response.output_item.added', {output_index: 0, item: {id: 'rs_1', type: 'reasoning', summary: []}}) +
		ev('response.reasoning_summary_text.delta', {item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'Thi'}) +
		ev('response.reasoning_summary_text.delta', {item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'nk.'}) +
		ev('response.output_item.done', {output_index: 0, item: reasoning}) +
		ev('response.output_item.added', {output_index: 1, item: {id: 'msg_1', type: 'message', role: 'assistant', content: []}}) +
		ev('response.output_text.delta', {item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Call'}) +
		ev('response.output_text.delta', {item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'ing.'}) +
		ev('response.output_item.done', {output_index: 1, item: message}) +
		ev('response.output_item.added', {output_index: 2, item: {...call, status: 'in_progress', arguments: ''}}) +
		ev('response.function_call_arguments.delta', {item_id: 'fc_1', output_index: 2, delta: '{"path"'}) +
		ev('response.function_call_arguments.delta', {item_id: 'fc_1', output_index: 2, delta: ':"x"}'}) +
		ev('response.function_call_arguments.done', {item_id: 'fc_1', output_index: 2, arguments: '{"path":"x"}'}) +
		ev('response.output_item.done', {output_index: 2, item: call}) +
		ev('response.completed', {response: {id: 'r', status: 'completed', output: [reasoning, message, call], usage}});
	const {reply, events} = await assemble(createResponsesAdapter(adapterOptions()), body);
	assert.equal(texts(events, 'thinking_delta'), 'Think.');
	assert.equal(texts(events, 'text_delta'), 'Calling.');
	assert.deepEqual(reply?.message, {
		role: 'assistant',
		content: 'Calling.',
		tool_calls: [{id: 'call_9', type: 'function', function: {name: 'read', arguments: '{"path":"x"}'}}],
		_responses_output: [reasoning, message, call],
	});
	assert.equal(reply?.finishReason, 'tool_calls');
	assert.equal(reply?.rawFinishReason, 'completed');
	assert.deepEqual(reply?.usage, {input: 500, output: 42, cacheRead: 384, cacheWrite: 0, raw: usage});
});

test('assembly: without output in response.completed, the items streamed are the output', async () => {
	const call = {id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'read', arguments: ''};
	const body =
		ev('response.output_item.added', {output_index: 0, item: call}) + ev('response.function_call_arguments.delta', {output_index: 0, delta: '{}'}) + ev('response.completed', {response: {status: 'completed'}});
	const {reply} = await assemble(createResponsesAdapter(adapterOptions()), body);
	assert.deepEqual(reply?.message.tool_calls, [{id: 'call_1', type: 'function', function: {name: 'read', arguments: '{}'}}]);
	assert.deepEqual(reply?.message._responses_output, [{...call, arguments: '{}'}]);
	assert.equal(reply?.message.content, null);
	assert.equal(reply?.usage, null);
	assert.equal(reply?.finishReason, 'tool_calls');
});

test('assembly: response.incomplete for max_output_tokens is "length"', async () => {
	const message = {id: 'm', type: 'message', role: 'assistant', content: [{type: 'output_text', text: 'Cut sho'}]};
	const body =
		ev('response.output_text.delta', {output_index: 0, delta: 'Cut sho'}) +
		ev('response.incomplete', {response: {status: 'incomplete', incomplete_details: {reason: 'max_output_tokens'}, output: [message], usage}});
	const {reply} = await assemble(createResponsesAdapter(adapterOptions()), body);
	assert.equal(reply?.finishReason, 'length');
	assert.equal(reply?.rawFinishReason, 'max_output_tokens');
	assert.equal(reply?.message.content, 'Cut sho');
});

test('assembly: response.failed and error events fail with the provider message', async () => {
	const adapter = createResponsesAdapter(adapterOptions());
	const failed = await assemble(
		adapter,
		ev('response.output_text.delta', {output_index: 0, delta: 'Par'}) + ev('response.failed', {response: {status: 'failed', error: {code: 'server_error', message: 'The model crashed'}}}),
	);
	assert.ok(failed.error instanceof ProviderError);
	assert.equal(failed.error.message, 'responses: response failed: server_error: The model crashed');
	assert.equal(failed.partialText, 'Par');

	const error = await assemble(adapter, ev('error', {code: 'rate_limit_exceeded', message: 'Slow down', param: null}));
	assert.equal(error.error?.message, 'responses: error in stream: rate_limit_exceeded: Slow down');
});

test('assembly: a stream without response.completed is truncated', async () => {
	const {error, partialText} = await assemble(createResponsesAdapter(adapterOptions()), ev('response.output_text.delta', {output_index: 0, delta: 'Hello'}));
	assert.ok(error instanceof StreamProtocolError);
	assert.equal(error.message, 'responses stream ended before response.completed (truncated response)');
	assert.equal(partialText, 'Hello');
});

test('assembly: a function call without call_id fails; arguments for a non-call item are a protocol error', async () => {
	const adapter = createResponsesAdapter(adapterOptions());
	const noId = await assemble(adapter, ev('response.completed', {response: {status: 'completed', output: [{type: 'function_call', name: 'read', arguments: '{}'}]}}));
	assert.match(noId.error?.message ?? '', /responses stream: function call 0 has no call_id/);
	const stray = await assemble(adapter, ev('response.function_call_arguments.delta', {output_index: 4, delta: 'x'}));
	assert.match(stray.error?.message ?? '', /arguments for output item 4, which is not a function call/);
});
