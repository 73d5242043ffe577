import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, waitFor, type Sandbox} from '../helpers/cli.js';

const lifecycle = fileURLToPath(new URL('../../../test/fixtures/workers/lifecycle.py', import.meta.url));
const providerWorker = fileURLToPath(new URL('../../../test/fixtures/workers/provider.py', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

interface Box extends Sandbox {
	log(): Array<{worker: string; event: string; data: any; workspace_id: string; pid: number}>;
	plan(plan: Record<string, Record<string, unknown>>): void;
}

/** A sandbox whose config loads hook workers from a manifest: `hooks` lists [name, events]. */
function sandbox(hooks: Array<[string, string[]]> = [['a', ['*']]], extra: Record<string, unknown> = {}, tools: unknown[] = []): Box {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: hooks.map(([name, events]) => ({events, exec: ['python3', lifecycle, name]})), tools}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 2, plugins: ['hooks.json'], ...extra});
	return Object.assign(box, {
		log: () => {
			const path = join(box.workspace, '.lifecycle.log');
			if (!existsSync(path)) return [];
			// The worker may be writing its next line right now: only lines it finished count.
			const lines = readFileSync(path, 'utf8').split('\n');
			lines.pop();
			return lines.map(line => JSON.parse(line));
		},
		plan: (plan: Record<string, Record<string, unknown>>) => writeFileSync(join(box.workspace, '.lifecycle.json'), JSON.stringify(plan)),
	});
}

const readCall = (id: string) => ({id, name: 'read', arguments: JSON.stringify({files: [{path: 'a.txt'}]})});

test('every lifecycle event is raised at its moment, in order, with the workspace identity', async () => {
	const box = sandbox();
	writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
	mock.enqueue({status: 503, headers: {'retry-after': '0'}}, {toolCalls: [readCall('r1')]}, {text: 'done'});
	const run = await runCli(['-p', 'go', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const events = box.log().map(entry => entry.event);
	assert.deepEqual(events, [
		'session_load',
		'system_prompt',
		'user_input',
		'before_turn',
		'before_save',
		'after_save',
		'context_budget',
		'before_request',
		'request_retry',
		'after_response',
		// The tool calls' share of the room: the budget is asked again with the calls pending.
		'context_budget',
		'before_tool',
		'tool_approval',
		'after_tool',
		'before_save',
		'after_save',
		'context_budget',
		'before_request',
		'after_response',
		'before_save',
		'after_save',
		'finish',
	]);
	const ids = new Set(box.log().map(entry => entry.workspace_id));
	assert.equal(ids.size, 1);
	assert.match([...ids][0]!, /^[0-9a-f-]{36}$/);
	assert.deepEqual(
		box
			.log()
			.filter(entry => entry.event === 'context_budget')
			.map(entry => entry.data.pending),
		[0, 1, 0],
	);
	const beforeTool = box.log().find(entry => entry.event === 'before_tool')!;
	assert.equal(typeof beforeTool.data.arguments, 'string', 'before_tool gets the raw JSON string');
	const approval = box.log().find(entry => entry.event === 'tool_approval')!;
	assert.deepEqual(approval.data.arguments, {files: [{path: 'a.txt'}]}, 'tool_approval gets the parsed object');
});

test("hooks chain in manifest order, each receiving the previous one's full data", async () => {
	const box = sandbox([
		['first', ['user_input']],
		['second', ['user_input']],
	]);
	box.plan({first: {user_input: {tag: 'first', set: {content: 'rewritten by first'}}}, second: {user_input: {tag: 'second'}}});
	mock.enqueue({text: 'ok'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'original', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const second = box.log().find(entry => entry.worker === 'second')!;
	assert.deepEqual(second.data.tags, ['first']);
	assert.equal(second.data.content, 'rewritten by first');
	assert.match(JSON.stringify(mock.requests[before]!.body.messages), /rewritten by first/);
});

test('system_prompt replaces the prompt of a new session; a failing start hook vetoes the start with exit 3', async () => {
	const box = sandbox([['p', ['system_prompt']]]);
	box.plan({p: {system_prompt: {set: {prompt: 'You are a test prompt.'}}}});
	mock.enqueue({text: 'ok'});
	const before = mock.requests.length;
	assert.equal((await runCli(['-p', 'x', '-C', box.workspace], {env: box.env})).code, 0);
	assert.deepEqual(mock.requests[before]!.body.messages[0], {role: 'system', content: 'You are a test prompt.'});

	box.plan({p: {system_prompt: {fail: 'no prompt for you'}}});
	const vetoed = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(vetoed.code, 3);
	assert.match(vetoed.stderr, /vetoed the start: system_prompt hook .* failed: .*no prompt for you/);
});

test('before_tool may replace the call, and after_tool may rewrite the output', async () => {
	const box = sandbox([['t', ['before_tool', 'after_tool']]]);
	writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
	writeFileSync(join(box.workspace, 'b.txt'), 'bravo\n');
	box.plan({t: {before_tool: {set: {arguments: JSON.stringify({files: [{path: 'b.txt'}]})}}}});
	mock.enqueue({toolCalls: [readCall('r1')]}, {text: 'ok'});
	let before = mock.requests.length;
	assert.equal((await runCli(['-p', 'x', '-C', box.workspace], {env: box.env})).code, 0);
	let tool = mock.requests[before + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.match(tool.content, /bravo/);

	box.plan({t: {after_tool: {set: {output: 'redacted by policy'}}}});
	mock.enqueue({toolCalls: [readCall('r2')]}, {text: 'ok'});
	before = mock.requests.length;
	assert.equal((await runCli(['-p', 'x', '-C', box.workspace], {env: box.env})).code, 0);
	tool = mock.requests[before + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.equal(tool.content, 'redacted by policy');
});

test('tool_approval: deny stops a free tool, allow lets an edit run, an invalid answer never allows', async () => {
	const box = sandbox([['g', ['tool_approval']]]);
	writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
	const edit = {id: 'e1', name: 'edit', arguments: JSON.stringify({path: 'a.txt', old_text: 'alpha', new_text: 'omega'})};
	box.plan({g: {tool_approval: {set: {decision: 'deny'}}}});
	mock.enqueue({toolCalls: [readCall('r1')]}, {text: 'ok'});
	let run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.match(run.stderr, /not run: .*denied by the approval policy/);

	box.plan({g: {tool_approval: {set: {decision: 'allow'}}}});
	mock.enqueue({toolCalls: [edit]}, {text: 'ok'});
	run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'omega\n');

	box.plan({g: {tool_approval: {set: {decision: 'sure'}}}});
	mock.enqueue({toolCalls: [readCall('r3')]}, {text: 'ok'});
	run = await runCli(['-p', 'x', '--yolo', '-C', box.workspace], {env: box.env});
	assert.match(run.stderr, /not run: .*approval policy failed/);
});

test('before_request may change the body but not the origin; request_meta never reaches the model and after_response sees it', async () => {
	const box = sandbox([['r', ['before_request', 'after_response']]]);
	box.plan({r: {before_request: {set: {request_meta: {trace: 't-1'}}}}});
	mock.enqueue({text: 'ok'});
	let before = mock.requests.length;
	let run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.doesNotMatch(JSON.stringify(mock.requests[before]!.body), /t-1|request_meta/);
	const seen = box.log().find(entry => entry.event === 'after_response')!;
	assert.deepEqual(seen.data.request_meta, {trace: 't-1'});
	assert.equal(seen.data.response.message.content, 'ok');

	const log = box.log().find(entry => entry.event === 'before_request')!;
	box.plan({r: {before_request: {set: {body: {...log.data.body, temperature: 0.25}}}}});
	mock.enqueue({text: 'ok'});
	before = mock.requests.length;
	run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(mock.requests[before]!.body.temperature, 0.25);

	box.plan({r: {before_request: {set: {url: 'http://198.51.100.7/v1/chat/completions'}}}});
	before = mock.requests.length;
	run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.match(run.stderr, /may change the body, not the origin/);
	assert.equal(mock.requests.length, before, 'nothing was sent');
});

test('before_turn may append but never rewrite the history', async () => {
	const box = sandbox([['s', ['before_turn']]]);
	box.plan({s: {before_turn: {set: {messages: [{role: 'user', content: 'forged'}]}}}});
	const run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.match(run.stderr, /may only append messages/);
});

test('an external tool always asks: denied in print mode, run with --yolo, its output goes back to the model', async () => {
	const tool = {
		name: 'shout',
		description: 'Shout a word',
		parameters: {type: 'object', properties: {word: {type: 'string'}}, required: ['word'], additionalProperties: false},
		exec: ['python3', lifecycle, 'tool'],
	};
	const box = sandbox([], {}, [tool]);
	const call = {id: 'x1', name: 'shout', arguments: JSON.stringify({word: 'hey'})};
	mock.enqueue({toolCalls: [call]}, {text: 'ok'});
	let before = mock.requests.length;
	let run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /not run: .*shout/);
	const shout = mock.requests[before]!.body.tools.find((item: any) => item.function.name === 'shout');
	assert.deepEqual(Object.keys(shout.function).sort(), ['description', 'name', 'parameters'], 'only name, description and parameters reach the model');
	assert.doesNotMatch(JSON.stringify(shout), /python3|lifecycle/);
	assert.equal(box.log().length, 0, 'the worker was never called');

	mock.enqueue({toolCalls: [call]}, {text: 'ok'});
	before = mock.requests.length;
	run = await runCli(['-p', 'x', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const result = mock.requests[before + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.equal(result.content, 'external says: {"word": "hey"}');
	assert.deepEqual(box.log()[0]!.data, {name: 'shout', arguments: {word: 'hey'}});
});

for (const [fault, plan] of [
	['dies', {exit: true}],
	['answers with an error frame', {fail: 'policy engine down'}],
	['answers with a line that is not JSON', {garbage: true}],
	['answers with the wrong ID', {wrong_id: true}],
] as const) {
	test(`a hook worker that ${fault} mid-turn fails the turn, keeps the last checkpoint, and the next run starts a fresh worker`, async () => {
		const box = sandbox([['d', ['before_request']]]);
		const session = join(box.root, 's.json');
		box.plan({d: {before_request: plan}});
		const run = await runCli(['-p', 'one', '--session', session, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 1);
		assert.match(run.stderr, /before_request hook .* failed/);
		const steps = readFileSync(session, 'utf8')
			.trim()
			.split('\n')
			.slice(1)
			.map(line => JSON.parse(line));
		assert.deepEqual(
			steps.flatMap(step => step.messages.map((message: any) => message.role)),
			['system', 'user'],
		);

		box.plan({});
		mock.enqueue({text: 'fine now'});
		const again = await runCli(['-p', 'two', '--session', session, '-C', box.workspace], {env: box.env});
		assert.equal(again.code, 0, again.stderr);
		assert.equal(again.stdout, 'fine now\n');
	});
}

test('in one process, the call after a worker died starts a fresh worker and the session goes on', async () => {
	const box = sandbox([['d', ['before_request']]]);
	box.plan({d: {before_request: {exit_once: true}}});
	mock.enqueue({text: 'second turn works'});
	const run = await runCli(['--json', '-C', box.workspace], {env: box.env, input: 'one\ntwo\n'});
	assert.equal(run.code, 1, 'the first turn failed');
	const done = jsonEvents(run.stdout).filter(event => event.type === 'done');
	assert.deepEqual(
		done.map(event => event.reason),
		['error', 'stop'],
	);
	const pids = box
		.log()
		.filter(entry => entry.event === 'before_request')
		.map(entry => entry.pid);
	assert.equal(pids.length, 2);
	assert.notEqual(pids[0], pids[1]);
});

test('SIGINT ends the CLI and its resident workers with it', async () => {
	const box = sandbox([['w', ['before_request']]]);
	// The worker would outlive its stdin: only the kill of its process group ends it.
	box.plan({w: {eof: {linger: true}}});
	mock.enqueue({text: 'first'});
	const run = await runCli(['-C', box.workspace], {
		env: box.env,
		input: null,
		onSpawn(child, output) {
			child.stdin!.write('one\n');
			void waitFor(() => output.stdout().includes('first'), 10_000, 'the first answer').then(() => child.kill('SIGINT'));
		},
	});
	assert.equal(run.code, 130, run.stderr);
	const pid = box.log().find(entry => entry.event === 'before_request')!.pid;
	await waitFor(() => !alive(pid), 5000, `worker ${pid} to be gone`);
});

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}

	// A zombie waiting to be reaped counts as gone.
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
}

for (const [signal, code] of [
	['SIGINT', 130],
	['SIGTERM', 143],
] as const) {
	test(`${signal} stops a hook that hangs at once, not after its 15 s`, async () => {
		const box = sandbox([['h', ['before_request']]]);
		box.plan({h: {before_request: {hang: true}}});
		const started = Date.now();
		const run = await runCli(['-p', 'x', '-C', box.workspace], {
			env: box.env,
			onSpawn(child) {
				void waitFor(() => box.log().some(entry => entry.event === 'before_request'), 10_000, 'the hook call').then(() => child.kill(signal));
			},
		});
		assert.equal(run.code, code, run.stderr);
		assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
		const pid = box.log().find(entry => entry.event === 'before_request')!.pid;
		await waitFor(() => !alive(pid), 5000, `worker ${pid} to be gone`);
	});
}

test('a before_turn hook that writes its keys in another order still only appends', async () => {
	const box = sandbox([['s', ['before_turn']]]);
	box.plan({s: {before_turn: {sort_keys: true}}});
	mock.enqueue({text: 'one'}, {text: 'two'});
	const session = join(box.root, 's.json');
	assert.equal((await runCli(['-p', 'first', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
	const run = await runCli(['-p', 'second', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
});

test('before_request may not add credentials to the URL', async () => {
	const box = sandbox([['r', ['before_request']]]);
	box.plan({r: {before_request: {set: {url: `${mock.baseUrl('openai').replace('http://', 'http://user:pw@')}/chat/completions`}}}});
	const run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.match(run.stderr, /not the origin/);
});

test('after_response may hand back another assistant message', async () => {
	const box = sandbox([['c', ['after_response']]]);
	box.plan({c: {after_response: {set: {response: {message: {role: 'assistant', content: 'converted'}}}}}});
	mock.enqueue({text: 'original'});
	const session = join(box.root, 's.json');
	const run = await runCli(['-p', 'x', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(readFileSync(session, 'utf8'), /"content":"converted"/);
});

test('the approval module in auto mode allows an edit but never waives the ask of an external tool', async () => {
	const tool = {name: 'shout', description: 'Shout', parameters: {type: 'object', properties: {}}, exec: ['python3', lifecycle, 'tool']};
	const box = sandbox([], {}, [tool]);
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(box.configDir, 'plugins.json'), JSON.stringify({profile: 'approval', disabled: []}));
	writeFileSync(join(box.configDir, 'approval.json'), JSON.stringify({mode: 'auto'}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['builtin.json', 'hooks.json']});
	writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
	const edit = {id: 'e1', name: 'edit', arguments: JSON.stringify({path: 'a.txt', old_text: 'alpha', new_text: 'omega'})};
	mock.enqueue({toolCalls: [edit, {id: 's1', name: 'shout', arguments: '{}'}]}, {text: 'ok'});
	const run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'omega\n');
	// The owner is the manifest that declares the tool, never its worker's argv.
	assert.match(run.stderr, /not run: Run shout \(plugin worker of \S*hooks\.json\)/);
	assert.equal(box.log().length, 0, 'the external worker was never called');
});

test('relative I_*_DIR folders resolve; config under cache is a configuration error', async () => {
	const box = sandbox([['a', ['before_request']]]);
	mock.enqueue({text: 'ok'});
	const relative = await runCli(['-p', 'x', '-C', box.workspace], {env: {...box.env, I_DATA_DIR: 'data-here'}, cwd: box.root});
	assert.equal(relative.code, 0, relative.stderr);
	assert.ok(existsSync(join(box.root, 'data-here', 'workspaces.json')));
	const nested = await runCli(['-p', 'x', '-C', box.workspace], {env: {...box.env, I_CACHE_DIR: box.root}});
	assert.equal(nested.code, 2);
	assert.match(nested.stderr, /I_CONFIG_DIR .* may not be inside I_CACHE_DIR/);
});

test('a request the budget says does not fit is compacted through the hooks, then sent', async () => {
	const box = sandbox([['b', ['context_budget', 'compact_plan', 'before_compact', 'after_compact', 'before_compact_commit']]]);
	const session = join(box.root, 's.json');
	mock.enqueue({text: `first answer ${'x'.repeat(4000)}`}, {text: 'second answer'});
	assert.equal((await runCli(['-p', `first question ${'y'.repeat(4000)}`, '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
	box.plan({b: {context_budget: {once: true, set: {fits: false}}, compact_plan: {set: {cut: 3}}, before_compact: {set: {summary: 'they asked a long question'}}}});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'second question', '--json', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const compaction = jsonEvents(run.stdout).find(event => event.type === 'compaction')!;
	assert.ok(compaction.after_bytes < compaction.before_bytes);
	const sent = mock.requests[before]!.body.messages as Array<{role: string; content: string}>;
	assert.equal(sent.length, 3);
	assert.match(sent[1]!.content, /they asked a long question/);
	assert.deepEqual(sent[2], {role: 'user', content: 'second question'});
	const events = box.log().map(entry => entry.event);
	assert.deepEqual(events.slice(events.indexOf('compact_plan'), events.indexOf('compact_plan') + 5), ['compact_plan', 'before_compact', 'after_compact', 'before_compact_commit', 'context_budget']);
	// Resumed later, the session is the compacted one; its file still holds the original steps.
	assert.match(readFileSync(session, 'utf8'), /first question y/);
	mock.enqueue({text: 'third'});
	const third = mock.requests.length;
	assert.equal((await runCli(['-p', 'third question', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
	assert.equal(mock.requests[third]!.body.messages.length, 5);
});

test('a request that does not fit without a compaction plugin is refused and never sent', async () => {
	const box = sandbox([['b', ['context_budget']]]);
	box.plan({b: {context_budget: {set: {fits: false}}}});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1);
	assert.match(run.stderr, /does not fit the model's window/);
	assert.equal(mock.requests.length, before);
});

test('a provider worker answers instead of the HTTP adapters, with no API key in its environment', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'my-own-protocol', model: 'local-model', provider: {exec: ['python3', providerWorker]}, api_key_env: undefined});
	writeFileSync(
		join(box.workspace, '.provider.json'),
		JSON.stringify([
			{message: {content: null, tool_calls: [{id: 'p1', type: 'function', function: {name: 'glob', arguments: '{"pattern":"*.txt"}'}}]}, finish_reason: 'tool_calls'},
			{message: {content: 'provider says hi'}, finish_reason: 'stop', usage: {input: 10, output: 3}},
		]),
	);
	writeFileSync(join(box.workspace, 'n.txt'), 'x');
	const run = await runCli(['-p', 'hello', '--json', '-C', box.workspace], {env: {...box.env, SECRET_CANARY: 'do-not-leak'}});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	assert.equal(
		events
			.filter(event => event.type === 'text_delta')
			.map(event => event.text)
			.join(''),
		'provider says hi',
	);
	const log = readFileSync(join(box.workspace, '.provider.log'), 'utf8')
		.trim()
		.split('\n')
		.map(line => JSON.parse(line));
	assert.equal(log.length, 2);
	assert.equal(log[0].event, 'provider');
	assert.equal(log[0].data.protocol, 'my-own-protocol');
	assert.equal(log[0].data.body.model, 'local-model');
	assert.match(JSON.stringify(log[1].data.body.messages), /n\.txt/);
	assert.ok(!log[0].env.includes('SECRET_CANARY') && !log[0].env.includes('TEST_API_KEY'));
});

/** The messages of every step in a session file, in order. */
function savedMessages(path: string): any[] {
	return readFileSync(path, 'utf8')
		.trim()
		.split('\n')
		.slice(1)
		.flatMap(line => JSON.parse(line).messages);
}

const orphan = {role: 'tool', tool_call_id: 'nope', content: 'x'};
const unanswered = {role: 'assistant', content: null, tool_calls: [{id: 'c9', type: 'function', function: {name: 'read', arguments: '{}'}}]};

for (const [what, appended, problem] of [
	['a tool result that answers no call', orphan, /message 4 \(tool\): the tool result for "nope" answers no tool call of the assistant message before it/],
	['an assistant message whose tool calls get no results', unanswered, /message 4 \(assistant\): tool call "c9" \(read\) gets no result/],
] as const) {
	test(`a before_turn hook that appends ${what} fails the turn naming the hook; nothing of it is saved, and the session resumes without it`, async () => {
		const box = sandbox([['s', ['before_turn']]]);
		const session = join(box.root, 's.json');
		mock.enqueue({text: 'first answer'});
		assert.equal((await runCli(['-p', 'one', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
		const saved = readFileSync(session, 'utf8');

		box.plan({s: {before_turn: {append: {messages: [appended]}}}});
		let before = mock.requests.length;
		const run = await runCli(['-p', 'two', '--session', session, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 1, run.stderr);
		assert.match(run.stderr, /before_turn hook of \["[^"]*python3",".*lifecycle\.py","s"\] \(.*hooks\.json\) returned a history the provider would refuse: /);
		assert.match(run.stderr, problem);
		assert.equal(mock.requests.length, before, 'nothing was sent');
		assert.equal(readFileSync(session, 'utf8'), saved, 'the session keeps its last complete checkpoint');

		// The hook removed, the session goes on, and the provider gets a well-formed history.
		writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: []}));
		mock.enqueue({text: 'third answer'});
		before = mock.requests.length;
		const resumed = await runCli(['-p', 'three', '--session', session, '-C', box.workspace], {env: box.env});
		assert.equal(resumed.code, 0, resumed.stderr);
		const sent = mock.requests[before]!.body.messages;
		assert.deepEqual(sent.map((message: any) => [message.role, message.content]).slice(1), [
			['user', 'one'],
			['assistant', 'first answer'],
			['user', 'three'],
		]);
		assert.doesNotMatch(JSON.stringify(sent), /"nope"|"c9"/);
		assert.doesNotMatch(JSON.stringify(savedMessages(session)), /"nope"|"c9"/);
	});
}

test('an after_response hook whose reply calls two tools by one ID fails the turn naming the hook, and the reply is not kept', async () => {
	const box = sandbox([['c', ['after_response']]]);
	const session = join(box.root, 's.json');
	writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
	mock.enqueue({toolCalls: [readCall('r1')]}, {text: 'read it'});
	assert.equal((await runCli(['-p', 'one', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);

	const call = {id: 'r2', type: 'function', function: {name: 'read', arguments: '{}'}};
	const reused = {role: 'assistant', content: null, tool_calls: [call, call]};
	box.plan({c: {after_response: {set: {response: {message: reused}}}}});
	mock.enqueue({text: 'original'});
	const run = await runCli(['-p', 'two', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1, run.stderr);
	assert.match(
		run.stderr,
		/after_response hook of \["[^"]*python3",".*lifecycle\.py","c"\] \(.*hooks\.json\) returned a history the provider would refuse: message 6 \(assistant\): tool call ID "r2" appears twice in this message/,
	);
	assert.equal(savedMessages(session).filter(message => message.tool_calls).length, 1, "only the first turn's call is saved");
	assert.doesNotMatch(run.stderr, /tool read/, "the refused reply's call never ran");
});

test('in a chain of before_turn hooks, the one whose answer breaks the history is the one named', async () => {
	const box = sandbox([
		['fine', ['before_turn']],
		['breaks', ['before_turn']],
	]);
	box.plan({fine: {before_turn: {append: {messages: [{role: 'user', content: 'a steering note'}]}}}, breaks: {before_turn: {append: {messages: [orphan]}}}});
	const run = await runCli(['-p', 'x', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 1, run.stderr);
	assert.match(run.stderr, /before_turn hook of \[[^\]]*"breaks"\] .*returned a history the provider would refuse: message 3 \(tool\)/);
	assert.doesNotMatch(run.stderr, /"fine"/);
});
