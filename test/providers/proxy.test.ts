import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {ProxyConfigError, proxyFor, readProxySettings} from '../../source/core/providers/proxy-settings.js';
import {createDispatcher, send} from '../../source/core/providers/undici-transport.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {startTestProxy, type TestProxy} from '../helpers/http-proxy.js';

let mock: MockProvider;
let proxy: TestProxy;
before(async () => {
	mock = await startMockProvider();
	proxy = await startTestProxy();
});
after(async () => Promise.all([mock.close(), proxy.close()]));

test('no proxy variable: no proxy settings, so requests go direct through a plain agent', () => {
	assert.equal(readProxySettings({PATH: '/bin', NO_PROXY: 'example.com'}), undefined);
	assert.equal(readProxySettings({HTTP_PROXY: '', https_proxy: ''}), undefined);
});

test('which variable serves which scheme: lower case first, https falling back to the http proxy', () => {
	const http = readProxySettings({HTTP_PROXY: 'http://a.example:1'})!;
	assert.equal(http.http?.variable, 'HTTP_PROXY');
	assert.equal(http.https?.variable, 'HTTP_PROXY');

	const both = readProxySettings({http_proxy: 'http://lower.example:1', HTTP_PROXY: 'http://upper.example:2', HTTPS_PROXY: 'http://secure.example:3'})!;
	assert.deepEqual([both.http?.shown, both.http?.variable], ['http://lower.example:1', 'http_proxy']);
	assert.deepEqual([both.https?.shown, both.https?.variable], ['http://secure.example:3', 'HTTPS_PROXY']);

	const httpsOnly = readProxySettings({https_proxy: 'http://s.example:3', no_proxy: 'x', NO_PROXY: 'y'})!;
	assert.equal(httpsOnly.http, undefined);
	assert.equal(httpsOnly.noProxy, 'x');
});

test('a proxy URL: shown without credentials or path; a bare host:port is http; a bad one is named, never echoed', () => {
	const settings = readProxySettings({HTTPS_PROXY: 'http://me:pa%20ss@proxy.example:8080/ignored'})!;
	assert.equal(settings.https?.shown, 'http://proxy.example:8080');
	assert.equal(settings.https?.url, 'http://me:pa%20ss@proxy.example:8080/ignored');
	assert.equal(readProxySettings({HTTP_PROXY: 'proxy.corp:3128'})!.http?.url, 'http://proxy.corp:3128');

	assert.throws(
		() => readProxySettings({HTTPS_PROXY: 'http://me:secret@[bad'}),
		(error: Error) => {
			assert.ok(error instanceof ProxyConfigError);
			assert.equal(error.message, 'HTTPS_PROXY is not a proxy URL (expected e.g. http://proxy.example:8080)');
			return true;
		},
	);
	assert.throws(() => readProxySettings({http_proxy: 'socks5://proxy.example'}), /^ProxyConfigError: http_proxy names a proxy of the unsupported scheme socks5 \(supported: http, https\)$/);
});

test('proxyFor agrees with the requests undici really sends through the proxy, for every NO_PROXY form', async () => {
	const {port} = new URL(mock.origin);
	const cases = ['', '127.0.0.1', `127.0.0.1:${port}`, `127.0.0.1:${Number(port) + 1}`, 'localhost', 'LOCALHOST', '.0.0.1', '*.0.0.1', '0.1', '*', 'localhost, *', 'example.com 127.0.0.1', 'example.com'];
	for (const noProxy of cases) {
		const proxies = readProxySettings({HTTP_PROXY: proxy.url, NO_PROXY: noProxy})!;
		const dispatcher = createDispatcher(proxies);
		try {
			for (const host of ['127.0.0.1', 'localhost']) {
				const url = `http://${host}:${port}/v1/chat/completions`;
				const seen = proxy.forwarded.length;
				mock.enqueue({text: 'ok'});
				const response = await send(url, {headers: {}, body: '{}', signal: undefined, headersTimeoutMs: 5000, bodyTimeoutMs: 5000}, {dispatcher, proxies});
				await response.body.toArray();
				const proxied = proxy.forwarded.length > seen;
				assert.equal(proxied, proxyFor(proxies, new URL(url)) !== undefined, `NO_PROXY=${JSON.stringify(noProxy)}, ${url}: undici ${proxied ? 'proxied' : 'went direct'}`);
				assert.equal(response.proxy, proxied ? `the proxy ${proxy.url} (from HTTP_PROXY)` : undefined);
			}
		} finally {
			await dispatcher.close();
		}
	}
});
