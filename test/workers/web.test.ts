import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {createServer as createHttpsServer} from 'node:https';
import type {AddressInfo} from 'node:net';
import type {TLSSocket} from 'node:tls';
import {siteTestCert, siteTestKey} from '../fixtures/tls-site-test.js';
import {page, redirect, startWebServer, type Route, type WebServer} from '../fixtures/web-server.js';
import {makeFolders, startOfficialWorker, type Frame} from './frame-worker.js';

/** The web worker with this web.json, and a function making one web_fetch call. */
async function webWorker(t: TestContext, config: Record<string, unknown>, extraEnv: NodeJS.ProcessEnv = {}) {
	const folders = await makeFolders(t);
	writeFileSync(join(folders.config, 'web.json'), JSON.stringify(config));
	const worker = startOfficialWorker(t, 'web', [], {env: {...folders.env, ...extraEnv}});
	let id = 0;
	return {
		folders,
		async fetch(url: string, more: Record<string, unknown> = {}): Promise<Frame> {
			return worker.request({id: ++id, event: 'tool', data: {name: 'web_fetch', arguments: {url, ...more}}, paths: folders.paths});
		},
	};
}

async function server(t: TestContext, routes: Record<string, Route>): Promise<WebServer> {
	const started = await startWebServer(routes);
	t.after(() => started.close());
	return started;
}

test('127.0.0.1 is refused by default, before any connection; trusted as a host or a network it is fetched', async t => {
	const site = await server(t, {'/': page('<title>Local</title><p>hello from the local page</p>')});
	const untrusted = await webWorker(t, {});
	const refused = await untrusted.fetch(`${site.origin}/`);
	assert.match(refused.error, /^refused to connect to 127\.0\.0\.1: not a public address \(loopback\); trust it in web\.json "trusted_hosts" or "trusted_networks" to allow it$/);
	assert.equal(site.hits.length, 0);

	const byHost = await webWorker(t, {trusted_hosts: ['127.0.0.1']});
	const fetched = await byHost.fetch(`${site.origin}/`);
	assert.equal(fetched.data.output, `URL: ${site.origin}/\nContent-Type: text/html; charset=utf-8\nTitle: Local\n\nhello from the local page`);
	const byNetwork = await webWorker(t, {trusted_networks: ['127.0.0.0/8']});
	assert.match((await byNetwork.fetch(`${site.origin}/`)).data.output, /hello from the local page/);
	assert.equal(site.hits.length, 2);
});

test('character references read as a browser reads them: named, numeric and escaped ones; an unknown or broken one stays as written', async t => {
	const html = '<title>Wait&hellip;</title><p>Wait&hellip; then&nbsp;smile &#x1F600; &amp;lt;b&amp;gt; is escaped</p><p>&qwerty; &#xZZ; &#; & alone</p>';
	const site = await server(t, {'/': page(html)});
	const web = await webWorker(t, {trusted_hosts: ['127.0.0.1']});
	const output = (await web.fetch(`${site.origin}/`)).data.output as string;
	assert.equal(output, `URL: ${site.origin}/\nContent-Type: text/html; charset=utf-8\nTitle: Wait…\n\nWait… then smile 😀 &lt;b&gt; is escaped\n\n&qwerty; &#xZZ; &#; & alone`);
});

test('other loopback forms are refused even when 127.0.0.1 is a trusted host (IPv6, IPv4-mapped, localhost through the system resolver); numeric forms of 127.0.0.1 are refused untrusted', async t => {
	const site = await server(t, {'/': page('<p>secret</p>')});
	const web = await webWorker(t, {trusted_hosts: ['127.0.0.1']});
	const port = site.port;
	const cases: Array<[string, RegExp]> = [
		[`http://[::1]:${port}/`, /refused to connect to ::1: not a public address \(loopback\)/],
		[`http://[::ffff:127.0.0.1]:${port}/`, /refused to connect to ::ffff:7f00:1: not a public address \(loopback, IPv4 inside IPv6\)/],
		[`http://[::ffff:7f00:1]:${port}/`, /refused to connect to ::ffff:7f00:1/],
		[`http://[0:0:0:0:0:ffff:a00:1]:${port}/`, /not a public address \(private, IPv4 inside IPv6\)/],
		[`http://localhost:${port}/`, /refused to connect to (127\.0\.0\.1|::1) \(localhost resolves to it\): not a public address \(loopback\)/],
	];
	for (const [url, error] of cases) assert.match((await web.fetch(url)).error, error, url);
	assert.equal(site.hits.length, 0);
	// Numeric forms are 127.0.0.1 itself once the URL is parsed: refused unless trusted.
	const untrusted = await webWorker(t, {});
	for (const url of [`http://2130706433:${port}/`, `http://0x7f.1:${port}/`, `http://127.1:${port}/`])
		assert.match((await untrusted.fetch(url)).error, /^refused to connect to 127\.0\.0\.1: not a public address \(loopback\)/, url);
	assert.equal(site.hits.length, 0);
	assert.match((await web.fetch('file:///etc/passwd')).error, /^only http:\/\/ and https:\/\/ URLs can be fetched \(got file:\/\/\)$/);
	assert.match((await web.fetch('not a url')).error, /^not a valid URL: "not a url"$/);
});

test('a redirect chain stops at 5 requests: the 6th is never made; 5 requests in all still succeed', async t => {
	const routes: Record<string, Route> = {'/final': page('arrived', 'text/plain')};
	for (let hop = 1; hop <= 6; hop++) routes[`/r${hop}`] = redirect(hop === 6 ? '/final' : `/r${hop + 1}`);
	const site = await server(t, routes);
	const web = await webWorker(t, {trusted_hosts: ['127.0.0.1']});
	const stopped = await web.fetch(`${site.origin}/r1`);
	assert.equal(stopped.error, `stopped: one call makes at most 5 HTTP requests, redirects included; request 6 (to ${site.origin}/r6) was not made`);
	assert.deepEqual(
		site.hits.map(hit => hit.path),
		['/r1', '/r2', '/r3', '/r4', '/r5'],
	);

	site.hits.length = 0;
	const five = await web.fetch(`${site.origin}/r3`);
	assert.equal(five.data.output, `URL: ${site.origin}/final\nRedirected from: ${['/r3', '/r4', '/r5', '/r6'].map(path => site.origin + path).join(' → ')}\nContent-Type: text/plain\n\narrived`);
	assert.equal(site.hits.length, 5);
});

test('a 2 MB body is cut at 1 MB; the output is cut at 50000 characters (or max_chars), each with a note', async t => {
	const MB = 1024 * 1024;
	// Visible text before the 1 MB mark, hidden filler, visible text after it.
	const early = '<p>EARLY</p>';
	const filler = `<!--${'x'.repeat(MB - 100)}-->`;
	// MIDDLE ends just before the 1 MB mark, LATE starts just after it.
	const html = `${early}${filler}<p>MIDDLE</p><!--${'z'.repeat(200)}--><p>LATE</p>${'<!--y-->'.repeat(MB / 8 + 100)}`;
	assert.ok(html.indexOf('MIDDLE') < MB && html.indexOf('LATE') > MB);
	assert.ok(Buffer.byteLength(html) >= 2 * MB);
	const exact = 'e'.repeat(MB);
	const site = await server(t, {
		'/big.html': page(html),
		'/big.txt': page('z'.repeat(2 * MB), 'text/plain'),
		'/exact.txt': page(exact, 'text/plain'),
		'/article.html': page(`<title>Article</title>${Array.from({length: 20_000}, (_, n) => `<p>line ${n}</p>`).join('')}`),
	});
	const web = await webWorker(t, {trusted_hosts: ['127.0.0.1']});

	const cut = (await web.fetch(`${site.origin}/big.html`)).data.output as string;
	assert.match(cut, /EARLY\n\nMIDDLE\n\n\[the page's body/);
	assert.doesNotMatch(cut, /LATE/);
	assert.match(cut, /\[the page's body was cut at 1048576 bytes \(1 MB\); the text above is from its beginning\]$/);

	const long = (await web.fetch(`${site.origin}/big.txt`)).data.output as string;
	assert.ok(long.length <= 50_000 && long.length > 49_900, `${long.length} characters`);
	assert.match(long, /\n\n\[the page's body was cut at 1048576 bytes \(1 MB\); the text above is from its beginning\]\n\[output cut at 50000 characters: \d+ of the text's 1048576 characters shown\]$/);

	const article = (await web.fetch(`${site.origin}/article.html`)).data.output as string;
	assert.ok(article.length <= 50_000 && article.length > 49_900, `${article.length} characters`);
	assert.match(article, /^URL: .*\nContent-Type: text\/html; charset=utf-8\nTitle: Article\n\nline 0\n\nline 1\n/);
	assert.match(article, /\n\n\[output cut at 50000 characters: \d+ characters of the text shown; the page has more\]$/);

	const whole = (await web.fetch(`${site.origin}/exact.txt`, {max_chars: 300})).data.output as string;
	assert.ok(whole.length <= 300, `${whole.length}`);
	assert.match(whole, /\n\n\[output cut at 300 characters: \d+ of the text's 1048576 characters shown\]$/, 'a body of exactly 1 MB is whole: no body note');
	assert.doesNotMatch(whole, /body was cut/);
});

test('a name resolving to a private address is refused through the resolver (web.json hosts), and so is a redirect from a trusted host to an untrusted one', async t => {
	const site = await server(t, {'/': page('<p>named page</p>'), '/away': redirect('/')});
	const web = await webWorker(t, {
		trusted_hosts: ['127.0.0.1', 'site.test'],
		hosts: {'private.test': ['10.1.2.3'], 'site.test': ['127.0.0.1'], 'inside.test': ['127.0.0.1'], 'mixed.test': ['93.184.216.34', '192.168.0.9']},
	});
	assert.equal(
		(await web.fetch('http://private.test/')).error,
		'refused to connect to 10.1.2.3 (private.test resolves to it): not a public address (private); trust it in web.json "trusted_hosts" or "trusted_networks" to allow it',
	);
	// One bad address among good ones refuses the host: nothing is connected to.
	assert.match((await web.fetch('http://mixed.test/')).error, /^refused to connect to 192\.168\.0\.9 \(mixed\.test resolves to it\): not a public address \(private\)/);

	// A trusted name is connected to at its checked address, with the name as the Host header.
	const named = await web.fetch(`http://site.test:${site.port}/`);
	assert.match(named.data.output, /named page/);
	assert.equal(site.hits.at(-1)!.headers.host, `site.test:${site.port}`);

	site.hits.length = 0;
	const hop = await startWebServer({'/': redirect(`http://inside.test:${site.port}/`)});
	t.after(() => hop.close());
	const refused = await web.fetch(`${hop.origin}/`);
	assert.match(refused.error, /^refused to connect to 127\.0\.0\.1 \(inside\.test resolves to it\): not a public address \(loopback\)/);
	assert.equal(hop.hits.length, 1);
	assert.equal(site.hits.length, 0, 'the redirect target was never reached');
});

test("https: the connection goes to the checked address while TLS checks the certificate against the URL's name (SNI and Host are the name)", async t => {
	const seen: Array<{servername: unknown; host: unknown}> = [];
	const tls = createHttpsServer({cert: siteTestCert, key: siteTestKey}, (request, response) => {
		seen.push({servername: (request.socket as TLSSocket).servername, host: request.headers.host});
		response.writeHead(200, {'content-type': 'text/plain'}).end('over tls');
	});
	await new Promise<void>(resolve => tls.listen(0, '127.0.0.1', resolve));
	t.after(() => tls.close());
	const {port} = tls.address() as AddressInfo;
	const folders = await makeFolders(t);
	const ca = join(folders.root, 'site-test-ca.pem');
	writeFileSync(ca, siteTestCert);
	const web = await webWorker(t, {trusted_hosts: ['site.test', 'alias.test'], hosts: {'site.test': ['127.0.0.1'], 'alias.test': ['127.0.0.1']}}, {NODE_EXTRA_CA_CERTS: ca});
	assert.equal((await web.fetch(`https://site.test:${port}/`)).data.output, `URL: https://site.test:${port}/\nContent-Type: text/plain\n\nover tls`);
	assert.deepEqual(seen, [{servername: 'site.test', host: `site.test:${port}`}]);
	// Same address, another name: the certificate does not cover it.
	assert.match((await web.fetch(`https://alias.test:${port}/`)).error, /^GET https:\/\/alias\.test:\d+: ERR_TLS_CERT_ALTNAME_INVALID/);
});

test('no environment proxy: HTTP_PROXY and friends are ignored', async t => {
	const proxy = await server(t, {});
	const site = await server(t, {'/': page('direct', 'text/plain')});
	const proxyUrl = proxy.origin;
	const web = await webWorker(t, {trusted_hosts: ['127.0.0.1']}, {HTTP_PROXY: proxyUrl, http_proxy: proxyUrl, HTTPS_PROXY: proxyUrl, ALL_PROXY: proxyUrl, NODE_USE_ENV_PROXY: '1'});
	assert.match((await web.fetch(`${site.origin}/`)).data.output, /direct$/);
	assert.equal(proxy.hits.length, 0);
	assert.equal(site.hits.length, 1);
});

test('non-text content is refused before its body is read; HTTP errors are named', async t => {
	const site = await server(t, {
		'/image.png': page(Buffer.alloc(4096), 'image/png'),
		'/none': (_request, response) => response.end('untyped'),
		'/json': page('{"a": 1}', 'application/json'),
		'/gone': (_request, response) => response.writeHead(410, {'content-type': 'text/plain'}).end('gone'),
	});
	const web = await webWorker(t, {trusted_hosts: ['127.0.0.1']});
	assert.equal((await web.fetch(`${site.origin}/image.png`)).error, `${site.origin}/image.png is "image/png": only HTML, plain text and JSON are fetched`);
	assert.equal((await web.fetch(`${site.origin}/none`)).error, `${site.origin}/none is of no stated content type: only HTML, plain text and JSON are fetched`);
	assert.match((await web.fetch(`${site.origin}/json`)).data.output, /\n\n\{"a": 1\}$/);
	assert.equal((await web.fetch(`${site.origin}/gone`)).error, `${site.origin}/gone answered HTTP 410 Gone`);
});

test('a slow server hits the 8 s client timeout', async t => {
	// Headers at once, then a body that never ends: the deadline covers the whole call.
	const site = await server(t, {
		'/slow': (_request, response) => {
			response.writeHead(200, {'content-type': 'text/plain'});
			response.write('a little');
		},
	});
	const web = await webWorker(t, {trusted_hosts: ['127.0.0.1']});
	const started = performance.now();
	const timedOut = await web.fetch(`${site.origin}/slow`);
	const elapsed = performance.now() - started;
	assert.equal(timedOut.error, 'timed out: the whole call may take at most 8 s (DNS, connections, redirects and body)');
	assert.ok(elapsed >= 7900 && elapsed < 10_000, `${Math.round(elapsed)} ms`);
});

test('bad web.json and bad arguments are clear errors', async t => {
	const web = await webWorker(t, {trusted_networks: ['10.0.0.0/33'], hosts: {'a.test': ['not-an-ip']}});
	const bad = await web.fetch('http://example.com/');
	assert.match(bad.error, /web config .*web\.json: /);
	assert.match(bad.error, /trusted_networks/);
	const fine = await webWorker(t, {});
	assert.match((await fine.fetch('http://example.com/', {max_chars: 10})).error, /^web_fetch arguments: .*max_chars/);
});

test('max_chars is 200–50000: both ends are taken, one past either is refused', async t => {
	const page = `<p>${'word '.repeat(20_000)}</p>`;
	const site = await server(t, {'/': (_request, response) => response.writeHead(200, {'content-type': 'text/html'}).end(page)});
	const web = await webWorker(t, {trusted_hosts: ['127.0.0.1']});
	for (const chars of [200, 50_000]) {
		const output = (await web.fetch(`${site.origin}/`, {max_chars: chars})).data.output as string;
		assert.match(output, new RegExp(`cut at ${chars} characters`), `max_chars ${chars}`);
	}

	for (const chars of [199, 50_001]) assert.match((await web.fetch(`${site.origin}/`, {max_chars: chars})).error, /^web_fetch arguments: .*max_chars/, `max_chars ${chars}`);
});
