import assert from 'node:assert/strict';
import {test, type TestContext} from 'node:test';
import type {AssistantMessage, Message} from '../../source/core/messages.js';
import {createOpenAiAdapter} from '../../source/core/providers/openai.js';
import {createResponsesAdapter} from '../../source/core/providers/responses.js';
import type {AdapterOptions, ToolSchema} from '../../source/core/providers/types.js';
import {makeFolders, startOfficialWorker, type FrameWorker} from './frame-worker.js';

const BASE = 'https://api.example.test/v1';

function options(overrides: Partial<AdapterOptions> = {}): AdapterOptions {
	return {model: 'gpt-test', baseUrl: BASE, useMaxTokens: false, extraBody: {}, ...overrides};
}

async function start(t: TestContext): Promise<FrameWorker> {
	const folders = await makeFolders(t);
	return startOfficialWorker(t, 'responses', [], {env: folders.env});
}

let nextId = 1;

/** The request the module makes of the Chat request the openai adapter prepares for this history. */
async function convert(worker: FrameWorker, history: Message[], tools: ToolSchema[], chatOptions: AdapterOptions) {
	const chat = createOpenAiAdapter(chatOptions).prepare(history, tools);
	const data = {url: chat.url, body: chat.body, protocol: 'openai', model: chatOptions.model, budget: null};
	const response = await worker.request({id: nextId++, event: 'before_request', data});
	assert.ok(response.data, response.error);
	return response.data as {url: string; body: Record<string, unknown>; protocol: string; wire: string; model: string; budget: unknown};
}

/** Both ways of reaching the Responses API give the same request: deep-equal bodies, the same key order, the same URL. */
async function assertSameAsNative(worker: FrameWorker, history: Message[], tools: ToolSchema[], chatOptions: AdapterOptions, nativeHistory = history) {
	const converted = await convert(worker, history, tools, chatOptions);
	const native = createResponsesAdapter({...chatOptions, useMaxTokens: false}).prepare(nativeHistory, tools);
	assert.deepEqual(converted.body, native.body);
	assert.equal(JSON.stringify(converted.body), JSON.stringify(native.body), 'same bytes on the wire, so the cache prefix is the same');
	assert.equal(converted.url, native.url);
	assert.equal(converted.wire, 'responses');
	assert.equal(converted.protocol, 'responses');
	assert.equal(converted.model, chatOptions.model);
	assert.equal('wire' in converted.body, false, 'wire is for the core, never sent');
}

const readTool: ToolSchema = {name: 'read', description: 'Read files', parameters: {type: 'object', properties: {files: {type: 'array'}}}};
const globTool: ToolSchema = {name: 'glob', description: 'Find files', parameters: {type: 'object', properties: {pattern: {type: 'string'}}, required: ['pattern']}};
const call = (id: string, name: string, args: string) => ({id, type: 'function' as const, function: {name, arguments: args}});

test("the converted request equals the native responses adapter's for plain chat, tools, images, several system messages, caps and extra_body", async t => {
	const worker = await start(t);
	const plain: Message[] = [
		{role: 'system', content: 'You are terse.'},
		{role: 'user', content: 'hi'},
		{role: 'assistant', content: 'hello'},
		{role: 'user', content: 'again'},
	];
	await assertSameAsNative(worker, plain, [], options());
	await assertSameAsNative(worker, [{role: 'user', content: 'no system, no tools'}], [], options());

	const tools: Message[] = [
		{role: 'system', content: 'Rules.'},
		{role: 'user', content: 'find and read'},
		{role: 'assistant', content: null, tool_calls: [call('c1', 'glob', '{"pattern":"*.ts"}'), call('c2', 'read', '{"files":[{"path":"a.ts"}]}')]},
		{role: 'tool', tool_call_id: 'c1', content: 'a.ts'},
		{role: 'tool', tool_call_id: 'c2', content: 'Error: denied', _is_error: true},
		{role: 'assistant', content: 'Let me look again.', tool_calls: [call('c3', 'read', 'not json')]},
		{role: 'tool', tool_call_id: 'c3', content: 'ok'},
		{role: 'assistant', content: ''},
		{role: 'user', content: 'thanks'},
	];
	await assertSameAsNative(worker, tools, [readTool, globTool], options());

	const images: Message[] = [
		{
			role: 'user',
			content: [
				{type: 'text', text: 'what is this'},
				{type: 'image_url', image_url: {url: 'data:image/png;base64,AAAA'}},
			],
		},
		{role: 'assistant', content: null, tool_calls: [call('v1', 'view_image', '{"path":"b.png"}')]},
		{role: 'tool', tool_call_id: 'v1', content: 'image attached'},
		{role: 'user', content: [{type: 'image_url', image_url: {url: 'data:image/png;base64,BBBB'}}], _tool_call_id: 'v1'},
	];
	await assertSameAsNative(worker, images, [readTool], options());

	const systems: Message[] = [
		{role: 'system', content: 'First rules.'},
		{role: 'user', content: 'q'},
		{role: 'system', content: 'Reference: the memory snapshot.'},
		{role: 'system', content: 'Third.'},
	];
	await assertSameAsNative(worker, systems, [], options());

	// Both Chat names of the output cap become max_output_tokens.
	await assertSameAsNative(worker, plain, [readTool], options({maxTokens: 2048}));
	await assertSameAsNative(worker, plain, [readTool], options({maxTokens: 300, useMaxTokens: true}));

	// extra_body fields pass through (written the Responses way); store:false asks for the encrypted reasoning.
	await assertSameAsNative(worker, plain, [readTool], options({maxTokens: 64, extraBody: {store: false, reasoning: {effort: 'low'}, parallel_tool_calls: false}}));
	await assertSameAsNative(worker, plain, [], options({extraBody: {store: false, include: []}}));
	await assertSameAsNative(worker, plain, [], options({baseUrl: `${BASE}/`}));

	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	assert.equal(exit.stderr, '');
});

test('a reply seen in after_response replays its output items verbatim, as the native adapter replays _responses_output', async t => {
	const output = [
		{id: 'rs_1', type: 'reasoning', summary: [{type: 'summary_text', text: 'plan'}], encrypted_content: 'gAAA-secret-reasoning'},
		{id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'read', arguments: '{"files":[{"path":"a.txt"}]}'},
	];
	const answerOutput = [
		{id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'gAAA-more'},
		{id: 'msg_2', type: 'message', status: 'completed', role: 'assistant', content: [{type: 'output_text', text: 'It says alpha.', annotations: []}]},
	];
	const first: AssistantMessage = {role: 'assistant', content: null, tool_calls: [call('call_1', 'read', '{"files":[{"path":"a.txt"}]}')], _responses_output: output};
	const second: AssistantMessage = {role: 'assistant', content: 'It says alpha.', _responses_output: answerOutput};
	const history: Message[] = [
		{role: 'system', content: 'Rules.'},
		{role: 'user', content: 'read a.txt'},
		first,
		{role: 'tool', tool_call_id: 'call_1', content: 'alpha'},
		second,
		{role: 'user', content: 'and now?'},
	];
	const opts = options({extraBody: {store: false}});

	const worker = await start(t);
	for (const [index, message] of [first, second].entries()) {
		const response = await worker.request({
			id: nextId++,
			event: 'after_response',
			data: {response: {protocol: 'responses', model: 'gpt-test', message, finish_reason: 'completed', usage: null}, request_meta: null},
		});
		assert.ok(response.data, response.error);
		assert.deepEqual(response.data.response.message, message, `reply ${index} comes back unchanged, _responses_output included`);
	}

	await assertSameAsNative(worker, history, [readTool], opts);
	const converted = await convert(worker, history, [readTool], opts);
	assert.deepEqual((converted.body.input as unknown[]).slice(1, 3), output, 'the reasoning item goes back before its function call');
	// Asked again (the next request of the turn): still replayed.
	await assertSameAsNative(worker, history, [readTool], opts);
	await worker.close();

	// A restarted worker has forgotten them: it rebuilds the items from text and tool calls, as the adapter does without _responses_output.
	const restarted = await start(t);
	const forgotten = history.map(message => (message.role === 'assistant' ? {role: message.role, content: message.content, ...(message.tool_calls ? {tool_calls: message.tool_calls} : {})} : message));
	await assertSameAsNative(restarted, history, [readTool], opts, forgotten);
	const rebuilt = await convert(restarted, history, [readTool], opts);
	assert.equal(JSON.stringify(rebuilt.body).includes('gAAA'), false);
	await restarted.close();
});

test('requests of other protocols pass unchanged; a body the conversion cannot own is refused by name', async t => {
	const worker = await start(t);
	const anthropic = {url: 'https://api.anthropic.com/v1/messages', protocol: 'anthropic', model: 'claude', budget: null, body: {model: 'claude', messages: [], max_tokens: 10}};
	assert.deepEqual((await worker.request({id: nextId++, event: 'before_request', data: anthropic})).data, anthropic);
	const native = {url: `${BASE}/responses`, protocol: 'responses', model: 'm', budget: null, body: {model: 'm', input: []}};
	assert.deepEqual((await worker.request({id: nextId++, event: 'before_request', data: native})).data, native);

	const chat = createOpenAiAdapter(options({extraBody: {instructions: 'x'}})).prepare([{role: 'user', content: 'hi'}], []);
	const clash = await worker.request({id: nextId++, event: 'before_request', data: {...chat, protocol: 'openai', model: 'gpt-test'}});
	assert.equal(clash.error, 'responses module: the request body already has "instructions", which the Responses conversion builds; remove it from extra_body or the hook that set it');

	const elsewhere = await worker.request({id: nextId++, event: 'before_request', data: {url: 'worker://provider', body: chat.body, protocol: 'openai', model: 'gpt-test'}});
	assert.match(elsewhere.error, /the request URL "worker:\/\/provider" does not end in \/chat\/completions/);

	const broken = await worker.request({id: nextId++, event: 'before_request', data: {url: chat.url, body: {model: 'gpt-test', messages: [{role: 'robot'}]}, protocol: 'openai'}});
	assert.match(broken.error, /^responses module: the Chat Completions body cannot be converted: field "messages\.0\.role"/);
	await worker.close();
});

test('after_response refuses an incomplete or empty Responses reply and a reply not read from a Responses stream', async t => {
	const worker = await start(t);
	const answer = async (message: Record<string, unknown>, finishReason: string | null, protocol = 'responses') =>
		worker.request({id: nextId++, event: 'after_response', data: {response: {protocol, model: 'm', message, finish_reason: finishReason, usage: null}, request_meta: null}});
	const text = {role: 'assistant', content: 'partial answer', _responses_output: [{type: 'message', content: [{type: 'output_text', text: 'partial answer'}]}]};
	const reasoningOnly = {role: 'assistant', content: null, _responses_output: [{type: 'reasoning', id: 'rs_9', summary: []}]};

	assert.equal((await answer(text, 'content_filter')).error, 'responses module: the Responses reply is incomplete ("content_filter"); it is refused rather than kept as an answer');
	assert.match((await answer(text, 'incomplete')).error, /incomplete \("incomplete"\)/);
	assert.equal(
		(await answer(reasoningOnly, 'max_output_tokens')).error,
		'responses module: the Responses reply has neither text nor tool calls (only reasoning items, cut off by max_output_tokens); it is refused',
	);
	assert.match((await answer(reasoningOnly, 'completed')).error, /neither text nor tool calls \(only reasoning items\)/);
	assert.match((await answer({role: 'assistant', content: 'hi'}, 'completed')).error, /has no Responses output items \(_responses_output\)/);

	// A length stop with text is an answer (the core reports the cut); a completed one is too.
	assert.deepEqual((await answer(text, 'max_output_tokens')).data.response.message, text);
	assert.deepEqual((await answer(text, 'completed')).data.response.message, text);
	// Replies of other protocols are not this module's to judge.
	assert.deepEqual((await answer({role: 'assistant', content: null}, 'stop', 'anthropic')).data.response.message, {role: 'assistant', content: null});
	assert.equal((await answer({role: 'user', content: 'hi'}, 'completed')).error, "responses module: the response message is a user message, not the assistant's");
	assert.match((await worker.request({id: nextId++, event: 'after_response', data: {response: {protocol: 'responses'}}})).error, /^responses module: after_response data: .*message/);
	assert.match((await worker.request({id: nextId++, event: 'before_request', data: {url: 5, body: {}, protocol: 'openai'}})).error, /^responses module: before_request data: .*url/);
	await worker.close();
});

test('the responses worker takes no options', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'responses', ['--config', 'x.json'], {env: folders.env});
	const exit = await worker.exited;
	assert.equal(exit.code, 2);
	assert.match(exit.stderr, /worker responses takes no options \(got "--config" "x\.json"\)/);
});
