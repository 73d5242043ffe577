// Child agents (source/core/agent/child-agents.ts, spec/extensions.md §3)
// in process: a real agent set up against the mock provider, real sessions
// in temp folders, real extensions for /reload.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {setupAgent} from '../../source/core/session/setup-agent.js';
import type {Agent} from '../../source/core/session/agent.js';
import type {AskPerson} from '../../source/core/agent/approval-gate.js';
import {MAX_CHILD_TASKS, childSessionPath} from '../../source/core/agent/child-agents.js';
import type {ChildTask} from '../../source/core/agent/child-task.js';
import {CORE_OWNER} from '../../source/core/child-request.js';
import {withDefaults} from '../../source/core/child-request.js';
import {RuntimeActionError} from '../../source/core/extensions/runtime-link.js';
import {CANCEL_GRACE_MS} from '../../source/core/extensions/extension-tool.js';
import type {CoreEvent} from '../../source/core/events.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-children-')));
for (const [name, folder] of [
	['I_CONFIG_DIR', 'config'],
	['I_DATA_DIR', 'data'],
	['I_CACHE_DIR', 'cache'],
	['I_RUNTIME_DIR', 'runtime'],
] as const) {
	process.env[name] = join(root, folder);
}
process.env.CHILD_TEST_KEY = 'sk-child';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

let workspaces = 0;
interface Setup {
	agent: Agent;
	events: CoreEvent[];
	workspace: string;
}

async function setup(options: {askPerson?: AskPerson; yolo?: boolean; extensions?: string[]} = {}): Promise<Setup> {
	const workspace = join(root, `workspace-${++workspaces}`);
	mkdirSync(workspace);
	const events: CoreEvent[] = [];
	const agent = await setupAgent(
		{
			cwd: workspace,
			config: {protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'child-model', api_key_env: 'CHILD_TEST_KEY', max_retries: 0},
			yolo: options.yolo,
			extensions: options.extensions,
		},
		event => events.push(event),
		options.askPerson,
	);
	return {agent, events, workspace};
}

const start = (agent: Agent, fields: Parameters<typeof withDefaults>[0], owner = 'ext') => agent.children.start(owner, withDefaults(fields));

async function refusal(work: () => unknown): Promise<RuntimeActionError> {
	try {
		await work();
	} catch (error) {
		assert.ok(error instanceof RuntimeActionError, `a RuntimeActionError, not ${String(error)}`);
		return error;
	}

	assert.fail('it was not refused');
}

test('a child starts at once, streams deltas, ends done with its report, and its session sits beside the parent’s', async () => {
	const {agent, events} = await setup();
	try {
		mock.enqueue({text: 'The answer is 42.'});
		const before = mock.requests.length;
		const task = await start(agent, {task: 'Find the answer.', role: 'finder'});
		// Running at once: start does not wait for the child's work.
		assert.equal(task.status, 'running');
		assert.match(task.id, /^child-[0-9a-f]{12}$/);
		assert.notEqual(task.sessionId, agent.session.id);
		const result = await task.settled();
		assert.deepEqual(result, {status: 'done', text: 'The answer is 42.', turnLimited: false, truncated: false});
		const poll = agent.children.poll('ext', task.id);
		assert.equal(poll.status, 'done');
		assert.equal(poll.deltas.map(delta => delta.text).join(''), 'The answer is 42.');
		assert.ok(poll.deltas.length > 1, 'the text came in several deltas');
		// Taken once: the next poll has none.
		assert.deepEqual(agent.children.poll('ext', task.id).deltas, []);
		// Its own session, beside the parent's; nothing of it in the parent's.
		assert.equal(task.sessionPath, childSessionPath(agent.session.path, task.id));
		assert.equal(dirname(task.sessionPath), `${agent.session.path.slice(0, -'.json'.length)}.children`);
		const saved = readFileSync(task.sessionPath, 'utf8');
		assert.match(saved, /Find the answer\./);
		assert.match(saved, /The answer is 42\./);
		assert.equal(agent.session.messages.length, 0, 'the parent’s transcript has no child message');
		// The parent's model, its system prompt as the prefix, and no delegate_task among its tools.
		const request = mock.requests[before]!.body;
		assert.equal(request.model, 'child-model');
		const offered = request.tools.map((tool: any) => tool.function.name);
		assert.ok(!offered.includes('delegate_task'), offered.join(', '));
		assert.ok(offered.includes('read'), offered.join(', '));
		assert.match(request.messages[0].content, /You are a child agent \(role: finder\)/);
		// Progress for the head: started, a turn, ended.
		const progress = events.filter(event => event.type === 'child');
		assert.equal(progress[0]?.type === 'child' && progress[0].activity, 'starting');
		assert.deepEqual(progress.at(-1), {type: 'child', id: task.id, role: 'finder', status: 'done', turns: 1, activity: 'finished'});
		agent.children.dispose('ext', task.id);
		assert.equal((await refusal(() => agent.children.poll('ext', task.id))).code, 'not_found');
		assert.equal(agent.children.used, 0);
	} finally {
		await agent.close();
	}
});

test('maxTurns: a child that still calls tools at its last turn ends done and turn-limited', async () => {
	const {agent} = await setup({yolo: true});
	try {
		mock.enqueue({text: 'Looking.', toolCalls: [{id: 'c1', name: 'glob', arguments: JSON.stringify({pattern: '*'})}]});
		const task = await start(agent, {task: 'Look around.', maxTurns: 1});
		const result = await task.settled();
		assert.deepEqual(result, {status: 'done', text: 'Looking.', turnLimited: true, truncated: false});
		assert.equal(agent.children.poll('ext', task.id).turns, 1);
		agent.children.dispose('ext', task.id);
	} finally {
		await agent.close();
	}
});

test('tools: the subset named is what the child gets; a tool the parent lacks, or delegate_task, is refused', async () => {
	const {agent} = await setup();
	try {
		mock.enqueue({text: 'ok'});
		const before = mock.requests.length;
		const task = await start(agent, {task: 'Read only.', tools: ['read', 'glob']});
		await task.settled();
		assert.deepEqual(
			mock.requests[before]!.body.tools.map((tool: any) => tool.function.name),
			['read', 'glob'],
		);
		agent.children.dispose('ext', task.id);
		const unknown = await refusal(async () => start(agent, {task: 't', tools: ['read', 'nope']}));
		assert.equal(unknown.code, 'invalid_argument');
		assert.match(unknown.message, /"nope" is not one of the parent's active tools/);
		const delegate = await refusal(async () => start(agent, {task: 't', tools: ['delegate_task']}));
		assert.equal(delegate.code, 'invalid_argument');
		assert.match(delegate.message, /delegate_task is never given to a child/);
		assert.equal(agent.children.used, 0);
	} finally {
		await agent.close();
	}
});

test('handles belong to their owner: another owner’s childId is not found', async () => {
	const {agent} = await setup();
	try {
		mock.enqueue({text: 'mine'});
		const task = await start(agent, {task: 'Mine.'}, 'first');
		await task.settled();
		for (const op of ['poll', 'cancel', 'dispose'] as const) {
			const error = await refusal(() => agent.children[op]('second', task.id));
			assert.equal(error.code, 'not_found', op);
		}

		assert.equal((await refusal(() => agent.children.poll(CORE_OWNER, task.id))).code, 'not_found');
		agent.children.dispose('first', task.id);
	} finally {
		await agent.close();
	}
});

test(`${MAX_CHILD_TASKS} tasks per host, and one more is refused until one is disposed: ended ones count until then`, async () => {
	const {agent} = await setup();
	try {
		const tasks: ChildTask[] = [];
		for (let index = 0; index < MAX_CHILD_TASKS; index++) {
			const task = await start(agent, {task: `Task ${index}.`});
			// Cancelled before its first request: no reply is needed.
			agent.children.cancel('ext', task.id);
			tasks.push(task);
		}

		await Promise.all(tasks.map(async task => task.settled()));
		assert.ok(tasks.every(task => task.status === 'failed' && task.error === 'it was cancelled'));
		assert.equal(agent.children.used, MAX_CHILD_TASKS);
		const refused = await refusal(async () => start(agent, {task: 'One more.'}));
		assert.equal(refused.code, 'limit_reached');
		assert.match(refused.message, /at most 16 child tasks/);
		agent.children.dispose('ext', tasks[0]!.id);
		const seventeenth = await start(agent, {task: 'Now it fits.'});
		agent.children.cancel('ext', seventeenth.id);
		await seventeenth.settled();
		assert.equal(agent.children.used, MAX_CHILD_TASKS);
	} finally {
		await agent.close();
	}
});

test('a cancelled child that does not stop fails after the 2 s grace but keeps its slot until it really ends', async () => {
	const {agent} = await setup();
	// A provider that ignores the cancel: the request ends only when the test lets it.
	let release!: () => void;
	const released = new Promise<void>(resolve => (release = resolve));
	const {caller} = agent;
	const stubborn = {
		...agent,
		caller: {
			...caller,
			send: async (request: any, io: any) => {
				await released;
				return caller.send(request, {...io, signal: new AbortController().signal});
			},
		},
	};
	// The registry reads the parent at each start: a parent whose caller ignores its signal.
	const {ChildAgents} = await import('../../source/core/agent/child-agents.js');
	const {createApprovalGate} = await import('../../source/core/agent/approval-gate.js');
	const events: CoreEvent[] = [];
	const children = new ChildAgents(() => ({
		caller: stubborn.caller,
		tools: [],
		session: agent.session,
		workspace: agent.workspace,
		systemPrompt: agent.systemPrompt,
		emit: event => events.push(event),
		gate: () => createApprovalGate({mode: {current: 'default'}, askPerson: async () => ({decision: 'deny', by: 'no_terminal', reason: 'no'})}),
	}));
	try {
		mock.enqueue({text: 'late'});
		const task = await children.start('ext', withDefaults({task: 'Hang.'}));
		await new Promise(resolve => setTimeout(resolve, 50));
		const cancelledAt = Date.now();
		children.cancel('ext', task.id);
		const result = await task.settled();
		assert.ok(Date.now() - cancelledAt >= CANCEL_GRACE_MS - 50, 'failed once the grace ran out');
		assert.equal(result.status, 'failed');
		assert.match(task.error ?? '', /it was cancelled; it did not stop within 2 s and keeps its slot until it ends/);
		children.dispose('ext', task.id);
		assert.equal(children.used, 1, 'the slot is still taken');
		release();
		await task.ended;
		assert.equal(children.used, 0, 'free once it really ended');
		// The late success never replaces the failure.
		assert.equal(task.result?.status, 'failed');
	} finally {
		release();
		await agent.close();
	}
});

test('timeoutSeconds: a child past its timeout is cancelled and fails with the reason', {timeout: 30_000}, async () => {
	const {agent} = await setup();
	try {
		mock.enqueue({text: 'slow', hangAfterEvents: 1});
		const task = await start(agent, {task: 'Take forever.', timeoutSeconds: 10});
		const result = await task.settled();
		assert.equal(result.status, 'failed');
		assert.equal(task.error, 'it ran past its timeout of 10 s (timeoutSeconds)');
		agent.children.dispose('ext', task.id);
	} finally {
		await agent.close();
	}
});

test('a child asking for approval: headless it is denied, never allowed; with a person the question says whose it is', async () => {
	// Headless: set-up's default askPerson denies.
	const headless = await setup();
	try {
		mock.enqueue({toolCalls: [{id: 'w1', name: 'write', arguments: JSON.stringify({files: [{path: 'a.txt', content: 'x\n'}]})}]}, {text: 'I could not write.'});
		const task = await start(headless.agent, {task: 'Write a.txt.'});
		assert.equal((await task.settled()).text, 'I could not write.');
		assert.ok(!existsSync(join(headless.workspace, 'a.txt')), 'nothing was written');
		const saved = readFileSync(task.sessionPath, 'utf8');
		assert.match(saved, /there is no terminal to ask on/);
		headless.agent.children.dispose('ext', task.id);
	} finally {
		await headless.agent.close();
	}

	// A person: the parent's askPerson hears the child's question, labelled with its role and ID, and allows it.
	const asked: string[] = [];
	const person = await setup({
		askPerson: async request => {
			asked.push(request.ask.title);
			return {decision: 'allow', by: 'user', reason: null};
		},
	});
	try {
		mock.enqueue({toolCalls: [{id: 'w2', name: 'write', arguments: JSON.stringify({files: [{path: 'b.txt', content: 'y\n'}]})}]}, {text: 'Written.'});
		const task = await start(person.agent, {task: 'Write b.txt.', role: 'writer'});
		assert.equal((await task.settled()).text, 'Written.');
		assert.equal(asked.length, 1);
		assert.ok(asked[0]!.startsWith(`child writer/${task.id}: `), asked[0]);
		assert.equal(readFileSync(join(person.workspace, 'b.txt'), 'utf8'), 'y\n');
		person.agent.children.dispose('ext', task.id);
	} finally {
		await person.agent.close();
	}
});

test('/reload cleans up the extensions’ children (their handles are gone); a session switch and the end clean up all', async () => {
	const dir = join(root, 'reload-extension');
	mkdirSync(dir, {recursive: true});
	const file = join(dir, 'kid.mjs');
	writeFileSync(file, 'export default api => {};');
	const {agent} = await setup({extensions: [file]});
	try {
		const before = mock.requests.length;
		mock.enqueue({text: 'a', hangAfterEvents: 1}, {text: 'b', hangAfterEvents: 1});
		const owned = await start(agent, {task: 'Owned by the extension.'}, 'kid');
		const core = await start(agent, {task: 'Owned by the core.'}, CORE_OWNER);
		await waitUntil(() => mock.requests.length === before + 2);
		const reload = await agent.reloadExtensions();
		assert.ok(reload.ok);
		assert.equal(owned.status, 'failed');
		assert.equal(owned.error, 'the extensions were reloaded');
		assert.equal((await refusal(() => agent.children.poll('kid', owned.id))).code, 'not_found');
		assert.equal(core.status, 'running', 'delegate_task’s child is the turn’s, not the extensions’');
		await agent.switchSession(agent.session, 'new');
		assert.equal(core.status, 'failed');
		assert.equal(core.error, 'the session was switched');
		assert.equal(agent.children.used, 0);
		mock.enqueue({text: 'c', hangAfterEvents: 1});
		const last = await start(agent, {task: 'Ended by the end.'});
		await waitUntil(() => mock.requests.length === before + 3);
		await agent.close();
		assert.equal(last.status, 'failed');
		assert.equal(last.error, 'the parent agent ended');
		const late = await refusal(async () => start(agent, {task: 'Too late.'}));
		assert.equal(late.code, 'stale');
		assert.match(late.message, /the parent agent has ended/);
	} finally {
		await agent.close().catch(() => {});
	}
});

async function waitUntil(check: () => boolean): Promise<void> {
	while (!check()) await new Promise(resolve => setTimeout(resolve, 10));
}
