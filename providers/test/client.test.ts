// The shared client's parts alone: the body each module's quirks make, the
// chunks to frames (thinking in either field, tool-call fragments, usage in
// DeepSeek's and OpenAI's shapes), the SSE reader with a UTF-8 character
// split across chunks, and the bridge: one declare, four registrations
// whose ids are the catalogue's.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {DeclaredProvider, ExtensionApi, ExtensionStreamingProvider, ProviderRequest} from 'i-agent/extension';
import {chatBody, reasoningToReplay} from '../src/client/chat-body.js';
import {ChunkAssembler} from '../src/client/chunk-assembler.js';
import {MAX_SSE_LINE_CHARS, readSse} from '../src/client/sse.js';
import {streamCompletion} from '../src/client/stream-completion.js';
import register, {modules} from '../src/index.js';
import {deepseek} from '../src/modules/deepseek.js';
import {openrouter} from '../src/modules/openrouter.js';
import {proxy} from '../src/modules/proxy.js';

const request = (messages: Array<Record<string, unknown>>, fields: Partial<ProviderRequest> = {}): ProviderRequest => ({model: 'm', messages, tools: [], maxTokens: 100, extra: {}, ...fields});

const toolTurn = [
	{role: 'system', content: 'be brief'},
	{role: 'user', content: 'read it'},
	{role: 'assistant', content: null, reasoning_content: 'think first', tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}}], _anthropic_content: []},
	{role: 'tool', tool_call_id: 'c1', content: 'file text'},
	{role: 'assistant', content: 'done', reasoning_content: 'then answer'},
	{role: 'user', content: 'thanks'},
	{role: 'assistant', content: 'welcome', reasoning_content: 'no tools here'},
];

test('DeepSeek keeps reasoning_content on every assistant message of a span with a tool call, and drops it elsewhere', () => {
	assert.deepEqual([...reasoningToReplay(toolTurn)], [2, 4]);
	const body = chatBody(request(toolTurn), deepseek.quirks) as {messages: Array<Record<string, unknown>>; max_tokens: number};
	assert.deepEqual(
		body.messages.map(message => message.reasoning_content),
		[undefined, undefined, 'think first', undefined, 'then answer', undefined, undefined],
	);
	assert.equal(body.max_tokens, 100);
	assert.ok(body.messages.every(message => Object.keys(message).every(key => !key.startsWith('_'))));
	// OpenRouter never sends reasoning back.
	const routed = chatBody(request(toolTurn), openrouter.quirks) as {messages: Array<Record<string, unknown>>};
	assert.ok(routed.messages.every(message => message.reasoning_content === undefined));
});

test('quirks: the output cap field, the system role, tool results’ name; extra_body first, the wire’s fields win', () => {
	const quirks = {...proxy.quirks, outputTokenField: 'max_completion_tokens' as const, systemRole: 'developer' as const};
	const body = chatBody(request(toolTurn, {extra: {temperature: 0.1, stream: false, model: 'x'}, tools: [{name: 'read', description: 'd', parameters: {type: 'object'}}]}), quirks) as Record<string, any>;
	assert.equal(body.max_completion_tokens, 100);
	assert.equal(body.max_tokens, undefined);
	assert.equal(body.messages[0].role, 'developer');
	assert.equal(body.messages[3].name, 'read');
	assert.deepEqual([body.temperature, body.stream, body.model], [0.1, true, 'm']);
	assert.deepEqual(body.tools, [{type: 'function', function: {name: 'read', description: 'd', parameters: {type: 'object'}}}]);
	assert.deepEqual(body.stream_options, {include_usage: true});
	assert.equal((chatBody(request(toolTurn, {maxTokens: null}), deepseek.quirks) as Record<string, unknown>).max_tokens, undefined);
	assert.equal((chatBody(request(toolTurn), deepseek.quirks) as Record<string, any>).messages[3].name, undefined);
});

test('chunks become frames: thinking from the module’s field, text, tool-call fragments, usage in both shapes; the message assembles them', () => {
	const data = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({choices: [{index: 0, delta, finish_reason: null}], ...extra});
	const ds = new ChunkAssembler(deepseek.quirks);
	const frames = [
		...ds.push(data({reasoning_content: 'hm'})),
		...ds.push(data({content: 'Hi'})),
		...ds.push(data({tool_calls: [{index: 0, id: 'c1', function: {name: 'read', arguments: '{"a"'}}]})),
		...ds.push(data({tool_calls: [{index: 0, function: {arguments: ':1}'}}]})),
		...ds.push(JSON.stringify({choices: [{index: 0, delta: {}, finish_reason: 'tool_calls'}]})),
		...ds.push(JSON.stringify({choices: [], usage: {prompt_tokens: 10, completion_tokens: 4, prompt_cache_hit_tokens: 6}})),
		...ds.push('[DONE]'),
	];
	assert.deepEqual(
		frames.map(frame => frame.type),
		['thinking_start', 'thinking_delta', 'text_start', 'text_delta', 'toolcall_start', 'toolcall_delta', 'toolcall_delta', 'usage', 'thinking_end', 'text_end', 'toolcall_end'],
	);
	assert.ok(ds.done);
	assert.deepEqual(ds.message(), {
		role: 'assistant',
		content: 'Hi',
		tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{"a":1}'}}],
		reasoning_content: 'hm',
		finish_reason: 'tool_calls',
		usage: {input: 10, output: 4, cacheRead: 6, cacheWrite: 0},
	});
	const or = new ChunkAssembler(openrouter.quirks);
	or.push(data({reasoning: 'routed thought', reasoning_content: 'ignored'}));
	or.push(JSON.stringify({choices: [], usage: {prompt_tokens: 3, completion_tokens: 1, prompt_tokens_details: {cached_tokens: 2}}}));
	assert.deepEqual([or.message().reasoning_content, or.message().usage], ['routed thought', {input: 3, output: 1, cacheRead: 2, cacheWrite: 0}]);
	assert.throws(() => or.push('not json'), /the server sent a data line that is not JSON: not json/);
	assert.throws(() => or.push('null'), /not an object/);
	assert.throws(() => or.push(JSON.stringify({error: {message: 'overloaded'}})), /the server reported an error in the stream: overloaded/);
});

test('the SSE reader: a UTF-8 character split across two chunks comes out whole; CRLF and a last event without its blank line', async () => {
	const bytes = new TextEncoder().encode('data: {"t":"世界"}\r\n\r\ndata: last');
	const cut = bytes.indexOf(0xe4) + 1;
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(bytes.subarray(0, cut));
			controller.enqueue(bytes.subarray(cut));
			controller.close();
		},
	});
	const events: string[] = [];
	for await (const event of readSse(body)) events.push(event);
	assert.deepEqual(events, ['{"t":"世界"}', 'last']);
});

test(`the SSE reader takes a line of ${MAX_SSE_LINE_CHARS} characters and refuses one longer`, async () => {
	const stream = (line: string) =>
		new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new TextEncoder().encode(line));
				controller.close();
			},
		});
	const events: string[] = [];
	for await (const event of readSse(stream(`data: ${'x'.repeat(MAX_SSE_LINE_CHARS - 6)}`))) events.push(event);
	assert.equal(events[0]?.length, MAX_SSE_LINE_CHARS - 6);
	await assert.rejects(
		async () => {
			for await (const _event of readSse(stream(`data: ${'x'.repeat(MAX_SSE_LINE_CHARS)}`))) {
			}
		},
		new RegExp(`the stream sent a line over ${MAX_SSE_LINE_CHARS} characters`),
	);
});

test('a provider without an endpoint (the proxy, until models.json gives it one) fails saying where to set it, before any request', async () => {
	const io = {emit: () => true, control: {isCancelled: () => false, waitCancelled: async () => false}, signal: new AbortController().signal, fetch: async () => assert.fail('no request may be made')};
	await assert.rejects(streamCompletion(proxy, request([{role: 'user', content: 'hi'}]), io), /provider "proxy" has no endpoint: set "baseUrl" under providers\.proxy in models\.json/);
});

test('the bridge: one declare with the four providers, each registered under the id of its catalogue entry; register needs the streaming slot', () => {
	const declared: DeclaredProvider[][] = [];
	const registered: ExtensionStreamingProvider[] = [];
	const api: ExtensionApi = {
		apiVersion: '1.0',
		declare: declaration => void declared.push(declaration.providers ?? []),
		registerStreamingProvider: provider => void registered.push(provider),
	};
	register(api);
	assert.equal(declared.length, 1);
	assert.deepEqual(
		declared[0]!.map(entry => entry.id),
		['deepseek', 'openrouter', 'llama-cpp', 'proxy'],
	);
	assert.deepEqual(
		registered.map(provider => provider.id),
		declared[0]!.map(entry => entry.id),
	);
	for (const entry of declared[0]!) for (const model of entry.models) assert.equal(model.provider, entry.id);
	assert.deepEqual(
		declared[0]!.map(entry => [entry.id, entry.apiKeyEnv ?? null, entry.requiresAuth]),
		[
			['deepseek', 'DEEPSEEK_API_KEY', true],
			['openrouter', 'OPENROUTER_API_KEY', true],
			['llama-cpp', null, false],
			['proxy', 'PROXY_API_KEY', true],
		],
	);
	assert.equal(modules.length, 4);
	assert.throws(() => register({apiVersion: '1.0'}), /i-providers needs api\.registerStreamingProvider/);
	// Nothing in the catalogue is a header or a key.
	assert.doesNotMatch(JSON.stringify(declared), /header|authorization|sk-/i);
});
