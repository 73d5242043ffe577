import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {setTimeout as delay} from 'node:timers/promises';
import {test} from 'node:test';
import {failure, fixture, folder, isAlive, pidOf, setup, sh, waitUntilGone, workspaceId} from './helpers.js';

test('a request frame carries the ID, event, workspace, workspace ID, paths and data, in that order; IDs count up per worker', async t => {
	const {pool, faulty, dir, dirs} = await setup(t);
	const spec = faulty('echo');
	const first = await pool.call(spec, 'before_turn', {text: 'hello ☃'});
	assert.deepEqual(first.keys, ['id', 'event', 'workspace', 'workspace_id', 'paths', 'data']);
	assert.equal(first.id, 1);
	assert.equal(first.event, 'before_turn');
	assert.equal(first.workspace, dir);
	assert.equal(first.workspace_id, workspaceId);
	assert.deepEqual(first.paths, dirs);
	assert.deepEqual(first.data, {text: 'hello ☃'});
	assert.equal((await pool.call(spec, 'tool', {})).id, 2);
});

test('concurrent calls to one worker queue: one request at a time, answers in order', async t => {
	const {pool, faulty} = await setup(t);
	const spec = faulty('echo');
	const answers = await Promise.all(Array.from({length: 8}, (_, n) => pool.call(spec, 'tool', {n, sleep: 0.02})));
	assert.deepEqual(
		answers.map(answer => answer.id),
		[1, 2, 3, 4, 5, 6, 7, 8],
	);
	assert.deepEqual(
		answers.map(answer => (answer.data as {n: number}).n),
		[0, 1, 2, 3, 4, 5, 6, 7],
	);
	// The worker never found the next request waiting while it worked on one.
	assert.ok(answers.every(answer => answer.overlapped === false));
	assert.equal(new Set(answers.map(answer => answer.pid)).size, 1);
});

test('one worker per (exec, cwd): the same spec shares a process, another argv or cwd gets its own', async t => {
	const {pool, faulty, dir} = await setup(t);
	const other = await folder(dir, 'other');
	const echo = faulty('echo');
	const a = pidOf(await pool.call(echo, 'tool', {}));
	assert.equal(pidOf(await pool.call({exec: [...echo.exec], cwd: dir}, 'tool', {})), a);
	const b = pidOf(await pool.call(faulty('echo', other), 'tool', {}));
	// faulty.py reads only its first argument: the same program, another argv.
	const c = pidOf(await pool.call({exec: [...echo.exec, 'extra'], cwd: dir}, 'tool', {}));
	assert.equal(new Set([a, b, c]).size, 3);
	assert.ok([a, b, c].every(pid => isAlive(pid)));
});

test('a worker that exits while idle leaves the pool at once: the next call starts a fresh one, without an error', async t => {
	const {pool, faulty} = await setup(t);
	const spec = faulty('echo');
	const first = pidOf(await pool.call(spec, 'tool', {then_exit: true}));
	// Until the pool has reaped it (a zombie still exists).
	while (exists(first)) await delay(10);
	assert.notEqual(pidOf(await pool.call(spec, 'tool', {})), first);
});

test('a call may set its own time limit', async t => {
	const {pool, faulty} = await setup(t);
	const spec = faulty('hang');
	pidOf(await pool.call(spec, 'tool', {}));
	const started = Date.now();
	await assert.rejects(pool.call(spec, 'tool', {}, {timeoutMs: 300}), failure('timeout', /call "tool" timed out after 300 ms waiting for the answer; the worker was stopped$/));
	assert.ok(Date.now() - started < 3000);
});

test('the time limit covers the write: a worker that never reads its input times out while being written to', async t => {
	const {pool, dir} = await setup(t, {callTimeoutMs: 500});
	const spec = {exec: ['/bin/sleep', '300'], cwd: dir};
	await assert.rejects(
		pool.call(spec, 'tool', {pad: 'x'.repeat(4 * 1024 * 1024)}),
		failure('timeout', /^worker \["\/bin\/sleep","300"\] in .*: call "tool" timed out after 500 ms writing the request \(the worker did not read it\); the worker was stopped$/),
	);
});

test('calls queued behind a failing call fail with the same error, unsent; the next call starts afresh', async t => {
	const {pool, faulty} = await setup(t, {callTimeoutMs: 500});
	const spec = faulty('hang');
	const first = pidOf(await pool.call(spec, 'tool', {}));
	const calls = [pool.call(spec, 'tool', {}), pool.call(spec, 'after_tool', {}), pool.call(spec, 'finish', {})];
	const errors = await Promise.all(
		calls.map(call =>
			call.then(
				() => assert.fail('resolved'),
				(error: unknown) => error,
			),
		),
	);
	assert.equal(errors[1], errors[0]);
	assert.equal(errors[2], errors[0]);
	assert.match((errors[0] as Error).message, /call "tool" timed out after 500 ms/);
	assert.notEqual(pidOf(await pool.call(spec, 'tool', {})), first);
});

test('a program that cannot be started fails the call (kind spawn), and so does an empty argv', async t => {
	const {pool, dir} = await setup(t);
	await assert.rejects(
		pool.call({exec: ['/nonexistent/worker', 'mode'], cwd: dir}, 'tool', {}),
		failure('spawn', /^worker \["\/nonexistent\/worker","mode"\] in .*: call "tool" failed: could not start the worker: spawn \/nonexistent\/worker ENOENT$/),
	);
	await assert.rejects(pool.call({exec: [], cwd: dir}, 'tool', {}), failure('spawn', /could not start the worker: the exec argv is empty$/));
});

test('close() kills every worker group, fails calls in flight, refuses new ones and removes its exit listener', async t => {
	const listeners = process.listenerCount('exit');
	const {pool, faulty, dir} = await setup(t);
	assert.equal(process.listenerCount('exit'), listeners + 1);
	const echo = pidOf(await pool.call(faulty('echo'), 'tool', {}));
	const grandchildren = await pool.call({exec: [sh, fixture('grandchildren.sh'), 'hang'], cwd: dir}, 'tool', {});
	const hanging = assert.rejects(pool.call({exec: [sh, fixture('grandchildren.sh'), 'hang'], cwd: dir}, 'tool', {}), failure('exit', /call "tool" failed: the worker pool was closed$/));
	await pool.close();
	await hanging;
	// Reaped by the time close() resolves; the orphaned grandchild goes as soon as the kernel delivers the SIGKILL.
	assert.equal(isAlive(echo), false);
	assert.equal(isAlive(grandchildren.pid as number), false);
	assert.ok(await waitUntilGone(grandchildren.child as number));
	assert.ok(await waitUntilGone(grandchildren.grandchild as number));
	await assert.rejects(pool.call(faulty('echo'), 'tool', {}), failure('spawn', /failed: the worker pool is closed$/));
	assert.equal(process.listenerCount('exit'), listeners);
	await pool.close();
});

/** Runs a node process that starts a worker through a pool and ends without closing it. */
async function endWithoutClose(how: 'process.exit' | 'natural end', cwd: string): Promise<{pids: number[]; code: number | null}> {
	const script = `
		const [poolModule, sh, worker, cwd, how] = process.argv.slice(1);
		const {createWorkerPool} = await import(poolModule);
		const paths = {config_dir: cwd, data_dir: cwd, cache_dir: cwd, runtime_dir: cwd};
		const pool = createWorkerPool({context: {workspace: cwd, workspace_id: 'x', paths}, env: {PATH: process.env.PATH}, ioLimitBytes: 65536});
		const data = await pool.call({exec: [sh, worker, 'hang'], cwd}, 'tool', {});
		console.log(JSON.stringify([data.pid, data.child, data.grandchild]));
		if (how === 'process.exit') process.exit(0);
	`;
	const poolModule = new URL('../../source/core/pool/pool.js', import.meta.url).href;
	const child = spawn(process.execPath, ['--input-type=module', '-e', script, poolModule, sh, fixture('grandchildren.sh'), cwd, how], {stdio: ['ignore', 'pipe', 'inherit']});
	let stdout = '';
	child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
	// An idle pool must not keep the process alive: if it did, this would wait for ever, so it is bounded.
	const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
	const code = await new Promise<number | null>(resolve => child.once('close', resolve));
	clearTimeout(timer);
	return {pids: JSON.parse(stdout) as number[], code};
}

for (const how of ['process.exit', 'natural end'] as const) {
	test(`an unclosed pool leaves no worker behind at ${how}; an idle pool does not keep the process alive`, async t => {
		const {dir} = await setup(t);
		// The worker hangs at EOF instead of exiting, so only the pool's exit listener can end it and what it started.
		const {pids, code} = await endWithoutClose(how, dir);
		assert.equal(code, 0);
		for (const pid of pids) assert.ok(await waitUntilGone(pid), `process ${pid} survived`);
	});
}

function exists(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}
