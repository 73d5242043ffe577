import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('the built program searches a big workspace with its search thread and exits when done', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	for (let folder = 0; folder < 30; folder++) {
		mkdirSync(join(box.workspace, `dir${folder}`));
		for (let file = 0; file < 100; file++) writeFileSync(join(box.workspace, `dir${folder}`, `f${file}.txt`), file === 50 ? `the needle of ${folder}\n` : 'hay\n');
	}

	mock.enqueue({toolCalls: [{id: 's1', name: 'search', arguments: JSON.stringify({pattern: 'needle'})}]}, {text: 'found them'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'find the needles', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool').content as string;
	assert.match(result, /\(30 matches in 30 files; 3000 files searched\)/);
	assert.equal(result.split('\n').filter(line => /^dir\d+\/f50\.txt:1: the needle of \d+$/.test(line)).length, 30);
});
