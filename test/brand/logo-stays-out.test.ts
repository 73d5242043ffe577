import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {colours} from '../../brand/glyph.js';
import {renderAscii} from '../../brand/render-ascii.js';
import {renderSystemPrompt} from '../../source/core/history/system-prompt.js';
import {createNativeTools} from '../../source/core/tools/native-tools.js';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

/** What would give the logo away: its block characters (every plain and ANSI row has some), its ASCII rows, its colours, any escape sequence. */
function logoTraces(text: string): string[] {
	const markers = [
		'▀',
		'▄',
		'█',
		'\u001B[',
		...Object.values(colours),
		...renderAscii()
			.split('\n')
			.filter(line => line.trim() !== ''),
	];
	return markers.filter(marker => text.toLowerCase().includes(marker.toLowerCase()));
}

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('the system prompt and the native tool schemas carry no trace of the logo', () => {
	assert.deepEqual(logoTraces(renderSystemPrompt('/workspace')), []);
	const schemas = createNativeTools().map(tool => ({name: tool.name, description: tool.description, parameters: tool.parameters}));
	assert.equal(schemas.length, 8);
	assert.deepEqual(logoTraces(JSON.stringify(schemas)), []);
});

test('a turn sends the model no trace of the logo and saves none in the session', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	mock.enqueue({text: 'hello'});
	const session = join(box.root, 'session.json');
	const before = mock.requests.length;
	const run = await runCli(['-p', 'hi', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const sent = mock.requests.slice(before);
	assert.equal(sent.length, 1);
	assert.ok(JSON.stringify(sent[0]!.body).includes('"tools"'), 'the request carried the tool schemas');
	assert.deepEqual(logoTraces(JSON.stringify(sent[0]!.body)), []);
	assert.deepEqual(logoTraces(readFileSync(session, 'utf8')), []);
});
