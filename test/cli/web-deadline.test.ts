// web_fetch keeps its 8 s deadline (spec/platform.md §9) in the default
// configuration, where the web module runs inside the official modules'
// host beside memory, budget, cache and approval: a server that delays its
// headers or trickles its body is cut at the deadline by the tool itself,
// well before the pool's 15 s call timeout would evict the whole host.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {ServerResponse} from 'node:http';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {startWebServer, type WebServer} from '../fixtures/web-server.js';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {CLIENT_TIMEOUT_MS} from '../../source/core/plugins/web-tools.js';

const held: ServerResponse[] = [];
let mock: MockProvider;
let site: WebServer;
before(async () => {
	mock = await startMockProvider();
	site = await startWebServer({
		// Headers never come.
		'/silent': (_request, response) => {
			held.push(response);
		},
		// Headers at once, then a byte every half second for ever.
		'/trickle': (_request, response) => {
			held.push(response);
			response.writeHead(200, {'content-type': 'text/plain'});
			const timer = setInterval(() => response.write('.'), 500);
			response.once('close', () => clearInterval(timer));
		},
	});
});
after(async () => {
	for (const response of held) response.destroy();
	await Promise.all([mock.close(), site.close()]);
});

for (const path of ['/silent', '/trickle']) {
	test(`the default profile: web_fetch of a server that ${path === '/silent' ? 'delays its headers' : 'trickles its body'} ends at its own ${CLIENT_TIMEOUT_MS / 1000} s deadline, and the host goes on`, async () => {
		const box = makeSandbox();
		// What `i --runtime init` writes: the standard profile's modules in the official host.
		writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
		writeFileSync(join(box.configDir, 'plugins.json'), JSON.stringify({profile: 'standard', disabled: []}));
		writeFileSync(join(box.configDir, 'web.json'), JSON.stringify({trusted_hosts: ['127.0.0.1']}));
		box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['builtin.json']});
		mock.enqueue(
			{toolCalls: [{id: 'w1', name: 'web_fetch', arguments: JSON.stringify({url: `${site.origin}${path}`})}]},
			// The host is still there: the memory module in it answers the next call.
			{toolCalls: [{id: 'm1', name: 'memory_write', arguments: JSON.stringify({key: 'after', text: 'the fetch'})}]},
			{text: 'done'},
		);
		const sent = mock.requests.length;
		const run = await runCli(['-p', 'fetch it', '--yolo', '-C', box.workspace], {env: box.env, timeoutMs: 40_000});
		assert.equal(run.code, 0, run.stderr);
		const results = (index: number) => mock.requests[sent + index]!.body.messages.filter((message: any) => message.role === 'tool');
		const fetched = results(1).find((message: any) => message.tool_call_id === 'w1');
		assert.match(fetched.content, new RegExp(`timed out: the whole call may take at most ${CLIENT_TIMEOUT_MS / 1000} s`));
		const written = results(2).find((message: any) => message.tool_call_id === 'm1');
		assert.doesNotMatch(written.content, /error|failed|exited/i, written.content);
		assert.doesNotMatch(run.stderr, /evict|did not answer within/i, run.stderr);
	});
}
