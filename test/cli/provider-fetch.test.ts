// io.fetch, the host's HTTP layer an extension provider's request gets
// (provider-fetch.ts): its calls go through HTTP_PROXY like the built-in
// adapters' (a real proxy, the npm package `proxy`, on 127.0.0.1), follow
// no redirect, and refuse what is not an http(s) request of the three methods.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {startTestProxy} from '../helpers/http-proxy.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** A one-shot provider whose request runs `body` (with `req`, `io`) and answers what it returns as the text. */
function providerExtension(root: string, body: string): string {
	const file = join(root, 'fetching-provider.mjs');
	writeFileSync(
		file,
		`export default function register(api) {
	api.registerProvider({id: 'fetching', apiStyle: 'test', async request(req, io) {
		${body}
	}});
}
`,
	);
	return file;
}

async function turn(extensionBody: string, env: NodeJS.ProcessEnv = {}) {
	const box = makeSandbox();
	box.writeConfig({protocol: 'fetching', model: 'm'});
	const extension = providerExtension(box.root, extensionBody);
	return runCli(['-p', 'hi', '-C', box.workspace, '--extension', extension], {env: {...box.env, ...env}});
}

test('io.fetch goes through HTTP_PROXY, as the built-in adapters do', async () => {
	const proxy = await startTestProxy();
	try {
		mock.enqueue({text: 'through the proxy'});
		const url = JSON.stringify(`${mock.baseUrl('openai')}/chat/completions`);
		const body = `const response = await io.fetch(${url}, {method: 'POST', headers: {'content-type': 'application/json', authorization: 'Bearer k'}, body: JSON.stringify({model: 'm', messages: [{role: 'user', content: 'hi'}]}), signal: io.signal});
		const text = await response.text();
		return {role: 'assistant', content: response.status + ' ' + response.headers.get('content-type').split(';')[0] + ' ' + text.includes('[DONE]')};`;
		const run = await turn(body, {HTTP_PROXY: proxy.url});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, '200 text/event-stream true\n');
		assert.deepEqual(proxy.forwarded, [`${mock.origin}/v1/chat/completions`]);
	} finally {
		await proxy.close();
	}
});

test('io.fetch follows no redirect: a 302 is the answer, and its target hears nothing', async () => {
	let heard = 0;
	const target: Server = createServer((_request, response) => {
		heard++;
		response.end('moved here');
	});
	const redirecting: Server = createServer((_request, response) => {
		response.writeHead(302, {location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`});
		response.end();
	});
	await Promise.all([new Promise<void>(resolve => target.listen(0, '127.0.0.1', resolve)), new Promise<void>(resolve => redirecting.listen(0, '127.0.0.1', resolve))]);
	try {
		const url = JSON.stringify(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`);
		const run = await turn(`const response = await io.fetch(${url}, {method: 'POST', body: '{}'}); return {role: 'assistant', content: response.status + ' ' + response.headers.get('location')};`);
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, /^302 http:\/\/127\.0\.0\.1:\d+\/\n$/);
		assert.equal(heard, 0);
	} finally {
		await Promise.all([new Promise(resolve => target.close(resolve)), new Promise(resolve => redirecting.close(resolve))]);
	}
});

test('io.fetch refuses other schemes, credentials in the URL, other methods and other bodies, each with a TypeError saying so', async () => {
	const attempts = [
		["'file:///etc/passwd'", '{}', /file: URLs are not fetched/],
		["'http://user:pw@127.0.0.1:9/'", '{}', /a URL with a user name or password is not fetched/],
		["'http://127.0.0.1:9/'", "{method: 'PUT'}", /method "PUT" is not one of POST, GET, DELETE/],
		["'http://127.0.0.1:9/'", "{method: 'POST', body: {not: 'bytes'}}", /a body is a string or bytes/],
	] as const;
	for (const [url, init, expected] of attempts) {
		const run = await turn(`try { await io.fetch(${url}, ${init}); return {role: 'assistant', content: 'fetched'}; } catch (error) { return {role: 'assistant', content: error.name + ': ' + error.message}; }`);
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, /^TypeError: io\.fetch: /);
		assert.match(run.stdout, expected);
	}
});
