import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {callModel, createAdapter} from '../../source/core/providers/index.js';
import type {HttpOptions, RetryNotice} from '../../source/core/providers/index.js';
import {protocols, type Protocol, type StreamEvent} from '../../source/core/providers/types.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {adapterOptions, failure, texts} from './helpers.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const API_KEY = 'sk-test-key-0123456789';

/** No real waiting between retries; the delays asked for are recorded. */
function fastRetries(overrides: HttpOptions = {}): {options: HttpOptions; slept: number[]} {
	const slept: number[] = [];
	return {
		slept,
		options: {
			random: () => 0,
			sleep: async ms => {
				slept.push(ms);
			},
			...overrides,
		},
	};
}

async function call(protocol: Protocol, extra: {signal?: AbortSignal; httpOptions?: HttpOptions; onEvent?: (event: StreamEvent) => void; server?: MockProvider} = {}) {
	const events: StreamEvent[] = [];
	const retries: RetryNotice[] = [];
	const adapter = createAdapter(protocol, adapterOptions({baseUrl: (extra.server ?? mock).baseUrl(protocol)}));
	const run = callModel({
		adapter,
		apiKey: API_KEY,
		messages: [
			{role: 'system', content: 'sys'},
			{role: 'user', content: 'hello'},
		],
		tools: [{name: 'read', description: 'Read', parameters: {type: 'object'}}],
		emit: event => {
			events.push(event);
			extra.onEvent?.(event);
		},
		onRetry: notice => void retries.push(notice),
		...(extra.signal ? {signal: extra.signal} : {}),
		httpOptions: extra.httpOptions ?? fastRetries().options,
	});
	return {run, events, retries};
}

for (const protocol of protocols) {
	test(`${protocol}: a plain answer with thinking, a tool call and usage, over real HTTP`, async () => {
		mock.enqueue({
			text: 'Hello there, 你好 👋',
			thinking: 'Considering',
			toolCalls: [{id: 'call_x', name: 'read', arguments: '{"path":"notes.txt"}'}],
			usage: {input: 900, output: 40, cacheRead: 800},
		});
		const before = mock.requests.length;
		const {run, events} = await call(protocol);
		const reply = await run;
		assert.equal(texts(events, 'text_delta'), 'Hello there, 你好 👋');
		assert.ok(events.filter(event => event.type === 'text_delta').length > 1, 'text arrives in several deltas');
		if (protocol !== 'openai') assert.equal(texts(events, 'thinking_delta'), 'Considering');
		assert.equal(reply.message.content, 'Hello there, 你好 👋');
		assert.deepEqual(reply.message.tool_calls, [{id: 'call_x', type: 'function', function: {name: 'read', arguments: '{"path":"notes.txt"}'}}]);
		assert.equal(reply.finishReason, 'tool_calls');
		// Anthropic counts cached input apart from input_tokens; the mock puts 900 in input_tokens.
		assert.equal(reply.usage?.input, protocol === 'anthropic' ? 1700 : 900);
		assert.equal(reply.usage?.output, 40);
		assert.equal(reply.usage?.cacheRead, 800);

		const request = mock.requests[before]!;
		assert.equal(request.method, 'POST');
		assert.equal(request.body.stream, true);
		assert.equal(request.body.model, 'test-model');
		assert.equal(request.headers['content-type'], 'application/json');
		if (protocol === 'anthropic') {
			assert.equal(request.headers['x-api-key'], API_KEY);
			assert.equal(request.headers['anthropic-version'], '2023-06-01');
		} else {
			assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
		}
	});

	test(`${protocol}: HTTP 401 fails at once with the provider's own message and never the key`, async () => {
		mock.enqueue({status: 401, errorMessage: `Incorrect API key provided: ${API_KEY}`});
		const {run, retries} = await call(protocol);
		const error = await failure(run);
		assert.equal(error.kind, 'http');
		assert.equal(error.status, 401);
		assert.equal(error.retryable, false);
		assert.equal(error.message, `${protocol}: HTTP 401: Incorrect API key provided: [redacted]`);
		assert.equal(retries.length, 0);
	});
}

test('429 with Retry-After waits as asked, tells onRetry once, then succeeds', async () => {
	mock.enqueue({status: 429, errorMessage: 'Rate limit reached', headers: {'retry-after': '7'}}, {text: 'after the wait'});
	const {options, slept} = fastRetries();
	const {run, retries, events} = await call('openai', {httpOptions: options});
	const reply = await run;
	assert.equal(reply.message.content, 'after the wait');
	assert.deepEqual(retries, [{attempt: 1, delayMs: 7000, reason: 'HTTP 429: Rate limit reached', status: 429}]);
	assert.deepEqual(slept, [7000]);
	assert.equal(texts(events, 'text_delta'), 'after the wait');
});

test('Retry-After as an HTTP date, and one beyond the cap, are honoured up to 60 s', async () => {
	const soon = new Date(Date.now() + 30_000).toUTCString();
	mock.enqueue({status: 503, headers: {'retry-after': soon}}, {status: 529, headers: {'retry-after': '3600'}}, {text: 'ok'});
	const {options, slept} = fastRetries();
	const {run} = await call('anthropic', {httpOptions: options});
	await run;
	assert.equal(slept.length, 2);
	assert.ok(slept[0]! > 25_000 && slept[0]! <= 30_000, `date delay ${slept[0]}`);
	assert.equal(slept[1], 60_000);
});

test('500 twice then success backs off exponentially', async () => {
	mock.enqueue({status: 500}, {status: 502}, {text: 'fine'});
	const {options, slept} = fastRetries();
	const {run, retries} = await call('deepseek', {httpOptions: options});
	assert.equal((await run).message.content, 'fine');
	assert.deepEqual(slept, [500, 1000]);
	assert.deepEqual(
		retries.map(retry => [retry.attempt, retry.status, retry.reason]),
		[
			[1, 500, 'HTTP 500: mock error'],
			[2, 502, 'HTTP 502: mock error'],
		],
	);
});

test('a connection reset before any response is retried', async () => {
	mock.enqueue({resetConnection: true}, {text: 'reconnected'});
	const {run, retries} = await call('responses');
	assert.equal((await run).message.content, 'reconnected');
	assert.equal(retries.length, 1);
	assert.equal(retries[0]!.status, undefined);
	assert.match(retries[0]!.reason, /connection failed/);
});

test('retries exhausted: the last failure, saying how many retries were made', async () => {
	mock.enqueue({status: 503, errorMessage: 'busy'}, {status: 503, errorMessage: 'busy'}, {status: 503, errorMessage: 'still busy'});
	const {options} = fastRetries({maxRetries: 2});
	const {run, retries} = await call('openai', {httpOptions: options});
	const error = await failure(run);
	assert.equal(error.message, 'openai: HTTP 503: still busy (gave up after 2 retries)');
	assert.equal(error.status, 503);
	assert.equal(error.retryable, true);
	assert.equal(retries.length, 2);
});

test('with max_retries 0 a 503 fails at once with its own message', async () => {
	mock.enqueue({status: 503, errorMessage: 'overloaded'});
	const {options} = fastRetries({maxRetries: 0});
	const {run, retries} = await call('deepseek', {httpOptions: options});
	const error = await failure(run);
	assert.equal(error.message, 'deepseek: HTTP 503: overloaded');
	assert.equal(error.retryable, true);
	assert.equal(retries.length, 0);
});

test('a 4xx other than 408/409/429 is not retried', async () => {
	mock.enqueue({status: 400, errorMessage: 'messages: field required'});
	const before = mock.requests.length;
	const {run, retries} = await call('responses');
	const error = await failure(run);
	assert.equal(error.message, 'responses: HTTP 400: messages: field required');
	assert.equal(retries.length, 0);
	assert.equal(mock.requests.length, before + 1);
});

test('abort mid-stream ends the call quickly as "aborted" with the text so far', async () => {
	mock.enqueue({text: 'one two three four five six seven', hangAfterEvents: 3});
	const controller = new AbortController();
	const started = Date.now();
	const {run} = await call('openai', {signal: controller.signal, onEvent: () => controller.abort()});
	const error = await failure(run);
	assert.equal(error.kind, 'aborted');
	assert.equal(error.message, 'openai: request cancelled');
	assert.ok(error.partialText.length > 0, 'the first delta was kept');
	assert.ok('one two three four five six seven'.startsWith(error.partialText));
	assert.ok(Date.now() - started < 2000);
});

test('abort during a backoff wait ends the call at once', async () => {
	mock.enqueue({status: 429, headers: {'retry-after': '30'}}, {text: 'too late'});
	const controller = new AbortController();
	const started = Date.now();
	const {run, retries} = await call('anthropic', {
		signal: controller.signal,
		httpOptions: {},
	});
	setTimeout(() => controller.abort(), 100);
	const error = await failure(run);
	assert.equal(error.kind, 'aborted');
	assert.equal(retries.length, 1);
	assert.ok(Date.now() - started < 2000);
	// The queued answer is still there; take it so later tests start clean.
	const {run: next} = await call('anthropic');
	assert.equal((await next).message.content, 'too late');
});

test('an already aborted signal sends nothing', async () => {
	const before = mock.requests.length;
	const {run} = await call('deepseek', {signal: AbortSignal.abort()});
	assert.equal((await failure(run)).kind, 'aborted');
	assert.equal(mock.requests.length, before);
});

test('a stream cut mid-way fails without a retry and keeps the partial text', async () => {
	const text = 'The first part of a long answer that never ends';
	for (const protocol of protocols) {
		mock.enqueue({text, cutAfterEvents: 5});
		const {run, retries, events} = await call(protocol);
		const error = await failure(run);
		assert.equal(error.kind, 'network', protocol);
		assert.match(error.message, new RegExp(`^${protocol}: connection lost while streaming the response`));
		assert.ok(error.partialText.length > 0 && text.startsWith(error.partialText), `${protocol}: ${error.partialText}`);
		assert.notEqual(error.partialText, text);
		assert.equal(error.partialText, texts(events, 'text_delta'));
		assert.equal(retries.length, 0);
	}
});

test('a stream that ends cleanly but early is a truncated response', async () => {
	const chunk = `data: ${JSON.stringify({choices: [{index: 0, delta: {content: 'Partial'}, finish_reason: null}]})}\n\n`;
	mock.enqueue({raw: chunk});
	const {run} = await call('openai');
	const error = await failure(run);
	assert.equal(error.kind, 'stream');
	assert.equal(error.message, 'openai stream ended before [DONE] (truncated response)');
	assert.equal(error.partialText, 'Partial');
});

test('a malformed line in a real stream fails with the line quoted', async () => {
	mock.enqueue({raw: 'event: message_start\ndata: {"type": oops}\n\n'});
	const error = await failure((await call('anthropic')).run);
	assert.equal(error.message, 'anthropic stream: malformed JSON in data line: {"type": oops}');
});

const anthropicEvent = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
const messageStart = anthropicEvent({
	type: 'message_start',
	message: {id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: {input_tokens: 5, output_tokens: 1}},
});
const overloaded = (message = 'Overloaded') => anthropicEvent({type: 'error', error: {type: 'overloaded_error', message}});
const textStart = anthropicEvent({type: 'content_block_start', index: 0, content_block: {type: 'text', text: ''}});
const textDelta = (text: string) => anthropicEvent({type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text}});
const chatChunk = (content: string) => `data: ${JSON.stringify({choices: [{index: 0, delta: {content}, finish_reason: null}]})}\n\n`;

test('the key never shows in a stream error, a quoted data line or a retry notice; the partial text is left as it came', async () => {
	mock.enqueue({raw: chatChunk(`Your key is ${API_KEY}.`) + `data: ${JSON.stringify({error: {message: `Invalid key Bearer ${API_KEY}`}})}\n\n`});
	const inEvent = await failure((await call('openai')).run);
	assert.equal(inEvent.message, 'openai: error in stream: Invalid key [redacted]');
	assert.doesNotMatch(inEvent.stack ?? '', new RegExp(API_KEY));
	assert.equal(inEvent.partialText, `Your key is ${API_KEY}.`);

	mock.enqueue({raw: `event: message_start\ndata: {"type": "message_start", "key": ${API_KEY}}\n\n`});
	const inLine = await failure((await call('anthropic')).run);
	assert.equal(inLine.message, 'anthropic stream: malformed JSON in data line: {"type": "message_start", "key": [redacted]}');

	mock.enqueue({raw: messageStart + overloaded(`Overloaded for ${API_KEY}`)}, {text: 'fine'});
	const {run, retries} = await call('anthropic');
	assert.equal((await run).message.content, 'fine');
	assert.deepEqual(
		retries.map(retry => retry.reason),
		['error in stream: overloaded_error: Overloaded for [redacted]'],
	);
});

test('an overloaded_error event before anything was shown is retried with backoff, then succeeds', async () => {
	mock.enqueue({raw: messageStart + overloaded()}, {raw: messageStart + textStart + overloaded()}, {text: 'third time'});
	const before = mock.requests.length;
	const {options, slept} = fastRetries();
	const {run, retries, events} = await call('anthropic', {httpOptions: options});
	assert.equal((await run).message.content, 'third time');
	assert.deepEqual(retries, [
		{attempt: 1, delayMs: 500, reason: 'error in stream: overloaded_error: Overloaded'},
		{attempt: 2, delayMs: 1000, reason: 'error in stream: overloaded_error: Overloaded'},
	]);
	assert.deepEqual(slept, [500, 1000]);
	assert.equal(texts(events, 'text_delta'), 'third time');
	assert.equal(mock.requests.length, before + 3);
});

test('a connection lost mid-stream before any text or thinking is retried', async () => {
	// The first Chat chunk carries only the role and an empty content.
	mock.enqueue({text: 'never seen', cutAfterEvents: 1}, {text: 'second try'});
	const {run, retries} = await call('openai');
	assert.equal((await run).message.content, 'second try');
	assert.equal(retries.length, 1);
	assert.match(retries[0]!.reason, /^connection lost while streaming the response/);
});

test('once text was shown, a retryable stream error ends the call at once', async () => {
	mock.enqueue({raw: messageStart + textStart + textDelta('Hel') + overloaded()}, {text: 'not asked for'});
	const before = mock.requests.length;
	const {run, retries} = await call('anthropic');
	const error = await failure(run);
	assert.equal(error.message, 'anthropic: error in stream: overloaded_error: Overloaded');
	assert.equal(error.retryable, true);
	assert.equal(error.partialText, 'Hel');
	assert.equal(retries.length, 0);
	assert.equal(mock.requests.length, before + 1);
	// Take the unused reply so later tests start clean.
	assert.equal((await (await call('anthropic')).run).message.content, 'not asked for');
});

test('stream retries and HTTP retries share max_retries', async () => {
	mock.enqueue({status: 503}, {raw: messageStart + overloaded()});
	const {options} = fastRetries({maxRetries: 1});
	const first = await call('anthropic', {httpOptions: options});
	const error = await failure(first.run);
	assert.equal(error.message, 'anthropic: error in stream: overloaded_error: Overloaded (gave up after 1 retry)');
	assert.equal(first.retries.length, 1);

	mock.enqueue({raw: messageStart + overloaded()}, {status: 529, errorMessage: 'busy'});
	const second = await call('anthropic', {httpOptions: fastRetries({maxRetries: 1}).options});
	assert.equal((await failure(second.run)).message, 'anthropic: HTTP 529: busy (gave up after 1 retry)');
	assert.equal(second.retries.length, 1);

	mock.enqueue({raw: messageStart + overloaded()});
	const none = await call('anthropic', {httpOptions: fastRetries({maxRetries: 0}).options});
	assert.equal((await failure(none.run)).message, 'anthropic: error in stream: overloaded_error: Overloaded');
	assert.equal(none.retries.length, 0);
});

test('abort while waiting to retry a stream error ends the call at once', async () => {
	mock.enqueue({raw: messageStart + overloaded()}, {text: 'too late'});
	const controller = new AbortController();
	const {run, retries} = await call('anthropic', {signal: controller.signal, httpOptions: {backoffBaseMs: 30_000}});
	setTimeout(() => controller.abort(), 100);
	const error = await failure(run);
	assert.equal(error.kind, 'aborted');
	assert.equal(retries.length, 1);
	assert.equal((await (await call('anthropic')).run).message.content, 'too late');
});

for (const protocol of protocols) {
	test(`${protocol}: a complete reply survives a connection reset right after its last event`, async () => {
		mock.enqueue({text: 'All of it.', resetAfterEnd: true});
		const {run, retries} = await call(protocol);
		assert.equal((await run).message.content, 'All of it.');
		assert.equal(retries.length, 0);
	});
}

test('a complete reply returns at once even when the server then keeps the connection open', async () => {
	mock.enqueue({text: 'Answered.', hangAfterEvents: 1000});
	const started = Date.now();
	const {run} = await call('anthropic', {httpOptions: {...fastRetries().options, bodyTimeoutMs: 10_000}});
	assert.equal((await run).message.content, 'Answered.');
	assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
});

test('bytes after the end of a reply are not read as part of it', async () => {
	mock.enqueue({raw: chatChunk('Done.') + 'data: [DONE]\n\ndata: {"trailing": garbage'});
	assert.equal((await (await call('openai')).run).message.content, 'Done.');
});

test('a complete reply leaves its connection open for the next request', async () => {
	// A server of its own: the pool takes an idle connection for the next request, and no other test's may be idle there.
	const server = await startMockProvider();
	try {
		server.enqueue({text: 'one'}, {text: 'two'});
		await (await call('responses', {server})).run;
		// The rest of the body (the chunked terminator) arrives just after the last event.
		await new Promise(resolve => setTimeout(resolve, 100));
		await (await call('responses', {server})).run;
		const [first, second] = server.requests;
		assert.ok(first?.clientPort !== undefined);
		assert.equal(second?.clientPort, first.clientPort);
	} finally {
		await server.close();
	}
});
