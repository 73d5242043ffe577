import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {postStream} from '../../source/core/providers/http.js';
import {BODY_TIMEOUT_MS, HEADERS_TIMEOUT_MS, MAX_BODY_BYTES} from '../../source/core/providers/http-limits.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {failure} from './helpers.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

async function listen(server: Server): Promise<string> {
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function drain(body: AsyncIterable<Uint8Array>): Promise<number> {
	let total = 0;
	for await (const chunk of body) total += chunk.byteLength;
	return total;
}

const request = (url: string) => ({url, body: {model: 'm', stream: true}});

test('a redirect is refused, not followed', async () => {
	let hits = 0;
	const target = createServer((_request, response) => {
		hits++;
		response.writeHead(302, {location: 'http://127.0.0.1:9/elsewhere'});
		response.end();
	});
	const origin = await listen(target);
	try {
		const error = await failure(postStream({provider: 'openai', request: request(`${origin}/v1/chat/completions`), headers: {authorization: 'Bearer sk-secret-value'}}));
		assert.equal(error.kind, 'http');
		assert.equal(error.status, 302);
		assert.equal(error.message, 'openai: HTTP 302: redirects are not followed (redirected to http://127.0.0.1:9/elsewhere)');
		assert.equal(hits, 1);
	} finally {
		target.closeAllConnections();
		await new Promise(resolve => target.close(resolve));
	}
});

test('the body cap: at the limit is fine, one byte past it fails', async () => {
	// Find the size of one stream, then cap exactly at it and one below.
	mock.enqueue({text: 'x'.repeat(5000)});
	const full = await postStream({provider: 'openai', request: request(`${mock.baseUrl('openai')}/chat/completions`), headers: {}});
	const size = await drain(full.body);
	assert.ok(size > 5000);

	mock.enqueue({text: 'x'.repeat(5000)});
	const atLimit = await postStream({provider: 'openai', request: request(`${mock.baseUrl('openai')}/chat/completions`), headers: {}, options: {maxBodyBytes: size}});
	assert.equal(await drain(atLimit.body), size);

	mock.enqueue({text: 'x'.repeat(5000)});
	const over = await postStream({provider: 'openai', request: request(`${mock.baseUrl('openai')}/chat/completions`), headers: {}, options: {maxBodyBytes: size - 1}});
	const error = await failure(drain(over.body));
	assert.equal(error.kind, 'stream');
	assert.equal(error.message, `openai: response body is larger than the ${size - 1} bytes limit`);
	assert.equal(MAX_BODY_BYTES, 48 * 1024 * 1024);
});

test('an error body over the cap is not read whole', async () => {
	mock.enqueue({status: 400, errorMessage: 'e'.repeat(10_000)});
	const error = await failure(postStream({provider: 'anthropic', request: request(`${mock.baseUrl('anthropic')}/v1/messages`), headers: {}, options: {maxBodyBytes: 1000}}));
	assert.equal(error.message, 'anthropic: HTTP 400: error body is larger than the 1000 bytes limit');
});

test('a 200 that is not an event stream fails with what it said', async () => {
	const target = createServer((_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify({error: {message: 'proxy says no'}}));
	});
	const origin = await listen(target);
	try {
		const error = await failure(postStream({provider: 'deepseek', request: request(`${origin}/chat/completions`), headers: {}}));
		assert.equal(error.message, 'deepseek: expected an event stream but got application/json: proxy says no');
	} finally {
		target.closeAllConnections();
		await new Promise(resolve => target.close(resolve));
	}
});

test('a refused connection is retried, then reported without the key', async () => {
	const target = createServer();
	const origin = await listen(target);
	await new Promise(resolve => target.close(resolve));
	const slept: number[] = [];
	const error = await failure(
		postStream({
			provider: 'responses',
			request: request(`${origin}/v1/responses`),
			headers: {authorization: 'Bearer sk-secret-value'},
			options: {maxRetries: 1, random: () => 0, sleep: async ms => void slept.push(ms)},
		}),
	);
	assert.equal(error.kind, 'network');
	assert.match(error.message, /^responses: connection failed \(.*ECONNREFUSED.*\) \(gave up after 1 retry\)$/);
	assert.doesNotMatch(error.message, /sk-secret-value/);
	assert.deepEqual(slept, [500]);
});

test('a connection closed after the headers but before any body byte is retried', async () => {
	let hits = 0;
	const target = createServer((_request, response) => {
		hits++;
		if (hits === 1) {
			response.writeHead(200, {'content-type': 'text/event-stream'});
			response.flushHeaders();
			setTimeout(() => response.socket?.destroy(), 20);
			return;
		}

		response.writeHead(200, {'content-type': 'text/event-stream'});
		response.end('data: [DONE]\n\n');
	});
	const origin = await listen(target);
	try {
		const retries: number[] = [];
		const response = await postStream({
			provider: 'openai',
			request: request(`${origin}/v1/chat/completions`),
			headers: {},
			onRetry: notice => void retries.push(notice.attempt),
			options: {sleep: async () => {}},
		});
		assert.equal(await drain(response.body), 'data: [DONE]\n\n'.length);
		assert.deepEqual(retries, [1]);
		assert.equal(hits, 2);
	} finally {
		target.closeAllConnections();
		await new Promise(resolve => target.close(resolve));
	}
});

test('release() lets a slow tail arrive, so the connection serves the next request', async () => {
	const ports: Array<number | undefined> = [];
	const target = createServer((request, response) => {
		ports.push(request.socket.remotePort);
		response.writeHead(200, {'content-type': 'text/event-stream'});
		response.write('data: [DONE]\n\n');
		// The end of the body comes well after the reply is complete.
		setTimeout(() => response.end(), 150);
	});
	const origin = await listen(target);
	try {
		for (let round = 0; round < 2; round++) {
			const response = await postStream({provider: 'openai', request: request(`${origin}/v1/chat/completions`), headers: {}});
			for await (const _chunk of response.body) {
				response.release();
				break;
			}

			await new Promise(resolve => setTimeout(resolve, 300));
		}

		assert.equal(ports.length, 2);
		assert.equal(ports[1], ports[0]);
	} finally {
		target.closeAllConnections();
		await new Promise(resolve => target.close(resolve));
	}
});

test("an idle connection waits longer than undici's default 4 s for the next request, when the server names no limit", async () => {
	const ports: Array<number | undefined> = [];
	const target = createServer((request, response) => {
		ports.push(request.socket.remotePort);
		response.writeHead(200, {'content-type': 'text/event-stream'});
		response.end('data: [DONE]\n\n');
	});
	// No Keep-Alive hint in its answers, and no idle limit of its own.
	target.keepAliveTimeout = 0;
	const origin = await listen(target);
	try {
		for (let round = 0; round < 2; round++) {
			if (round > 0) await new Promise(resolve => setTimeout(resolve, 4500));
			const response = await postStream({provider: 'openai', request: request(`${origin}/v1/chat/completions`), headers: {}});
			await drain(response.body);
		}

		assert.equal(ports.length, 2);
		assert.equal(ports[1], ports[0]);
	} finally {
		target.closeAllConnections();
		await new Promise(resolve => target.close(resolve));
	}
});

test('a stream that stalls longer than the body timeout fails', async () => {
	mock.enqueue({text: 'stall after this', hangAfterEvents: 2});
	const response = await postStream({
		provider: 'openai',
		request: request(`${mock.baseUrl('openai')}/chat/completions`),
		headers: {},
		options: {bodyTimeoutMs: 200},
	});
	const error = await failure(drain(response.body));
	assert.equal(error.kind, 'network');
	assert.equal(error.message, 'openai: the response stream stalled (no data for 200 ms)');
});

test('a server that never answers hits the headers timeout, which is retried, then reported', async () => {
	let hits = 0;
	const server = createServer(() => {
		hits++;
	});
	const url = await listen(server);
	const retries: number[] = [];
	try {
		const error = await failure(
			postStream({
				provider: 'openai',
				request: request(`${url}/v1/chat/completions`),
				headers: {},
				onRetry: notice => void retries.push(notice.attempt),
				options: {headersTimeoutMs: 100, maxRetries: 1, sleep: async () => {}},
			}),
		);
		assert.equal(error.kind, 'network');
		assert.match(error.message, /no response headers within 100 ms/);
		assert.match(error.message, /gave up after 1 retry/);
		assert.deepEqual(retries, [1]);
		assert.equal(hits, 2);
	} finally {
		server.closeAllConnections();
		server.close();
	}
});

test('a dead server costs at most 2 minutes an attempt; a quiet stream may think for 5', () => {
	// Streaming APIs send headers as soon as they start; five attempts at 300 s stalled a turn for 25 minutes.
	assert.equal(HEADERS_TIMEOUT_MS, 120_000);
	assert.equal(BODY_TIMEOUT_MS, 300_000);
});

test('a body that cannot be serialised is a request error, with no connection and no retry', async () => {
	let connections = 0;
	const target = createServer(() => connections++);
	target.on('connection', () => connections++);
	const origin = await listen(target);
	try {
		let deep: Record<string, unknown> = {};
		for (let level = 0; level < 100_000; level++) deep = {a: deep};
		for (const body of [
			{model: 'm', deep},
			{model: 'm', count: 10n},
		]) {
			const error = await failure(postStream({provider: 'openai', request: {url: `${origin}/v1/chat/completions`, body}, headers: {}, options: {maxRetries: 3}}));
			assert.equal(error.kind, 'request');
			assert.match(error.message, /^openai: the request body cannot be serialised \(.+\); nothing was sent$/);
		}

		assert.equal(connections, 0);
	} finally {
		await new Promise(resolve => target.close(resolve));
	}
});
