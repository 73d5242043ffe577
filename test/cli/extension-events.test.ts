// Extension event handlers at their moments, end to end through the built
// CLI against the mock provider (EXTENSIONS.md "Events"; issue 14).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function setup(source: string): {sandbox: Sandbox; env: NodeJS.ProcessEnv; log: string} {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const dir = join(sandbox.root, 'extensions');
	mkdirSync(dir);
	const log = join(sandbox.root, 'events.log');
	writeFileSync(join(dir, 'watcher.mjs'), source.replaceAll('LOG', JSON.stringify(log)));
	return {sandbox, env: {...sandbox.env, I_EXTENSIONS_DIR: dir}, log};
}

const lines = (log: string) =>
	readFileSync(log, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map(line => JSON.parse(line) as [string, any]);

test('the moments of a tool turn, in order, each with its payload; transforms change the prompt and the result', async () => {
	const {sandbox, env, log} = setup(`
		import {appendFileSync} from 'node:fs';
		const note = (tag, event) => appendFileSync(LOG, JSON.stringify([tag, event]) + '\\n');
		export default function register(api) {
			for (const tag of ['SessionStart', 'AgentStart', 'TurnStart', 'MessageStart', 'MessageUpdate', 'ToolExecutionStart', 'ToolExecutionEnd', 'TurnEnd', 'AfterProviderResponse', 'AgentEnd', 'SessionShutdown']) {
				api.registerEventHandler(tag, event => note(tag, event));
			}
			api.registerEventHandler('Input', event => ({text: event.text + ' (via the extension)'}));
			api.registerEventHandler('ToolResult', event => ({output: event.output.toUpperCase()}));
			api.registerEventHandler('ToolCall', event => { note('ToolCall', event); });
		}
	`);
	writeFileSync(join(sandbox.workspace, 'a.txt'), 'hello\n');
	mock.enqueue({toolCalls: [{id: 'call_1', name: 'read', arguments: JSON.stringify({files: [{path: 'a.txt'}]})}]}, {text: 'It says hello.'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'read a.txt', '--json', '--yolo', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const [first, second] = mock.requests.slice(before);
	assert.match(JSON.stringify(first!.body.messages), /read a\.txt \(via the extension\)/);
	// The transformed result is what the model got back and what the events show.
	assert.match(JSON.stringify(second!.body.messages), /HELLO/);
	assert.match(jsonEvents(run.stdout).find(event => event.type === 'tool_result')!.output, /HELLO/);
	const seen = lines(log);
	const tags = seen.map(([tag]) => tag).filter((tag, index, all) => tag !== 'MessageUpdate' || all[index - 1] !== 'MessageUpdate');
	assert.deepEqual(tags, [
		'SessionStart',
		'AgentStart',
		'TurnStart',
		'MessageStart',
		'AfterProviderResponse',
		'ToolCall',
		'ToolExecutionStart',
		'ToolExecutionEnd',
		'TurnEnd',
		'TurnStart',
		'MessageStart',
		'MessageUpdate',
		'AfterProviderResponse',
		'TurnEnd',
		'AgentEnd',
		'SessionShutdown',
	]);
	const payload = (tag: string) => seen.find(([name]) => name === tag)![1];
	const session = jsonEvents(run.stdout).find(event => event.type === 'session')!;
	assert.deepEqual(payload('SessionStart'), {reason: 'startup', sessionId: session.id, path: session.path, cwd: sandbox.workspace});
	assert.equal(payload('AgentStart').prompt, 'read a.txt (via the extension)');
	assert.deepEqual(payload('ToolCall'), {id: 'call_1', name: 'read', arguments: {files: [{path: 'a.txt'}]}});
	assert.equal(
		seen
			.filter(([tag]) => tag === 'MessageUpdate')
			.map(([, event]) => event.delta)
			.join(''),
		'It says hello.',
	);
	assert.deepEqual(payload('AgentEnd'), {reason: 'stop', steps: 2, sessionId: session.id});
});

test('a ToolCall gate that blocks, or throws, stops the call before approval; the model is told', async () => {
	for (const answer of ["({block: true, reason: 'no reading today'})", "(() => { throw new Error('gate bug'); })()"]) {
		const {sandbox, env} = setup(`export default api => api.registerEventHandler('ToolCall', () => ${answer});`);
		mock.enqueue({toolCalls: [{id: 'call_1', name: 'read', arguments: JSON.stringify({files: [{path: 'x'}]})}]}, {text: 'OK.'});
		const run = await runCli(['-p', 'read', '--json', '--yolo', '-C', sandbox.workspace], {env});
		assert.equal(run.code, 0, run.stderr);
		const events = jsonEvents(run.stdout);
		const result = events.find(event => event.type === 'tool_result')!;
		assert.equal(result.is_error, true);
		assert.match(result.output, /The call was not run: extension watcher blocked it\./);
		assert.equal(
			events.some(event => event.type === 'tool_started'),
			false,
		);
		const warnings = events.filter(event => event.type === 'warning').map(event => event.message);
		if (answer.includes('gate bug')) assert.deepEqual(warnings, ['extension watcher: ToolCall handler failed: gate bug; the call is blocked']);
		else assert.match(result.output, /Reason: no reading today/);
	}
});

test('a hanging observer does not hold the turn up', async () => {
	const {sandbox, env} = setup(`export default api => { api.registerEventHandler('MessageUpdate', () => new Promise(() => {})); api.registerEventHandler('TurnStart', () => new Promise(() => {})); };`);
	mock.enqueue({text: 'Quick answer.'});
	const start = Date.now();
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Quick answer.\n');
	// Far below the 10 s an observer may take: the turn and the exit did not wait for them.
	assert.ok(Date.now() - start < 5000, `took ${Date.now() - start} ms`);
});

test('an unknown tag is a registration error naming it', async () => {
	const {sandbox, env} = setup(`export default api => api.registerEventHandler('BeforeLunch', () => {});`);
	mock.enqueue({text: 'Hi.'});
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /register failed: registerEventHandler: unknown event tag "BeforeLunch"; the tags are ProjectTrust, /);
});
