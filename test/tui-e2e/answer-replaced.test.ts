// The chat screen shows the text an extension's MessageEnd replacement left,
// as the session keeps it (issue 47, point 7).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, writeExtensionFile} from '../helpers/cli.js';
import {sessionSteps, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('a redacting MessageEnd handler: the screen ends up showing only the redacted answer, which the session keeps', async () => {
	const box = makeSandbox();
	const file = writeExtensionFile(box, 'redactor.mjs', `export default api => api.registerEventHandler('MessageEnd', event => ({content: event.message.content.replaceAll(/secret-\\w+/g, '[REDACTED]')}));`);
	const session = join(box.root, 'chat.json');
	mock.enqueue({text: 'The key is secret-abc123, kept in one paragraph of several deltas.'});
	const {run} = await startChat(mock, {box, args: ['--extension', file, '--session', session]});
	try {
		run.type('the key?\r');
		await run.waitFor(screen => screen.includes('The key is [REDACTED], kept in one paragraph of several deltas.'), 'the redacted answer', {whole: true});
		assert.doesNotMatch(run.buffer().join('\n'), /secret-abc123/);
		const answers = () =>
			sessionSteps(session)
				.flat()
				.filter(message => message.role === 'assistant')
				.map(message => message.content);
		await run.waitUntil(() => answers().length > 0, 'the answer saved');
		assert.deepEqual(answers(), ['The key is [REDACTED], kept in one paragraph of several deltas.']);
	} finally {
		await run.close();
	}
});
