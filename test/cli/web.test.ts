import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {page, startWebServer, type WebServer} from '../fixtures/web-server.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

let mock: MockProvider;
let site: WebServer;
before(async () => {
	mock = await startMockProvider();
	site = await startWebServer({'/notes.html': page('<html><head><title>Release notes</title><script>steal()</script></head><body><h1>v2</h1><p>Faster &amp; smaller.</p></body></html>')});
});
after(async () => Promise.all([mock.close(), site.close()]));

/** The web profile alone, with web.json trusting (or not) the local page's host, and naming a search endpoint or not. */
function webOnly(trusted: boolean, search?: {url: string}) {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'web', tools: []}));
	writeFileSync(join(box.configDir, 'web.json'), JSON.stringify({...(trusted ? {trusted_hosts: ['127.0.0.1']} : {}), ...(search ? {search} : {})}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['builtin.json']});
	return box;
}

test('the web profile: web_fetch of a trusted local page reaches the model as a tool result; web_search, with no search endpoint, is not offered', async () => {
	const box = webOnly(true);
	mock.enqueue({toolCalls: [{id: 'w1', name: 'web_fetch', arguments: JSON.stringify({url: `${site.origin}/notes.html`})}]}, {text: 'v2 is faster'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'what is new?', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /v2 is faster/);
	const offered = mock.requests[sent]!.body.tools.map((tool: any) => tool.function.name);
	assert.ok(offered.includes('web_fetch') && !offered.includes('web_search'), offered.join(', '));
	const result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.equal(result.tool_call_id, 'w1');
	assert.equal(result.content, `URL: ${site.origin}/notes.html\nContent-Type: text/html; charset=utf-8\nTitle: Release notes\n\n# v2\n\nFaster & smaller.`);
});

test('the web profile without trust: the refusal reaches the model as a tool error and the page is never requested', async () => {
	const box = webOnly(false);
	const hits = site.hits.length;
	mock.enqueue({toolCalls: [{id: 'w2', name: 'web_fetch', arguments: JSON.stringify({url: `${site.origin}/notes.html`})}]}, {text: 'could not read it'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'what is new?', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.match(result.content, /refused to connect to 127\.0\.0\.1: not a public address \(loopback\)/);
	assert.equal(site.hits.length, hits);
});

test('web_search is offered once web.json names a search endpoint', async () => {
	const box = webOnly(true, {url: `${site.origin}/search`});
	mock.enqueue({text: 'ok'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'search?', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const offered = mock.requests[sent]!.body.tools.map((tool: any) => tool.function.name);
	assert.ok(offered.includes('web_fetch') && offered.includes('web_search'), offered.join(', '));
});

test('a failing web tool is one line on stderr that names the reason, never the worker’s command line', async () => {
	const box = webOnly(false);
	mock.enqueue({toolCalls: [{id: 'w3', name: 'web_fetch', arguments: JSON.stringify({url: `${site.origin}/notes.html`})}]}, {text: 'could not read it'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'what is new?', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const failure = run.stderr.split('\n').filter(line => line.startsWith('i: web_fetch failed: '));
	assert.equal(failure.length, 1, run.stderr);
	assert.match(failure[0]!, /^i: web_fetch failed: external tool "web_fetch" of the web module \(.*builtin\.json\) failed: refused to connect to 127\.0\.0\.1: not a public address \(loopback\)/);
	assert.doesNotMatch(run.stderr, /--runtime|"official"|worker \[/);
	const result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.doesNotMatch(result.content, /--runtime|worker \[/, 'nor does the model get it');
});
