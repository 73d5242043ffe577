// A batch of read-only calls through the built `i` against the mock provider:
// the calls run side by side, the one that ends first is not the one told
// first, and results reach the model (and `--json`) in call order.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/**
 * `peek` only reads; a call given `after` ends once the call of that name
 * ended, so run one at a time the first call would wait for ever.
 */
const peekExtension = `
const ended = new Map();
const endOf = name => {
	if (!ended.has(name)) { let resolve; ended.set(name, {promise: new Promise(done => (resolve = done)), resolve: () => resolve()}); }
	return ended.get(name);
};
export default api => {
	api.registerTool({
		name: 'peek',
		readOnly: true,
		description: 'Peeks.',
		parameters: {type: 'object', properties: {name: {type: 'string'}, after: {type: 'string'}}, required: ['name']},
		async execute(params) {
			if (params.after) await endOf(params.after).promise;
			endOf(params.name).resolve();
			return {output: 'peeked ' + params.name};
		},
	});
};
`;

test('i -p: a batch of read-only calls runs side by side, the first ending last; --json and the model get the results in call order', async () => {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	const dir = join(sandbox.root, 'extensions');
	mkdirSync(dir);
	writeFileSync(join(dir, 'peek.mjs'), peekExtension);
	writeFileSync(join(sandbox.workspace, 'notes.txt'), 'one line\n');
	mock.enqueue(
		{
			toolCalls: [
				{id: 'c1', name: 'peek', arguments: JSON.stringify({name: 'first', after: 'second'})},
				{id: 'c2', name: 'peek', arguments: JSON.stringify({name: 'second'})},
				{id: 'c3', name: 'read', arguments: JSON.stringify({files: [{path: 'notes.txt'}]})},
			],
		},
		{text: 'Read them.'},
	);
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'peek and read', '--json', '--yolo', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}, timeoutMs: 60_000});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const told = events.flatMap(event => (event.type === 'tool_started' || event.type === 'tool_result' ? [`${String(event.type)} ${String(event.id)}`] : []));
	assert.deepEqual(told, ['tool_started c1', 'tool_started c2', 'tool_started c3', 'tool_result c1', 'tool_result c2', 'tool_result c3']);
	const results = mock.requests[sent + 1]!.body.messages.filter((message: {role: string}) => message.role === 'tool');
	assert.deepEqual(
		results.map((message: {tool_call_id: string}) => message.tool_call_id),
		['c1', 'c2', 'c3'],
	);
	assert.deepEqual(
		results.slice(0, 2).map((message: {content: string}) => message.content),
		['peeked first', 'peeked second'],
	);
	assert.match(results[2].content, /one line/);
});
