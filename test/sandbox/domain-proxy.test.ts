import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, statSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {createServer as createHttpServer, get as httpGet, type IncomingMessage} from 'node:http';
import {type AddressInfo, connect, createServer, type Server, type Socket} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {checkAllowedDomains, type DomainProxy, type DomainProxyOptions, MAX_REFUSALS, startDomainProxy} from '../../source/core/sandbox/domain-proxy.js';

/** Every `.test` name resolves to this machine, as a rebinding name would. */
const toLoopback = async (host: string) => {
	if (host.endsWith('.test')) return '127.0.0.1';
	throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {code: 'ENOTFOUND'});
};

async function listening(server: Server): Promise<number> {
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
}

/** An HTTP server on 127.0.0.1 that answers with what it was asked, so a test sees what the proxy forwarded. */
async function startUpstream(t: TestContext): Promise<number> {
	const server = createHttpServer((request, response) => {
		const seen = {method: request.method, url: request.url, host: request.headers.host, proxyAuthorization: request.headers['proxy-authorization'] ?? null, keep: request.headers['x-keep'] ?? null};
		let body = '';
		request.on('data', chunk => {
			body += chunk;
		});
		request.on('end', () => {
			const text = JSON.stringify({...seen, body});
			response.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-upstream': 'yes'}).end(text);
		});
	});
	t.after(() => server.close());
	return listening(server as unknown as Server);
}

async function startProxy(t: TestContext, options: Omit<DomainProxyOptions, 'folder'>): Promise<DomainProxy & {folder: string}> {
	const root = await mkdtemp(join(tmpdir(), 'i-proxy-'));
	const folder = join(root, 'sockets');
	const proxy = await startDomainProxy({lookup: toLoopback, ...options, folder});
	t.after(async () => {
		await proxy.close();
		await rm(root, {recursive: true, force: true});
	});
	return Object.assign(proxy, {folder});
}

/** Writes raw bytes to the proxy's socket and returns everything it sends back until it closes. */
function exchange(socketPath: string, text: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = connect({path: socketPath});
		let answer = '';
		socket.on('data', chunk => {
			answer += chunk;
		});
		socket.on('error', reject);
		socket.on('close', () => resolve(answer));
		socket.write(text);
	});
}

/** Opens a CONNECT tunnel and resolves with the proxy's answer head and the open socket. */
function openTunnel(socketPath: string, authority: string): Promise<{head: string; socket: Socket}> {
	return new Promise((resolve, reject) => {
		const socket = connect({path: socketPath});
		let head = '';
		const onData = (chunk: Buffer) => {
			head += chunk;
			if (!head.includes('\r\n\r\n')) return;
			socket.off('data', onData);
			resolve({head, socket});
		};
		socket.on('data', onData);
		socket.on('error', reject);
		socket.on('close', () => resolve({head, socket}));
		socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
	});
}

/** Speaks one HTTP/1.1 request through an open tunnel and returns the answer up to the close. */
function throughTunnel(socket: Socket, host: string, path = '/'): Promise<string> {
	return new Promise(resolve => {
		let answer = '';
		socket.on('data', chunk => {
			answer += chunk;
		});
		socket.on('close', () => resolve(answer));
		socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
	});
}

const statusOf = (answer: string) => answer.split('\r\n', 1)[0];
const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

async function closedPort(): Promise<number> {
	const server = createServer();
	const port = await listening(server);
	await new Promise(resolve => server.close(resolve));
	return port;
}

test('an allowed name is reached through CONNECT, and HTTP spoken in the tunnel reaches its server', async t => {
	const port = await startUpstream(t);
	const proxy = await startProxy(t, {allowedDomains: ['api.test', '127.0.0.1']});
	const {head, socket} = await openTunnel(proxy.socketPath, `api.test:${port}`);
	assert.equal(statusOf(head), 'HTTP/1.1 200 Connection Established');
	const answer = await throughTunnel(socket, 'api.test', '/inside');
	assert.equal(statusOf(answer), 'HTTP/1.1 200 OK');
	assert.equal(JSON.parse(bodyOf(answer)).url, '/inside');
	assert.deepEqual(proxy.refusals(), []);
});

test('an allowed name is reached by a plain absolute-URI request: Host from the URI, Proxy-* and hop-by-hop headers dropped, body streamed', async t => {
	const port = await startUpstream(t);
	const proxy = await startProxy(t, {allowedDomains: ['API.test.', '127.0.0.1']});
	const request = [
		`POST http://api.test:${port}/path?q=1 HTTP/1.1`,
		'Host: wrong.example',
		'Proxy-Authorization: Basic c2VjcmV0',
		'Connection: close, X-Drop',
		'X-Drop: gone',
		'X-Keep: kept',
		'Content-Length: 5',
		'',
		'hello',
	].join('\r\n');
	const answer = await exchange(proxy.socketPath, request);
	assert.equal(statusOf(answer), 'HTTP/1.1 200 OK');
	assert.match(answer, /x-upstream: yes/i);
	assert.deepEqual(JSON.parse(bodyOf(answer)), {method: 'POST', url: '/path?q=1', host: `api.test:${port}`, proxyAuthorization: null, keep: 'kept', body: 'hello'});
});

/** A GET through the proxy with Node's own client, which decodes chunking; resolves with the status and body, rejects when the answer is cut. */
function getThrough(socketPath: string, url: string): Promise<{status: number; body: Buffer}> {
	return new Promise((resolve, reject) => {
		const request = httpGet({socketPath, path: url, agent: false}, (answer: IncomingMessage) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('error', reject);
			answer.on('end', () => resolve({status: answer.statusCode ?? 0, body: Buffer.concat(chunks)}));
		});
		request.on('error', reject);
	});
}

test('a plain request streams a chunked answer through whole, and an answer the server cuts short reaches the client cut', async t => {
	const piece = Buffer.alloc(16 * 1024, 'x');
	const server = createHttpServer((request, response) => {
		if (request.url === '/stream') {
			response.writeHead(200);
			for (let index = 0; index < 64; index++) response.write(piece);
			response.end();
			return;
		}
		response.writeHead(200, {'content-length': 1000});
		response.write('only this');
		setTimeout(() => response.socket?.destroy(), 20);
	});
	const port = await listening(server as unknown as Server);
	t.after(() => server.close());
	const proxy = await startProxy(t, {allowedDomains: ['api.test', '127.0.0.1']});
	const whole = await getThrough(proxy.socketPath, `http://api.test:${port}/stream`);
	assert.equal(whole.status, 200);
	assert.equal(whole.body.length, 64 * piece.length);
	await assert.rejects(getThrough(proxy.socketPath, `http://api.test:${port}/cut`));
});

test('a name not listed is refused with 403 and the refusal is recorded, for CONNECT and for a plain request', async t => {
	const proxy = await startProxy(t, {allowedDomains: ['api.test', '127.0.0.1']});
	const {head} = await openTunnel(proxy.socketPath, 'other.test:443');
	assert.equal(statusOf(head), 'HTTP/1.1 403 Forbidden');
	assert.equal(bodyOf(head).trim(), 'i sandbox: other.test is not in sandbox.allowedDomains (settings.json)');
	const plain = await exchange(proxy.socketPath, 'GET http://evil.test/x HTTP/1.1\r\nHost: evil.test\r\nConnection: close\r\n\r\n');
	assert.equal(statusOf(plain), 'HTTP/1.1 403 Forbidden');
	assert.deepEqual(proxy.refusals(), ['other.test:443 (not in sandbox.allowedDomains)', 'evil.test:80 (not in sandbox.allowedDomains)']);
});

test('*.svc.test allows its subdomains at any depth and refuses svc.test itself', async t => {
	const port = await startUpstream(t);
	const proxy = await startProxy(t, {allowedDomains: ['*.svc.test', '127.0.0.1']});
	for (const host of ['a.svc.test', 'a.b.svc.test']) {
		const {head, socket} = await openTunnel(proxy.socketPath, `${host}:${port}`);
		assert.equal(statusOf(head), 'HTTP/1.1 200 Connection Established', host);
		socket.destroy();
	}
	const {head} = await openTunnel(proxy.socketPath, `svc.test:${port}`);
	assert.equal(statusOf(head), 'HTTP/1.1 403 Forbidden');
	assert.deepEqual(proxy.refusals(), [`svc.test:${port} (not in sandbox.allowedDomains)`]);
});

test('a port-pinned entry allows that port and refuses another, naming host:port', async t => {
	const port = await startUpstream(t);
	const other = await closedPort();
	const proxy = await startProxy(t, {allowedDomains: [`pinned.test:${port}`, '127.0.0.1']});
	const allowed = await openTunnel(proxy.socketPath, `pinned.test:${port}`);
	assert.equal(statusOf(allowed.head), 'HTTP/1.1 200 Connection Established');
	allowed.socket.destroy();
	const {head} = await openTunnel(proxy.socketPath, `pinned.test:${other}`);
	assert.equal(statusOf(head), 'HTTP/1.1 403 Forbidden');
	assert.match(bodyOf(head), new RegExp(`pinned\\.test:${other} is not in sandbox\\.allowedDomains`));
});

test('a listed name that resolves to 127.0.0.1 is refused unless the address (or address:port) is listed too', async t => {
	const port = await startUpstream(t);
	const guarded = await startProxy(t, {allowedDomains: ['api.test']});
	const {head} = await openTunnel(guarded.socketPath, `api.test:${port}`);
	assert.equal(statusOf(head), 'HTTP/1.1 403 Forbidden');
	assert.match(bodyOf(head), /api\.test resolves to 127\.0\.0\.1, a private address; list 127\.0\.0\.1 in sandbox\.allowedDomains/);
	assert.deepEqual(guarded.refusals(), [`api.test:${port} (resolves to 127.0.0.1, a private address not in sandbox.allowedDomains)`]);
	const pinned = await startProxy(t, {allowedDomains: ['api.test', `127.0.0.1:${port}`]});
	const allowed = await openTunnel(pinned.socketPath, `api.test:${port}`);
	assert.equal(statusOf(allowed.head), 'HTTP/1.1 200 Connection Established');
	allowed.socket.destroy();
});

test('a malformed request, an oversized head or a request without an absolute URI gets 400, and the proxy keeps serving', async t => {
	const port = await startUpstream(t);
	const proxy = await startProxy(t, {allowedDomains: ['api.test', '127.0.0.1']});
	const garbage = await exchange(proxy.socketPath, 'NOT HTTP AT ALL\r\n\r\n');
	assert.equal(statusOf(garbage), 'HTTP/1.1 400 Bad Request');
	const huge = await exchange(proxy.socketPath, `GET http://api.test/ HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
	assert.equal(statusOf(huge), 'HTTP/1.1 400 Bad Request');
	assert.match(bodyOf(huge), /over 16384 bytes/);
	const relative = await exchange(proxy.socketPath, 'GET /x HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n');
	assert.equal(statusOf(relative), 'HTTP/1.1 400 Bad Request');
	const badConnect = await exchange(proxy.socketPath, 'CONNECT api.test HTTP/1.1\r\n\r\n');
	assert.equal(statusOf(badConnect), 'HTTP/1.1 400 Bad Request');
	const fine = await exchange(proxy.socketPath, `GET http://api.test:${port}/after HTTP/1.1\r\nConnection: close\r\n\r\n`);
	assert.equal(statusOf(fine), 'HTTP/1.1 200 OK');
	assert.deepEqual(proxy.refusals(), []);
});

test('an upstream that refuses the connection gives 502 with the reason; a name that does not resolve gives 502; a lookup past the timeout gives 504', async t => {
	const port = await closedPort();
	const proxy = await startProxy(t, {allowedDomains: ['api.test', '127.0.0.1', 'nowhere.invalid']});
	const {head} = await openTunnel(proxy.socketPath, `api.test:${port}`);
	assert.equal(statusOf(head), 'HTTP/1.1 502 Bad Gateway');
	assert.match(bodyOf(head), new RegExp(`cannot connect to 127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
	const plain = await exchange(proxy.socketPath, 'GET http://nowhere.invalid/ HTTP/1.1\r\nConnection: close\r\n\r\n');
	assert.equal(statusOf(plain), 'HTTP/1.1 502 Bad Gateway');
	assert.match(bodyOf(plain), /cannot resolve nowhere\.invalid: ENOTFOUND/);
	const slow = await startProxy(t, {allowedDomains: ['api.test'], lookup: () => new Promise(() => {}), connectTimeoutMs: 50});
	const late = await openTunnel(slow.socketPath, 'api.test:443');
	assert.equal(statusOf(late.head), 'HTTP/1.1 504 Gateway Timeout');
	assert.match(bodyOf(late.head), /resolving api\.test took longer than 50 ms/);
});

test('a client closing mid-tunnel closes the upstream, and an upstream closing ends the client', async t => {
	const upstreamClosed: Promise<void>[] = [];
	const held: Socket[] = [];
	const server = createServer(socket => {
		held.push(socket);
		upstreamClosed.push(new Promise(resolve => socket.on('close', () => resolve())));
	});
	const port = await listening(server);
	t.after(() => server.close());
	const proxy = await startProxy(t, {allowedDomains: ['127.0.0.1']});
	const first = await openTunnel(proxy.socketPath, `127.0.0.1:${port}`);
	assert.equal(statusOf(first.head), 'HTTP/1.1 200 Connection Established');
	first.socket.destroy();
	await upstreamClosed[0];
	const second = await openTunnel(proxy.socketPath, `127.0.0.1:${port}`);
	const clientClosed = new Promise(resolve => second.socket.on('close', resolve));
	while (held.length < 2) await new Promise(resolve => setTimeout(resolve, 5));
	held[1]!.destroy();
	await clientClosed;
});

test('close() stops listening, cuts open tunnels and removes the socket file; the socket is owner-only in a 0700 folder', async t => {
	const server = createServer(() => {});
	const port = await listening(server);
	t.after(() => server.close());
	const proxy = await startProxy(t, {allowedDomains: ['127.0.0.1']});
	assert.match(proxy.socketPath, /\/proxy-\d+-[0-9a-f]+\.sock$/);
	assert.equal(statSync(proxy.socketPath).mode & 0o777, 0o600);
	assert.equal(statSync(proxy.folder).mode & 0o777, 0o700);
	const {socket} = await openTunnel(proxy.socketPath, `127.0.0.1:${port}`);
	const cut = new Promise(resolve => socket.on('close', resolve));
	await proxy.close();
	await cut;
	assert.equal(existsSync(proxy.socketPath), false);
	await proxy.close();
});

test('refusals keep the newest MAX_REFUSALS', async t => {
	const proxy = await startProxy(t, {allowedDomains: ['api.test']});
	for (let index = 0; index <= MAX_REFUSALS; index++) await openTunnel(proxy.socketPath, `n${index}.test:443`);
	const refusals = proxy.refusals();
	assert.equal(refusals.length, MAX_REFUSALS);
	assert.equal(refusals[0], 'n1.test:443 (not in sandbox.allowedDomains)');
	assert.equal(refusals.at(-1), `n${MAX_REFUSALS}.test:443 (not in sandbox.allowedDomains)`);
});

test('startDomainProxy names a bad entry instead of starting', async () => {
	await assert.rejects(startDomainProxy({allowedDomains: ['https://example.com'], folder: join(tmpdir(), 'never-made')}), /sandbox\.allowedDomains: entry 1 \("https:\/\/example\.com"\) gives a scheme/);
});

test('checkAllowedDomains accepts good entries, including each edge', () => {
	const good = ['example.com', 'EXAMPLE.com.', '*.example.com', 'example.com:1', 'example.com:65535', '127.0.0.1', '127.0.0.1:8080', '::1', '[::1]', '[::1]:443', 'bücher.example', 'a_b.example.com'];
	assert.equal(checkAllowedDomains(good), null);
	assert.equal(checkAllowedDomains([]), null);
});

test('checkAllowedDomains names the first bad entry, one past each edge', () => {
	const cases: Array<[string, RegExp]> = [
		['', /entry 2 \(""\) is empty/],
		['   ', /is empty/],
		['https://example.com', /gives a scheme/],
		['example.com/path', /gives a path/],
		['exa mple.com', /contains a space/],
		['*example.com', /'\*' that is not a whole first label/],
		['a.*.example.com', /'\*' that is not a whole first label/],
		['*', /'\*' that is not a whole first label/],
		['*.', /'\*\.' with no domain/],
		['*.127.0.0.1', /'\*\.' before an IP address/],
		['.example.com', /starts with '\.'; write \*\.example\.com/],
		['example.com:0', /port "0"; a port is a whole number from 1 to 65535/],
		['example.com:65536', /port "65536"/],
		['example.com:', /port ""/],
		['example.com:http', /port "http"/],
		['user@example.com', /is not a host name/],
		['[example.com]:80', /brackets that do not hold an IPv6 address/],
		['a:b:c', /not a host name, an IP address or host:port/],
	];
	for (const [entry, problem] of cases) assert.match(checkAllowedDomains(['fine.example', entry]) ?? 'null', problem, entry);
});
