import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('/he and Tab complete to /help, which shows the keys; /session names the session; /exit leaves with 0', async () => {
	const {run, box} = await startChat(mock, {args: ['--session', 'chat.json']});
	try {
		const requests = mock.requests.length;
		run.type('/he');
		await run.waitFor(screen => screen.includes('› /he'), 'the typed prefix');
		run.type('\t');
		await run.waitFor(screen => screen.split('\n').includes('› /help'), 'the completed command');
		run.type('\r');
		await run.waitFor(screen => screen.includes('Alt+Enter or Ctrl-J starts a new line') && screen.includes('/exit'), 'the help');

		const header = JSON.parse(readFileSync(join(box.workspace, 'chat.json'), 'utf8').split('\n', 1)[0]!) as {id: string};
		run.type('/session\r');
		await run.waitFor(screen => screen.includes(`session ${header.id}`), 'the session ID');

		run.type('/exit\r');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 0);
		assert.equal(mock.requests.length, requests, 'no command went to the model');
	} finally {
		await run.close();
	}
});
