// Extension event handlers at their moments, end to end through the built
// CLI against the mock provider (spec/extensions.md §5; issue 14).
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
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Quick answer.\n');
	// Waiting for them would have run into their 10 s limit, which is reported: the turn and the exit did not wait.
	assert.doesNotMatch(run.stderr, /did not answer within/);
});

test('an unknown tag is a registration error naming it', async () => {
	const {sandbox, env} = setup(`export default api => api.registerEventHandler('BeforeLunch', () => {});`);
	mock.enqueue({text: 'Hi.'});
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /register failed: registerEventHandler: unknown event tag "BeforeLunch"; the tags are ProjectTrust, /);
});

/**
 * The compact profile with a 23000-token window (a limit of 80%, 18400) and
 * a session three long answers have filled, so a fourth long question does
 * not fit and is compacted first, and what compaction keeps fits after it
 * (as in budget.test.ts); the watcher extension is loaded for the fourth
 * run only.
 */
async function fullSession(source: string) {
	const {sandbox, env, log} = setup(source);
	writeFileSync(join(sandbox.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'compact', tools: []}));
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, budget: {window: 23_000}, plugins: ['builtin.json']});
	const session = join(sandbox.root, 's.json');
	for (let turn = 1; turn <= 3; turn++) mock.enqueue({text: `answer ${turn} ${'w'.repeat(3000)}`});
	const filled = await runCli(['--session', session, '--no-extensions', '-C', sandbox.workspace], {env: sandbox.env, input: 'question 1\nquestion 2\nquestion 3\n'});
	assert.equal(filled.code, 0, filled.stderr);
	const ask = async () => runCli(['-p', `question 4 ${'q'.repeat(3000)}`, '--json', '--session', session, '-C', sandbox.workspace], {env});
	return {session, log, ask};
}

test('a SessionBeforeCompact cancel skips the compaction: the request that does not fit is not sent, the turn fails saying who cancelled and why, the history is kept', async () => {
	const {session, log, ask} = await fullSession(`
		import {appendFileSync} from 'node:fs';
		export default api => api.registerEventHandler('SessionBeforeCompact', event => {
			appendFileSync(LOG, JSON.stringify(['SessionBeforeCompact', event]) + '\\n');
			return {cancel: true, reason: 'keep everything'};
		});
	`);
	const saved = readFileSync(session);
	const sent = mock.requests.length;
	const run = await ask();
	assert.equal(run.code, 1, run.stderr);
	assert.equal(mock.requests.length, sent, 'neither a summary request nor the turn was sent');
	const events = jsonEvents(run.stdout);
	const id = events.find(event => event.type === 'session')!.id;
	const error = events.find(event => event.type === 'error')!;
	assert.equal(error.kind, 'compaction');
	assert.match(
		error.message,
		/^the request does not fit the model's window \(about \d+ tokens against a limit of 18400\) and extension watcher cancelled the compaction \(keep everything\), so nothing was sent; the history is unchanged$/,
	);
	assert.equal(
		events.some(event => event.type === 'compaction'),
		false,
	);
	const after = readFileSync(session);
	assert.ok(after.subarray(0, saved.length).equals(saved), 'the history before the question is byte-identical');
	assert.doesNotMatch(after.subarray(saved.length).toString('utf8'), /replaces_history/);
	const [tag, payload] = lines(log)[0]!;
	assert.equal(tag, 'SessionBeforeCompact');
	assert.equal(payload.reason, 'budget');
	assert.equal(payload.sessionId, id);
	assert.equal(payload.messages.length, payload.cut - 1, 'the messages to be summarised: after the system prompt, before the cut');
	assert.equal(payload.messages[0].content, 'question 1');
	assert.ok(payload.keptMessages >= 1);
	assert.deepEqual(Object.keys(payload.budget), ['estimate', 'limit', 'window']);
	assert.equal(payload.budget.limit, 18_400);
});

test('a SessionBeforeCompact gate that throws lets the compaction proceed with a warning; SessionCompact is told what was committed', async () => {
	const {log, ask} = await fullSession(`
		import {appendFileSync} from 'node:fs';
		export default api => {
			api.registerEventHandler('SessionBeforeCompact', () => { throw new Error('gate bug'); });
			api.registerEventHandler('SessionCompact', event => appendFileSync(LOG, JSON.stringify(['SessionCompact', event]) + '\\n'));
		};
	`);
	mock.enqueue({text: 'They asked three questions.'}, {text: 'answer 4'});
	const run = await ask();
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const id = events.find(event => event.type === 'session')!.id;
	assert.deepEqual(
		events.filter(event => event.type === 'warning').map(event => event.message),
		['extension watcher: SessionBeforeCompact handler failed: gate bug; it proceeds'],
	);
	const compaction = events.find(event => event.type === 'compaction')!;
	assert.deepEqual(lines(log), [
		[
			'SessionCompact',
			{
				reason: 'budget',
				sessionId: id,
				cut: compaction.cut,
				summary: 'They asked three questions.',
				beforeBytes: compaction.before_bytes,
				afterBytes: compaction.after_bytes,
				messageCount: mock.requests.at(-1)!.body.messages.length,
			},
		],
	]);
});

test('BeforeProviderHeaders: a header an extension adds reaches the model request; credentials are never shown and cannot be set', async () => {
	const {sandbox, env, log} = setup(`
		import {appendFileSync} from 'node:fs';
		export default function register(api) {
			api.registerEventHandler('BeforeProviderHeaders', event => {
				appendFileSync(LOG, JSON.stringify(['BeforeProviderHeaders', event]) + '\\n');
				return {headers: {...event.headers, 'X-Trace-Id': 'trace-' + event.model, authorization: 'Bearer stolen', 'x-api-key': 'stolen', cookie: 'session=stolen', 'content-length': '1'}};
			});
		}
	`);
	writeFileSync(join(sandbox.workspace, 'a.txt'), 'hello\n');
	mock.enqueue({toolCalls: [{id: 'call_1', name: 'read', arguments: JSON.stringify({files: [{path: 'a.txt'}]})}]}, {text: 'Read it.'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'read a.txt', '--json', '--yolo', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const sent = mock.requests.slice(before);
	assert.equal(sent.length, 2);
	for (const request of sent) {
		assert.equal(request.headers['x-trace-id'], 'trace-m');
		// The host's key, not the extension's; no cookie; the framing is the HTTP layer's.
		assert.equal(request.headers.authorization, `Bearer ${sandbox.env.TEST_API_KEY}`);
		assert.equal(request.headers['x-api-key'], undefined);
		assert.equal(request.headers.cookie, undefined);
		assert.notEqual(request.headers['content-length'], '1');
	}

	// Fired before each request, and the refusals said once each, not once per request.
	const seen = lines(log);
	assert.equal(seen.length, 2);
	assert.deepEqual(seen[0]![1], {url: `${mock.baseUrl('openai')}/chat/completions`, protocol: 'openai', model: 'm', headers: {'content-type': 'application/json', accept: 'text/event-stream'}});
	assert.ok(!readFileSync(log, 'utf8').includes(sandbox.env.TEST_API_KEY!), 'the key is never in a payload');
	const warnings = jsonEvents(run.stdout)
		.filter(event => event.type === 'warning')
		.map(event => event.message);
	assert.deepEqual(warnings, [
		"extension watcher: BeforeProviderHeaders cannot set authorization (credentials are the host's, never shown to an extension nor set by one); ignored",
		"extension watcher: BeforeProviderHeaders cannot set x-api-key (credentials are the host's, never shown to an extension nor set by one); ignored",
		"extension watcher: BeforeProviderHeaders cannot set cookie (credentials are the host's, never shown to an extension nor set by one); ignored",
		'extension watcher: BeforeProviderHeaders cannot set content-length (the HTTP layer sets it); ignored',
	]);
});

test('BeforeProviderHeaders on Anthropic: the protocol header is shown and may change, the x-api-key is neither shown nor replaced', async () => {
	const {sandbox, env, log} = setup(`
		import {appendFileSync} from 'node:fs';
		export default api => api.registerEventHandler('BeforeProviderHeaders', event => {
			appendFileSync(LOG, JSON.stringify(['BeforeProviderHeaders', event]) + '\\n');
			const {'anthropic-version': _version, ...rest} = event.headers;
			return {headers: {...rest, 'anthropic-beta': 'tools-2024'}};
		});
	`);
	sandbox.writeConfig({protocol: 'anthropic', base_url: mock.baseUrl('anthropic'), model: 'claude-test', max_tokens: 100});
	mock.enqueue({text: 'Hello.'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Hello.\n');
	const request = mock.requests[before]!;
	assert.equal(request.headers['x-api-key'], sandbox.env.TEST_API_KEY);
	assert.equal(request.headers['anthropic-beta'], 'tools-2024');
	assert.equal(request.headers['anthropic-version'], undefined, 'a header the adapter sets that is no credential may be removed');
	const event = lines(log)[0]![1];
	assert.deepEqual(event.headers, {'content-type': 'application/json', accept: 'text/event-stream', 'anthropic-version': '2023-06-01'});
	assert.ok(!readFileSync(log, 'utf8').includes(sandbox.env.TEST_API_KEY!), 'the key is never in a payload');
	assert.equal(run.stderr, '');
});
