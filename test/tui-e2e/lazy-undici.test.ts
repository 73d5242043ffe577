// The chat screen draws and listens without undici; the first message loads it.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {importRecorder as recorder, undiciChunk} from '../helpers/import-log.js';
import {makeSandbox} from '../helpers/cli.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('the chat screen is ready without undici; the first message loads it', async () => {
	const box = makeSandbox();
	const log = join(box.root, 'imports.log');
	const loaded = () =>
		readFileSync(log, 'utf8')
			.split('\n')
			.filter(url => undiciChunk.test(url)).length;
	const {run} = await startChat(mock, {box, env: {NODE_OPTIONS: `--import=${recorder}`, I_TEST_IMPORT_LOG: log}});
	try {
		assert.ok(readFileSync(log, 'utf8').includes('/bundle/cli.js'), 'the recorder saw the bundle');
		assert.equal(loaded(), 0);
		mock.enqueue({text: 'the first answer'});
		run.type('hello\r');
		await run.waitFor(screen => screen.includes('the first answer'), 'the answer');
		assert.equal(loaded(), 1);
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
	} finally {
		await run.close();
	}
});
