// Model calls through a real HTTP proxy (the npm package `proxy`) on
// 127.0.0.1: forwarded for http:// endpoints, tunnelled with CONNECT for
// https:// ones (a TLS mock whose test CA is trusted through
// NODE_EXTRA_CA_CERTS); NO_PROXY, lower-case variables, and proxies that
// are down, refuse or drop.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {createServer as createTcpServer, type AddressInfo, type Server, type Socket} from 'node:net';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type CliRun} from '../helpers/cli.js';
import {startTestProxy, type TestProxy} from '../helpers/http-proxy.js';
import {makeTestCa, type TestCa} from '../helpers/test-ca.js';

let mock: MockProvider;
let tlsMock: MockProvider;
let ca: TestCa;
before(async () => {
	ca = makeTestCa();
	mock = await startMockProvider();
	tlsMock = await startMockProvider({tls: {key: ca.key, cert: ca.cert}});
});
after(async () => Promise.all([mock.close(), tlsMock.close()]));

/** One -p turn against `baseUrl` with these extra environment variables (one retry, so failures are quick). */
async function turn(baseUrl: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: baseUrl, model: 'm', max_retries: 1});
	return runCli(['-p', 'hi', '-C', box.workspace], {env: {...box.env, ...env}});
}

async function withProxy(run: (proxy: TestProxy) => Promise<void>, options?: Parameters<typeof startTestProxy>[0]): Promise<void> {
	const proxy = await startTestProxy(options);
	try {
		await run(proxy);
	} finally {
		await proxy.close();
	}
}

/** A port nothing listens on (a server bound there, then closed). */
async function closedPort(): Promise<number> {
	const server = createTcpServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	await new Promise(resolve => server.close(resolve));
	return port;
}

/** A TCP server that does `respond` with each connection: a proxy with a fixed misbehaviour. */
async function rawServer(respond: (socket: Socket) => void): Promise<{port: number; server: Server}> {
	const server = createTcpServer(respond);
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return {port: (server.address() as AddressInfo).port, server};
}

const tlsHost = () => new URL(tlsMock.origin).host;
const trusted = () => ({NODE_EXTRA_CA_CERTS: ca.caPath});

test('an http:// endpoint: the turn is forwarded through HTTP_PROXY', async () => {
	await withProxy(async proxy => {
		mock.enqueue({text: 'forwarded'});
		const run = await turn(mock.baseUrl('openai'), {HTTP_PROXY: proxy.url});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, 'forwarded\n');
		assert.deepEqual(proxy.forwarded, [`${mock.origin}/v1/chat/completions`]);
		assert.deepEqual(proxy.tunnels, []);
		// The proxy's own Via header reached the endpoint.
		assert.match(String(mock.requests.at(-1)?.headers.via), /\(proxy\/4\./);
	});
});

test('an https:// endpoint: the turn tunnels through HTTPS_PROXY with CONNECT, trusting the CA from NODE_EXTRA_CA_CERTS', async () => {
	await withProxy(async proxy => {
		tlsMock.enqueue({text: 'tunnelled'});
		const before = tlsMock.requests.length;
		const run = await turn(tlsMock.baseUrl('openai'), {HTTPS_PROXY: proxy.url, ...trusted()});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, 'tunnelled\n');
		assert.deepEqual(proxy.tunnels, [tlsHost()]);
		assert.deepEqual(proxy.forwarded, []);
		assert.equal(tlsMock.requests.length, before + 1);
	});
});

test('without NODE_EXTRA_CA_CERTS the same endpoint is not trusted, and the error says so, once', async () => {
	await withProxy(async proxy => {
		const run = await turn(tlsMock.baseUrl('openai'), {HTTPS_PROXY: proxy.url});
		assert.equal(run.code, 1);
		assert.match(run.stderr, new RegExp(`i: error: openai: connection through the proxy ${proxy.url} \\(from HTTPS_PROXY\\) failed \\(.*(certificate|UNABLE_TO_VERIFY).*\\)`));
		assert.doesNotMatch(run.stderr, /retry 1/);
	});
});

test('an https:// proxy: TLS to the proxy as well, both trusted through NODE_EXTRA_CA_CERTS', async () => {
	await withProxy(
		async proxy => {
			assert.match(proxy.url, /^https:/);
			tlsMock.enqueue({text: 'TLS all the way'});
			const run = await turn(tlsMock.baseUrl('openai'), {HTTPS_PROXY: proxy.url, ...trusted()});
			assert.equal(run.code, 0, run.stderr);
			assert.equal(run.stdout, 'TLS all the way\n');
			assert.deepEqual(proxy.tunnels, [tlsHost()]);
		},
		{tls: {key: ca.key, cert: ca.cert}},
	);
});

test('NODE_EXTRA_CA_CERTS is trusted without a proxy too', async () => {
	tlsMock.enqueue({text: 'direct and trusted'});
	const run = await turn(tlsMock.baseUrl('openai'), trusted());
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'direct and trusted\n');
});

test('NO_PROXY=127.0.0.1 sends http:// and https:// endpoints on 127.0.0.1 direct', async () => {
	await withProxy(async proxy => {
		const env = {HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com, 127.0.0.1', ...trusted()};
		mock.enqueue({text: 'plain'});
		tlsMock.enqueue({text: 'secure'});
		const plain = await turn(mock.baseUrl('openai'), env);
		const secure = await turn(tlsMock.baseUrl('openai'), env);
		assert.equal(plain.code, 0, plain.stderr);
		assert.equal(secure.code, 0, secure.stderr);
		assert.equal(plain.stdout + secure.stdout, 'plain\nsecure\n');
		assert.equal(proxy.connections, 0);
	});
});

test('NO_PROXY=localhost bypasses the proxy for localhost, and only for the name as written', async () => {
	await withProxy(async proxy => {
		const env = {HTTP_PROXY: proxy.url, no_proxy: 'localhost'};
		const local = mock.baseUrl('openai').replace('127.0.0.1', 'localhost');
		mock.enqueue({text: 'by name'}, {text: 'by address'});
		const byName = await turn(local, env);
		assert.equal(byName.code, 0, byName.stderr);
		assert.equal(byName.stdout, 'by name\n');
		assert.equal(proxy.connections, 0);
		// The same server by its address is not "localhost": proxied.
		const byAddress = await turn(mock.baseUrl('openai'), env);
		assert.equal(byAddress.code, 0, byAddress.stderr);
		assert.equal(byAddress.stdout, 'by address\n');
		assert.deepEqual(proxy.forwarded, [`${mock.origin}/v1/chat/completions`]);
	});
});

test('lower-case https_proxy works, and wins over HTTPS_PROXY', async () => {
	const dead = await closedPort();
	await withProxy(async proxy => {
		tlsMock.enqueue({text: 'lower case'});
		const run = await turn(tlsMock.baseUrl('openai'), {https_proxy: proxy.url, HTTPS_PROXY: `http://127.0.0.1:${dead}`, ...trusted()});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, 'lower case\n');
		assert.deepEqual(proxy.tunnels, [tlsHost()]);
	});
});

test('credentials in the proxy URL go to the proxy, and the turn works', async () => {
	const expected = `Basic ${Buffer.from('me:s3cret pass').toString('base64')}`;
	await withProxy(
		async proxy => {
			const withCredentials = proxy.url.replace('//', '//me:s3cret%20pass@');
			mock.enqueue({text: 'forwarded'});
			tlsMock.enqueue({text: 'tunnelled'});
			const plain = await turn(mock.baseUrl('openai'), {HTTP_PROXY: withCredentials});
			const secure = await turn(tlsMock.baseUrl('openai'), {HTTPS_PROXY: withCredentials, ...trusted()});
			assert.equal(plain.code, 0, plain.stderr);
			assert.equal(secure.code, 0, secure.stderr);
			assert.deepEqual(proxy.authorizations, [expected, expected]);
			// The endpoint never sees the proxy's credentials.
			assert.equal(mock.requests.at(-1)?.headers['proxy-authorization'], undefined);
		},
		{authenticate: request => request.headers['proxy-authorization'] === expected},
	);
});

for (const [kind, variable] of [
	['https://', 'HTTPS_PROXY'],
	['http://', 'HTTP_PROXY'],
] as const) {
	test(`a dead proxy for an ${kind} endpoint fails the turn (exit 1) naming the proxy without its credentials, after a retry`, async () => {
		const dead = await closedPort();
		const baseUrl = kind === 'https://' ? tlsMock.baseUrl('openai') : mock.baseUrl('openai');
		const run = await turn(baseUrl, {[variable]: `http://someone:hunter22@127.0.0.1:${dead}`, ...trusted()});
		assert.equal(run.code, 1);
		assert.equal(run.stdout, '');
		const refused = `openai: cannot reach the proxy http://127.0.0.1:${dead} (from ${variable}): connection refused`;
		assert.ok(run.stderr.includes(`i: ${refused.slice('openai: '.length)}; retry 1 in`), run.stderr);
		assert.ok(run.stderr.includes(`i: error: ${refused} (gave up after 1 retry)`), run.stderr);
		assert.doesNotMatch(run.stderr, /someone|hunter22/);
	});
}

test('a proxy answering CONNECT with 407 fails the turn at once, saying so', async () => {
	await withProxy(
		async proxy => {
			const run = await turn(tlsMock.baseUrl('openai'), {HTTPS_PROXY: proxy.url, ...trusted()});
			assert.equal(run.code, 1);
			assert.ok(run.stderr.includes(`i: error: openai: the proxy ${proxy.url} (from HTTPS_PROXY) answered CONNECT ${tlsHost()} with HTTP 407 Proxy Authentication Required\n`), run.stderr);
			assert.doesNotMatch(run.stderr, /retry 1/);
			assert.equal(proxy.tunnels.length, 1);
		},
		{authenticate: () => false},
	);
});

test('a proxy answering a forwarded request with 407 fails the turn at once, saying so', async () => {
	await withProxy(
		async proxy => {
			const run = await turn(mock.baseUrl('openai'), {HTTP_PROXY: proxy.url});
			assert.equal(run.code, 1);
			assert.ok(run.stderr.includes(`i: error: openai: the proxy ${proxy.url} (from HTTP_PROXY) answered the request with HTTP 407 Proxy Authentication Required\n`), run.stderr);
			assert.doesNotMatch(run.stderr, /retry 1/);
		},
		{authenticate: () => false},
	);
});

test('a proxy that cannot reach the endpoint (CONNECT answered 500 by the real proxy) is retried like a 5xx, then reported', async () => {
	const dead = await closedPort();
	await withProxy(async proxy => {
		const run = await turn(`https://127.0.0.1:${dead}/v1`, {HTTPS_PROXY: proxy.url, ...trusted()});
		assert.equal(run.code, 1);
		assert.ok(run.stderr.includes(`i: error: openai: the proxy ${proxy.url} (from HTTPS_PROXY) answered CONNECT 127.0.0.1:${dead} with HTTP 500 Internal Server Error (gave up after 1 retry)\n`), run.stderr);
		assert.equal(proxy.tunnels.length, 2);
	});
});

test('a proxy answering CONNECT with 502 is retried like a 5xx, then reported', async () => {
	// A fixed answer on a raw socket: the status line is all this checks.
	let asked = 0;
	const {port, server} = await rawServer(socket => {
		asked++;
		socket.once('data', () => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
	});
	try {
		const run = await turn(tlsMock.baseUrl('openai'), {HTTPS_PROXY: `http://127.0.0.1:${port}`, ...trusted()});
		assert.equal(run.code, 1);
		assert.ok(run.stderr.includes(`i: error: openai: the proxy http://127.0.0.1:${port} (from HTTPS_PROXY) answered CONNECT ${tlsHost()} with HTTP 502 Bad Gateway (gave up after 1 retry)\n`), run.stderr);
		assert.equal(asked, 2);
	} finally {
		server.close();
	}
});

test('a proxy that drops the connection is retried like a dropped connection, then reported', async () => {
	const {port, server} = await rawServer(socket => socket.destroy());
	try {
		for (const [baseUrl, variable] of [
			[tlsMock.baseUrl('openai'), 'HTTPS_PROXY'],
			[mock.baseUrl('openai'), 'HTTP_PROXY'],
		] as const) {
			const run = await turn(baseUrl, {[variable]: `http://127.0.0.1:${port}`, ...trusted()});
			assert.equal(run.code, 1);
			assert.match(run.stderr, /retry 1 in/);
			assert.match(run.stderr, new RegExp(`i: error: openai: connection through the proxy http://127\\.0\\.0\\.1:${port} \\(from ${variable}\\) failed \\(.+\\) \\(gave up after 1 retry\\)\\n`));
		}
	} finally {
		server.close();
	}
});

test('a proxy variable that is no URL fails the turn without echoing it', async () => {
	const run = await turn(mock.baseUrl('openai'), {HTTP_PROXY: 'http://me:pw@[not a host'});
	assert.equal(run.code, 1);
	assert.ok(run.stderr.includes('i: error: openai: HTTP_PROXY is not a proxy URL (expected e.g. http://proxy.example:8080); nothing was sent\n'), run.stderr);
	assert.doesNotMatch(run.stderr, /me:pw/);
});
