import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('with --yolo the chat screen still asks before a command outside the sandbox, saying so; y runs it', async () => {
	const {run, box} = await startChat(mock, {args: ['--yolo']});
	try {
		mock.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'echo out > outside-proof.txt', sandbox: false})}]}, {text: 'Ran it outside.'});
		run.type('run it outside\r');
		await run.waitFor(screen => screen.includes('Run outside the sandbox: echo out > outside-proof.txt'), 'the question');
		assert.ok(run.screen().some(row => row.includes('[a] allow shell outside the sandbox for this session')));
		assert.ok(!run.screen().some(row => row.includes('[r] always')), 'no rule can allow it');
		// Keys typed the moment a question appears are taken for the editor's.
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('y');
		await run.waitFor(screen => screen.includes('Ran it outside.'), 'the answer');
		assert.equal(readFileSync(join(box.workspace, 'outside-proof.txt'), 'utf8'), 'out\n');
	} finally {
		await run.close();
	}
});
