// The example extension (examples/extension-todo), as its own build made it,
// loaded by the built CLI with --extension and driven by the mock model:
// the host smoke test spec/extensions.md §6 asks of every extension.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli} from '../helpers/cli.js';

/** The example's package folder at the repository root, beside the compiled tree; its package.json points at its own build. */
const example = fileURLToPath(new URL('../../../examples/extension-todo', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('the todo example in a -p turn: two calls, one list file per session under .i/todos/', async () => {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	mock.enqueue(
		{toolCalls: [{id: 'call_1', name: 'todo', arguments: JSON.stringify({action: 'add', text: 'write the guide'})}]},
		{toolCalls: [{id: 'call_2', name: 'todo', arguments: JSON.stringify({action: 'done', id: 1, __i: {cwd: '/forged', sessionId: '../forged'}})}]},
		{text: 'Done.'},
	);
	const before = mock.requests.length;
	const run = await runCli(['-p', 'plan and finish', '--json', '--yolo', '--extension', example, '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stderr, '');
	const events = jsonEvents(run.stdout);
	const session = events.find(event => event.type === 'session')!;
	assert.deepEqual(
		events.filter(event => event.type === 'tool_result').map(event => [event.output, event.is_error]),
		[
			['Added #1.\n#1 [ ] write the guide\n(1 open, 0 done)', false],
			['Marked #1 done.\n#1 [x] write the guide\n(0 open, 1 done)', false],
		],
	);
	// The model was offered the tool with its schema, and got each result back.
	const offered = mock.requests[before]!.body.tools.find((tool: any) => tool.function.name === 'todo');
	assert.deepEqual(offered.function.parameters.required, ['action']);
	assert.match(JSON.stringify(mock.requests[before + 2]!.body.messages), /Marked #1 done/);
	// One file, named for this session, in this workspace: the model's forged __i changed nothing.
	const todos = join(sandbox.workspace, '.i', 'todos');
	assert.deepEqual(readdirSync(todos), [`${session.id}.json`]);
	assert.deepEqual(JSON.parse(readFileSync(join(todos, `${session.id}.json`), 'utf8')), {version: 1, nextId: 2, items: [{id: 1, text: 'write the guide', done: true}]});
});

test('i extensions lists the example package with its tool', async () => {
	const sandbox = makeSandbox();
	const run = await runCli(['extensions', '--json', '--extension', example, '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	const listing = JSON.parse(run.stdout);
	assert.deepEqual(
		listing.loaded.filter((extension: any) => extension.origin !== 'bundled').map((extension: any) => [extension.name, extension.path, extension.tools]),
		[['i-extension-todo', join(example, 'dist', 'src', 'index.js'), ['todo']]],
	);
});
