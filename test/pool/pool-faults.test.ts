// The fault-injection suite (spec/platform.md §2): one misbehaving worker per test, in
// Python (faulty.py) or shell (banner.sh, grandchildren.sh, error-leaves-child.sh). After every
// fault the call fails with a specific WorkerError, the worker is gone, and
// the next call works with a fresh worker.
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {MAX_FRAME_BYTES} from '../../source/core/pool/frames.js';
import type {WorkerFailureKind} from '../../source/core/pool/types.js';
import {failure, fixture, isAlive, killQuietly, pidOf, setup, sh, waitUntilGone, workspaceId, type Setup} from './helpers.js';

const request = {name: 'probe', arguments: {}};

/** The first call answers (from worker A), the second meets the fault, the third gets a fresh worker B. */
async function faultThenFresh(t: TestContext, mode: string, kind: WorkerFailureKind, message: RegExp, options: {callTimeoutMs?: number} = {}): Promise<Setup> {
	const context = await setup(t, options);
	const spec = context.faulty(mode);
	const first = pidOf(await context.pool.call(spec, 'tool', request));
	await assert.rejects(context.pool.call(spec, 'tool', request), failure(kind, message));
	assert.ok(await waitUntilGone(first), `worker ${first} survived its eviction`);
	const fresh = pidOf(await context.pool.call(spec, 'tool', request));
	assert.notEqual(fresh, first);
	return context;
}

test('a worker that dies on start fails the call with its exit code and stderr; the next call starts a fresh one', async t => {
	const {pool, faulty} = await setup(t);
	const spec = faulty('die-on-start');
	await assert.rejects(
		pool.call(spec, 'tool', request),
		failure('exit', /^worker \[.*"die-on-start"\] in \/.*: call "tool" failed: the worker exited with code 3 before answering \(stderr: "faulty.py: cannot start \(injected fault\)"\)$/),
	);
	pidOf(await pool.call(spec, 'tool', request));
});

test('a worker that exits mid-call fails the call', async t => {
	await faultThenFresh(t, 'exit-mid-call', 'exit', /call "tool" failed: the worker exited with code 4 before answering \(stderr: "faulty.py: crashing mid-call \(injected fault\)"\)$/);
});

test('a worker that hangs is stopped when the call times out', async t => {
	const started = Date.now();
	await faultThenFresh(t, 'hang', 'timeout', /call "tool" timed out after 1500 ms waiting for the answer; the worker was stopped$/, {callTimeoutMs: 1500});
	assert.ok(Date.now() - started < 5000);
});

test('a banner on stdout is a protocol failure', async t => {
	const {pool, dir} = await setup(t);
	const spec = {exec: [sh, fixture('banner.sh')], cwd: dir};
	await assert.rejects(
		pool.call(spec, 'tool', request),
		failure('protocol', /call "tool" failed: the worker broke the protocol: it wrote a line that is not JSON: "banner worker 1\.0 ready"; the worker was stopped$/),
	);
	pidOf(await pool.call(spec, 'tool', request));
});

test('an answer with the wrong ID is a protocol failure', async t => {
	await faultThenFresh(t, 'wrong-id', 'protocol', /it answered with ID 3 instead of 2; the worker was stopped$/);
});

test('data that is not an object is a protocol failure', async t => {
	await faultThenFresh(t, 'non-object-data', 'protocol', /it answered with "data" that is not a JSON object: \[1,2,3\]/);
});

test('a frame without its newline, then EOF, is a protocol failure', async t => {
	await faultThenFresh(t, 'no-newline', 'protocol', /the worker broke the protocol: its output ended inside a frame \(21 bytes without a newline\)/);
});

test('a line that is not JSON is a protocol failure', async t => {
	await faultThenFresh(t, 'invalid-json', 'protocol', /it wrote a line that is not JSON: "\{\\"id\\":2,\\"data\\":\{"/);
});

test("an error frame fails the call with the worker's message and evicts the worker", async t => {
	await faultThenFresh(t, 'error-frame', 'error', /^worker .*: call "tool" failed: the worker answered with an error: injected failure; the worker was stopped$/);
});

test('a worker that answers with an error frame and then exits by itself takes what it started with it', async t => {
	const {pool, dir} = await setup(t);
	const pidFile = join(dir, 'sleep.pid');
	const spec = {exec: [sh, fixture('error-leaves-child.sh'), pidFile], cwd: dir};
	await assert.rejects(pool.call(spec, 'tool', request), failure('error', /the worker answered with an error: injected failure after starting a sleep; the worker was stopped$/));
	const sleeper = Number(await readFile(pidFile, 'utf8'));
	t.after(() => killQuietly(sleeper));
	// The worker exits at EOF, inside the grace an error frame gives it; its group must go all the same.
	assert.ok(await waitUntilGone(sleeper), `the worker's sleep ${sleeper} outlived it`);
});

test('output while no call is pending evicts the worker; the next call gets a fresh one', async t => {
	const {pool, faulty} = await setup(t);
	const spec = faulty('extra-frame');
	pidOf(await pool.call(spec, 'tool', request));
	// This answer comes with a second frame nobody asked for.
	const second = pidOf(await pool.call(spec, 'tool', request));
	assert.ok(await waitUntilGone(second));
	assert.notEqual(pidOf(await pool.call(spec, 'tool', request)), second);
});

test('an answer of exactly 48 MiB passes; one byte more fails and evicts the worker', async t => {
	const {pool, faulty} = await setup(t);
	const spec = faulty('echo');
	const first = pidOf(await pool.call(spec, 'tool', request));
	const exact = await pool.call(spec, 'tool', {size: MAX_FRAME_BYTES});
	assert.equal((exact.pad as string).length, MAX_FRAME_BYTES - Buffer.byteLength('{"id":2,"data":{"pad":""}}\n'));
	await assert.rejects(
		pool.call(spec, 'tool', {size: MAX_FRAME_BYTES + 1}),
		failure('protocol', /it wrote a frame of (more than|at least) 5033164\d bytes is over the limit of 50331648 bytes; the worker was stopped$/),
	);
	assert.ok(await waitUntilGone(first));
	assert.notEqual(pidOf(await pool.call(spec, 'tool', request)), first);
});

test('a request of exactly 48 MiB is sent; one byte more fails without being sent, and the worker stays', async t => {
	const {pool, faulty, dir, dirs} = await setup(t);
	const spec = faulty('echo');
	const first = pidOf(await pool.call(spec, 'tool', request));
	// The request frame as spec/platform.md §2 and §3 lay it out.
	const frameBytes = (id: number, pad: string) => Buffer.byteLength(JSON.stringify({id, event: 'tool', workspace: dir, workspace_id: workspaceId, paths: dirs, data: {pad}})) + 1;
	const pad = 'x'.repeat(MAX_FRAME_BYTES - frameBytes(2, ''));
	const exact = await pool.call(spec, 'tool', {pad});
	assert.equal(exact.bytes, MAX_FRAME_BYTES);
	await assert.rejects(pool.call(spec, 'tool', {pad: `${pad}x`}), failure('protocol', /call "tool" failed: the request cannot be sent: a frame of 50331649 bytes is over the limit of 50331648 bytes$/));
	// Nothing was written, so the same worker answers, with the next ID.
	const after = await pool.call(spec, 'tool', request);
	assert.equal(pidOf(after), first);
	assert.equal(after.id, 3);
});

test('a stderr flood past io_limit_bytes is drained: the call works, and a later failure quotes only the end', async t => {
	const {pool, faulty} = await setup(t, {ioLimitBytes: 64 * 1024});
	const spec = faulty('echo');
	const flood = 32 * 1024 * 1024;
	// Undrained, 32 MiB would block the worker on a full pipe and the call would time out.
	const first = pidOf(await pool.call(spec, 'tool', {stderr: flood}));
	assert.equal(pidOf(await pool.call(spec, 'tool', request)), first);
	const note = 'faulty.py: exiting with code 5 as asked\n';
	await assert.rejects(
		pool.call(spec, 'tool', {exit: 5}),
		failure('exit', new RegExp(`exited with code 5 before answering \\(stderr, the last 2048 of ${flood + note.length} bytes: "e{2000,}faulty.py: exiting with code 5 as asked"\\)$`)),
	);
	assert.notEqual(pidOf(await pool.call(spec, 'tool', request)), first);
});

for (const ending of ['hang', 'exit'] as const) {
	test(`no child or grandchild of a worker survives its eviction (the worker ${ending === 'hang' ? 'hangs' : 'exits'})`, async t => {
		const {pool, dir} = await setup(t, {callTimeoutMs: 1000});
		const spec = {exec: [sh, fixture('grandchildren.sh'), ending], cwd: dir};
		const answer = await pool.call(spec, 'tool', request);
		const pids = [answer.pid, answer.child, answer.grandchild] as number[];
		assert.ok(pids.every(pid => isAlive(pid)));
		await assert.rejects(pool.call(spec, 'tool', request), failure(ending === 'hang' ? 'timeout' : 'exit', ending === 'hang' ? /timed out after 1 s/ : /exited with code 0 before answering/));
		for (const pid of pids) assert.ok(await waitUntilGone(pid), `process ${pid} survived`);
		assert.notEqual(pidOf(await pool.call(spec, 'tool', request)), pids[0]);
	});
}

test('the environment canary: secrets never reach a worker; PATH, HOME, PYTHONUTF8 and the four folders do', async t => {
	const parentEnv = {
		...process.env,
		HOME: '/home/canary',
		OPENAI_API_KEY: 'sk-canary-secret',
		MY_MODEL_CREDENTIAL: 'canary-credential',
		I_APPROVAL_TOKEN: 'canary-approval-token',
		// The worker gets the folders the core resolved, not the parent's variables.
		I_CONFIG_DIR: '/canary/config',
	};
	const {pool, faulty, dirs} = await setup(t, {parentEnv});
	const answer = await pool.call(faulty('echo'), 'tool', request);
	const expected: Record<string, string> = {
		PYTHONUTF8: '1',
		I_CONFIG_DIR: dirs.config_dir,
		I_DATA_DIR: dirs.data_dir,
		I_CACHE_DIR: dirs.cache_dir,
		I_RUNTIME_DIR: dirs.runtime_dir,
	};
	for (const name of ['PATH', 'SystemRoot', 'TEMP', 'TMP', 'HOME', 'USERPROFILE']) {
		const value = parentEnv[name as keyof typeof parentEnv];
		if (value !== undefined) expected[name] = value;
	}

	assert.deepEqual(answer.env, expected);
	assert.equal(expected.HOME, '/home/canary');
	assert.ok(!JSON.stringify(answer).includes('canary-') && !JSON.stringify(answer).includes('sk-canary'));
});
