// Issue 48, point 1 (spec/platform.md §2): a worker's process group dies
// with it however it goes; here it answers with an error frame and exits by
// itself during the grace that gives it, which once left its children running.
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {isAlive, killQuietly, waitUntilGone} from '../pool/helpers.js';

const worker = fileURLToPath(new URL('../../../test/fixtures/workers/error-leaves-child.sh', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test("a worker's sleep is gone after the turn when the worker answered with an error frame and exited by itself", async t => {
	const box = makeSandbox();
	const pidFile = join(box.root, 'sleep.pid');
	const tool = {name: 'crash', description: 'Fails', parameters: {type: 'object', properties: {}, additionalProperties: false}, exec: ['/bin/sh', worker, pidFile]};
	writeFileSync(join(box.configDir, 'tools.json'), JSON.stringify({hooks: [], tools: [tool]}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['tools.json']});
	mock.enqueue({toolCalls: [{id: 'c1', name: 'crash', arguments: '{}'}]}, {text: 'done'});
	const run = await runCli(['-p', 'go', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.ok(existsSync(pidFile), `the worker never ran: ${run.stderr}`);
	const sleeper = Number(readFileSync(pidFile, 'utf8'));
	t.after(() => killQuietly(sleeper));
	const result = mock.requests.at(-1)!.body.messages.find((message: any) => message.role === 'tool');
	assert.match(result.content, /injected failure after starting a sleep/);
	assert.ok(await waitUntilGone(sleeper), `the worker's sleep ${sleeper} outlived i (alive: ${isAlive(sleeper)})`);
});
