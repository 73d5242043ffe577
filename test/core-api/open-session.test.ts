// The core's API (i-agent/core) in process, from the compiled tree, against
// the mock provider; test/package/install.test.ts runs it from the
// installed tarball. The platform folders are this test process's own.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {fileURLToPath} from 'node:url';
import {openSession, TurnFailedError, UsageError, type Config, type CoreEvent} from '../../source/core/api/index.js';
import {packageProgramArgv} from '../../source/core/plugins/program.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-core-api-')));
for (const [name, folder] of [
	['I_CONFIG_DIR', 'config'],
	['I_DATA_DIR', 'data'],
	['I_CACHE_DIR', 'cache'],
	['I_RUNTIME_DIR', 'runtime'],
] as const) {
	process.env[name] = join(root, folder);
}
process.env.CORE_API_KEY = 'sk-core-api';

let mock: MockProvider;
let config: Config;
before(async () => {
	mock = await startMockProvider();
	config = {protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'core-model', api_key_env: 'CORE_API_KEY', max_retries: 0};
});
after(async () => mock.close());

let workspaces = 0;
function workspace(): string {
	const path = join(root, `workspace-${++workspaces}`);
	mkdirSync(path);
	return path;
}

const writeCall = (id: string, path: string) => ({id, name: 'write', arguments: JSON.stringify({files: [{path, content: 'written\n'}]})});

test('a turn: the answer, its events, the session file and the history', async () => {
	const cwd = workspace();
	const opened: CoreEvent[] = [];
	const session = await openSession({cwd, config, onEvent: event => opened.push(event)});
	try {
		assert.deepEqual(
			opened.map(event => event.type),
			['session'],
		);
		assert.equal(session.workspace, cwd);
		assert.ok(existsSync(session.path), session.path);
		mock.enqueue({text: 'Hello from the core.', usage: {input: 10, output: 5}});
		const events: CoreEvent[] = [];
		const result = await session.run('hi', {onEvent: event => events.push(event)});
		assert.deepEqual(result, {reason: 'stop', steps: 1, text: 'Hello from the core.'});
		assert.equal(
			events
				.filter(event => event.type === 'text_delta')
				.map(event => event.text)
				.join(''),
			'Hello from the core.',
		);
		assert.deepEqual(events.at(-1), {type: 'done', reason: 'stop', steps: 1});
		assert.deepEqual(
			session.messages.map(message => message.role),
			['system', 'user', 'assistant'],
		);
		assert.equal(mock.requests.at(-1)!.headers.authorization, 'Bearer sk-core-api');
	} finally {
		await session.close();
	}

	// Closed: the file is released, and a resumed session carries on from it.
	const resumed = await openSession({cwd, config, sessionFile: session.path});
	try {
		assert.equal(resumed.id, session.id);
		assert.equal(resumed.messages.length, 3);
	} finally {
		await resumed.close();
	}
});

test('without an approve callback a call that needs approval is denied, with a message, and never runs', async () => {
	const cwd = workspace();
	const session = await openSession({cwd, config});
	try {
		mock.enqueue({toolCalls: [writeCall('w1', 'denied.txt')]}, {text: 'I could not write it.'});
		const events: CoreEvent[] = [];
		const result = await session.run('write a file', {onEvent: event => events.push(event)});
		assert.equal(result.text, 'I could not write it.');
		const approval = events.find(event => event.type === 'approval');
		assert.equal(approval?.type === 'approval' && approval.decision, 'deny');
		assert.match(approval?.type === 'approval' ? (approval.reason ?? '') : '', /no approve callback; pass approve to openSession, or yolo: true/);
		assert.equal(existsSync(join(cwd, 'denied.txt')), false);
	} finally {
		await session.close();
	}
});

test('approve sees the call as the approval prompt shows it; true runs it, false denies it', async () => {
	const cwd = workspace();
	const asked: Array<{title: string; detail: string; name: string}> = [];
	const session = await openSession({
		cwd,
		config,
		approve: request => {
			asked.push(request);
			return request.title.includes('yes.txt');
		},
	});
	try {
		mock.enqueue({toolCalls: [writeCall('w1', 'yes.txt'), writeCall('w2', 'no.txt')]}, {text: 'one of two'});
		await session.run('write two files');
		assert.deepEqual(
			asked.map(request => [request.name, request.title]),
			[
				['write', 'Write 1 file: yes.txt'],
				['write', 'Write 1 file: no.txt'],
			],
		);
		assert.match(asked[0]!.detail, /written/);
		assert.equal(readFileSync(join(cwd, 'yes.txt'), 'utf8'), 'written\n');
		assert.equal(existsSync(join(cwd, 'no.txt')), false);
	} finally {
		await session.close();
	}
});

test("permissionMode plan refuses a write with plan mode's reason; acceptEdits runs one with no approve callback; an unknown mode is a UsageError", async () => {
	const cwd = workspace();
	const plan = await openSession({cwd, config, permissionMode: 'plan'});
	try {
		mock.enqueue({toolCalls: [writeCall('w1', 'planned.txt')]}, {text: 'my plan'});
		const events: CoreEvent[] = [];
		await plan.run('write it', {onEvent: event => events.push(event)});
		const approval = events.find(event => event.type === 'approval');
		assert.deepEqual(approval?.type === 'approval' && [approval.decision, approval.by], ['deny', 'mode']);
		assert.equal(existsSync(join(cwd, 'planned.txt')), false);
	} finally {
		await plan.close();
	}

	const edits = await openSession({cwd, config, permissionMode: 'acceptEdits'});
	try {
		mock.enqueue({toolCalls: [writeCall('w1', 'accepted.txt')]}, {text: 'written'});
		await edits.run('write it');
		assert.equal(readFileSync(join(cwd, 'accepted.txt'), 'utf8'), 'written\n');
	} finally {
		await edits.close();
	}

	await assert.rejects(
		openSession({cwd, config, permissionMode: 'auto' as 'plan'}),
		(error: unknown) => error instanceof UsageError && error.message === 'openSession: permissionMode must be one of default, acceptEdits, plan, bypassPermissions (got "auto")',
	);
});

test('stream: the events until done; leaving the loop early stops the turn, and the session runs the next one', async () => {
	const session = await openSession({cwd: workspace(), config});
	try {
		mock.enqueue({text: 'streamed'});
		const types: string[] = [];
		for await (const event of session.stream('one')) types.push(event.type);
		assert.equal(types.at(-1), 'done');
		assert.ok(types.includes('text_delta'));

		mock.enqueue({text: 'a long answer, one slow chunk at a time', chunkDelayMs: 200});
		const started = Date.now();
		for await (const event of session.stream('two')) if (event.type === 'text_delta') break;
		assert.ok(Date.now() - started < 5000, 'the slow stream was cut short');

		mock.enqueue({text: 'three'});
		assert.equal((await session.run('three')).text, 'three');
	} finally {
		await session.close();
	}
});

test('a failed turn rejects with a TurnFailedError naming the failure; the stream throws it after its done event', async () => {
	const session = await openSession({cwd: workspace(), config, maxSteps: 1});
	try {
		mock.enqueue({status: 400, errorMessage: 'model not found'});
		await assert.rejects(session.run('hi'), (error: unknown) => {
			assert.ok(error instanceof TurnFailedError);
			assert.equal(error.reason, 'error');
			assert.equal(error.kind, 'http');
			assert.match(error.message, /model not found/);
			return true;
		});

		mock.enqueue({toolCalls: [{id: 'r1', name: 'glob', arguments: JSON.stringify({pattern: '*'})}]});
		const types: string[] = [];
		await assert.rejects(
			async () => {
				for await (const event of session.stream('list the files')) types.push(event.type);
			},
			(error: unknown) => error instanceof TurnFailedError && error.reason === 'max_steps' && /max_steps/.test(error.message),
		);
		assert.deepEqual(types.slice(-2), ['error', 'done']);
	} finally {
		await session.close();
	}
});

test('a signal stops the turn: run rejects with its reason', async () => {
	const session = await openSession({cwd: workspace(), config});
	try {
		mock.enqueue({text: 'slow words never finished', chunkDelayMs: 300});
		const controller = new AbortController();
		const reason = new Error('stopped by the caller');
		const running = session.run('hi', {signal: controller.signal, onEvent: event => event.type === 'text_delta' && controller.abort(reason)});
		await assert.rejects(running, error => error === reason);
	} finally {
		await session.close();
	}
});

test('one turn at a time; a closed session runs none', async () => {
	const session = await openSession({cwd: workspace(), config});
	mock.enqueue({text: 'first'});
	const first = session.run('one');
	await assert.rejects(session.run('two'), /running a turn already: one turn at a time/);
	await first;
	await session.close();
	await assert.rejects(session.run('three'), /is closed/);
});

test('bad options and configs are UsageErrors naming what is wrong', async () => {
	await assert.rejects(openSession({cwd: workspace(), config, maxSteps: 0}), (error: unknown) => error instanceof UsageError && /maxSteps must be a whole number from 1 to 1000/.test(error.message));
	await assert.rejects(openSession({cwd: join(root, 'missing'), config}), (error: unknown) => error instanceof UsageError && /workspace .*missing does not exist/.test(error.message));
	const {model: _, ...withoutModel} = config;
	await assert.rejects(openSession({cwd: workspace(), config: withoutModel as Config}), (error: unknown) => error instanceof UsageError && /\(config object\): .*model/.test(error.message));
	await assert.rejects(openSession({cwd: workspace(), config: join(root, 'none.json')}), (error: unknown) => error instanceof UsageError && /none\.json does not exist/.test(error.message));
});

test("the official workers are started by the package's own bin/i.js, found above the core; a copy of the core elsewhere says what to do", () => {
	const bin = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));
	assert.deepEqual(packageProgramArgv(), [process.execPath, realpathSync(bin)]);
	assert.throws(
		() => packageProgramArgv(join(root, 'editor-extension', 'bundle.js')),
		(error: unknown) => error instanceof UsageError && /no folder above .*bundle\.js holds it; import i-agent\/core from the installed package/.test(error.message),
	);
});

test("an extension's dialog has no screen in the core API: refused as unavailable, and the tool error says so", async () => {
	const cwd = workspace();
	const folder = join(root, 'dialog-extensions');
	mkdirSync(folder, {recursive: true});
	writeFileSync(
		join(folder, 'asker.mjs'),
		`export default api => api.registerTool({name: 'ask_confirm', description: 'asks', parameters: {type: 'object', properties: {}},
			async execute(params, ctx) { try { await api.runtime.uiDialog({type: 'confirm', title: 'Go?'}, ctx); return {output: 'answered'}; } catch (error) { return {error: error.code + ': ' + error.message}; } }});`,
	);
	// Only for this session: the other tests' requests carry no extension tool.
	process.env.I_EXTENSIONS_DIR = folder;
	try {
		const session = await openSession({cwd, config, approve: () => true});
		try {
			mock.enqueue({toolCalls: [{id: 'd1', name: 'ask_confirm', arguments: '{}'}]}, {text: 'ok'});
			const sent = mock.requests.length;
			await session.run('ask me');
			const tool = (mock.requests[sent + 1]!.body as {messages: Array<{role: string; tool_call_id?: string; content: unknown}>}).messages.find(
				message => message.role === 'tool' && message.tool_call_id === 'd1',
			);
			assert.match(
				JSON.stringify(tool?.content),
				/unavailable: uiDialog: extension asker: the core API \(openSession\) has no screen to ask on, so the confirm dialog \\"Go\?\\" was not shown and nobody answered it/,
			);
		} finally {
			await session.close();
		}
	} finally {
		delete process.env.I_EXTENSIONS_DIR;
	}
});
