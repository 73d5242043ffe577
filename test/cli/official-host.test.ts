// The default profile's official modules run in one worker process (issue 11),
// end to end through bin/i.js against the mock provider. Worker starts are
// counted by a module preloaded into `i` (NODE_OPTIONS) that logs every child
// process it spawns: workers get an emptied environment, so only `i` logs.
import {test, before, after, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, waitFor, type Sandbox} from '../helpers/cli.js';
import {waitUntilGone} from '../pool/helpers.js';

const bin = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));
const countSpawns = new URL('../../../test/fixtures/count-spawns.mjs', import.meta.url).href;

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

interface Counted extends Sandbox {
	/** The worker processes `i` started so far, each as its argv after the program's script. */
	starts(): Array<{pid: number; argv: string[]; args: string[]; env: string[] | null}>;
	/** Runs bin/i.js with the spawn log. */
	run(args: string[], options?: Parameters<typeof runCli>[1]): ReturnType<typeof runCli>;
}

/** A sandbox set up as `i --runtime init` leaves it, with the mock's model filled in; `i` runs with the spawn log. */
async function initialised(t: TestContext, extra: Record<string, unknown> = {}): Promise<Counted> {
	const box = makeSandbox();
	const log = join(box.root, 'spawns.log');
	const init = await runCli(['--runtime', 'init'], {env: box.env, entry: bin});
	assert.equal(init.code, 0, init.stderr);
	const config = JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as Record<string, unknown>;
	box.writeConfig({...config, protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', ...extra});
	writeFileSync(log, '');
	t.diagnostic(`sandbox ${box.root}`);
	return Object.assign(box, {
		starts: () =>
			readFileSync(log, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map(line => JSON.parse(line) as {pid: number; argv: string[]; env: string[] | null})
				// The part from `--runtime` on: the program before it is node and bin/i.js.
				.map(({pid, argv, env}) => ({pid, argv, args: argv.slice(argv.indexOf('--runtime')), env})),
		run: (args: string[], options: Parameters<typeof runCli>[1] = {}) => runCli(args, {...options, env: {...box.env, NODE_OPTIONS: `--import ${countSpawns}`, SPAWN_LOG: log}, entry: bin}),
	});
}

const host = ['--runtime', 'worker', 'official'];
const workersOf = (box: Counted) => box.starts();

test('the default profile: "Say hello" starts exactly one worker process, the official host', async t => {
	const box = await initialised(t);
	mock.enqueue({text: 'Hello!'});
	const start = mock.requests.length;
	const run = await box.run(['-p', 'Say hello', '-C', box.workspace]);
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Hello!\n');
	assert.deepEqual(
		workersOf(box).map(each => each.args),
		[host],
	);
	// node and bin/i.js, with no V8 flag and no start-up snapshot on node's command line.
	const [started] = workersOf(box);
	assert.deepEqual(started!.argv, [process.execPath, bin, ...host]);
	// The few variables of spec/platform.md §2, the same as every other worker's.
	assert.deepEqual(started!.env, ['HOME', 'I_CACHE_DIR', 'I_CONFIG_DIR', 'I_DATA_DIR', 'I_RUNTIME_DIR', 'PATH', 'PYTHONUTF8']);
	// The hooks ran: the prompts module's system prompt reached the request.
	const [request] = mock.requests.slice(start);
	assert.match(request!.body.messages[0].content, /You are i, a coding agent/);
});

test('the host starts before the workspace is registered: a registry that cannot give an ID fails the run naming it, and the host is gone', async t => {
	const box = await initialised(t);
	const registry = join(box.env.I_DATA_DIR!, 'workspaces.json');
	mkdirSync(box.env.I_DATA_DIR!, {recursive: true});
	writeFileSync(registry, '{"version": 1, "workspaces": [');
	const run = await box.run(['-p', 'Say hello', '-C', box.workspace]);
	assert.equal(run.code, 2, run.stderr);
	assert.match(run.stderr, /^i: workspace registry .*workspaces\.json is corrupt \(not valid JSON: /m);
	assert.equal(run.stdout, '');
	// It was started, concurrently with the registry's reading, and did not outlive the run.
	const [started, ...more] = workersOf(box);
	assert.deepEqual(started?.args, host);
	assert.deepEqual(more, []);
	assert.ok(await waitUntilGone(started.pid), `the host ${started.pid} is still running`);
	// The file is as it was: never replaced.
	assert.equal(readFileSync(registry, 'utf8'), '{"version": 1, "workspaces": [');
});

test('a tool turn with memory, skills, budget, cache and approval still starts one worker', async t => {
	const box = await initialised(t, {budget: {window: 100_000}});
	writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
	mkdirSync(join(box.workspace, '.i', 'skills', 'deploy'), {recursive: true});
	writeFileSync(join(box.workspace, '.i', 'skills', 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: Deploy the site.\n---\nBODY-MARKER\n');
	mock.enqueue(
		{toolCalls: [{id: 'w1', name: 'memory_write', arguments: JSON.stringify({key: 'build', text: 'npm run build'})}]},
		{
			toolCalls: [
				{id: 'r1', name: 'read', arguments: JSON.stringify({files: [{path: 'a.txt'}]})},
				{id: 's1', name: 'skill_load', arguments: JSON.stringify({name: 'deploy'})},
			],
		},
		{text: 'done', usage: {input: 900, output: 3, cacheRead: 512}},
	);
	const run = await box.run(['-p', 'remember the build, read a.txt', '--yolo', '--json', '-C', box.workspace]);
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const results = events.filter(event => event.type === 'tool_result');
	assert.match(results[0]!.output, /created memory entry "build"/);
	assert.match(results[1]!.output, /alpha/);
	assert.match(results[2]!.output, /BODY-MARKER/, 'the skills module answered its tool');
	assert.ok(
		events.some(event => event.type === 'budget'),
		'the budget module measured the requests',
	);
	assert.deepEqual(
		workersOf(box).map(each => each.args),
		[host],
	);
	// The cache module observed the answers; the memory module wrote its file.
	const report = await runCli(['--runtime', 'cache-report', '-C', box.workspace, '--json'], {env: box.env});
	assert.equal(report.code, 0, report.stderr);
	assert.equal(JSON.parse(report.stdout).observed, 3);
});

test('a module bound to its own exec runs in its own process; the others share the host', async t => {
	const box = await initialised(t, {budget: {window: 100_000}});
	writeFileSync(join(box.configDir, 'bindings.json'), JSON.stringify({budget: {exec: [process.execPath, bin, '--runtime', 'worker', 'budget']}}));
	mock.enqueue({text: 'bound'});
	const run = await box.run(['-p', 'hi', '--json', '-C', box.workspace]);
	assert.equal(run.code, 0, run.stderr);
	assert.ok(
		jsonEvents(run.stdout).some(event => event.type === 'budget'),
		'the bound budget worker answered',
	);
	assert.deepEqual(
		workersOf(box)
			.map(each => each.args)
			.toSorted(),
		[host, ['--runtime', 'worker', 'budget']].toSorted(),
	);
});

test('a module call that times out evicts the host: the turn fails naming the module, the next turn starts a fresh host and works', {timeout: 60_000}, async t => {
	const box = await initialised(t);
	mock.enqueue({text: 'first answer'}, {text: 'third answer'});
	let stopped: number | undefined;
	const turnsDone = (stdout: string) => jsonEvents(stdout).filter(event => event.type === 'done').length;
	const done = await box.run(['--json', '-C', box.workspace], {
		input: null,
		timeoutMs: 50_000,
		onSpawn(child, output) {
			const stdin = child.stdin!;
			stdin.write('one\n');
			void (async () => {
				await waitFor(() => turnsDone(output.stdout()) === 1, 20_000, 'the end of the first turn');
				// A stuck worker: the host stops answering between two turns.
				const [worker] = workersOf(box);
				stopped = worker!.pid;
				process.kill(stopped, 'SIGSTOP');
				stdin.write('two\n');
				await waitFor(() => turnsDone(output.stdout()) === 2, 30_000, 'the end of the second turn');
				stdin.end('three\n');
			})().catch(() => child.kill('SIGKILL'));
		},
	});
	assert.equal(done.code, 1, done.stderr);
	const events = jsonEvents(done.stdout);
	const ends = events.filter(event => event.type === 'done').map(event => event.reason);
	assert.deepEqual(ends, ['stop', 'error', 'stop']);
	const text = events
		.filter(event => event.type === 'text_delta')
		.map(event => event.text)
		.join('');
	assert.equal(text, 'first answerthird answer');
	const [error] = events.filter(event => event.type === 'error');
	assert.match(
		error!.message,
		// The turn's first call to the host: the prompts module's user_input (prompt templates).
		/^user_input hook of the prompts module \(.*builtin\.json\) failed: worker .*"official"\] in .*: call "user_input" timed out after 15 s waiting for the answer; the worker was stopped/,
	);
	const workers = workersOf(box);
	assert.deepEqual(
		workers.map(each => each.args),
		[host, host],
		'a fresh host for the third turn',
	);
	// The stuck host's whole group was killed, not left behind.
	assert.throws(() => process.kill(stopped!, 0), {code: 'ESRCH'});
});
