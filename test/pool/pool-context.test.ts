// A pool made while the workspace's ID is still being read (start-plugins.ts):
// its workers start at once, and the calls wait for the context.
import assert from 'node:assert/strict';
import {existsSync, realpathSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import {test, type TestContext} from 'node:test';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {createWorkerPool} from '../../source/core/pool/pool.js';
import type {RequestContext, WorkerPool, WorkerSpec} from '../../source/core/pool/types.js';
import {workerEnvironment} from '../../source/core/pool/worker-environment.js';
import {workspaceId} from './helpers.js';

interface Pending {
	pool: WorkerPool;
	dir: string;
	context: RequestContext;
	resolve(context: RequestContext): void;
	reject(error: Error): void;
	/** A worker that first leaves the file `started` (its process was started), then answers each request with the whole frame. */
	spec: WorkerSpec;
	started: string;
}

async function pending(t: TestContext): Promise<Pending> {
	const dir = realpathSync(await mkdtemp(join(tmpdir(), 'i-pool-context-')));
	const paths: PlatformDirs = {config_dir: join(dir, 'config'), data_dir: join(dir, 'data'), cache_dir: join(dir, 'cache'), runtime_dir: join(dir, 'runtime')};
	let resolve!: (context: RequestContext) => void;
	let reject!: (error: Error) => void;
	const promise = new Promise<RequestContext>((yes, no) => {
		resolve = yes;
		reject = no;
	});
	const pool = createWorkerPool({context: promise, env: workerEnvironment(process.env, paths), ioLimitBytes: 1024 * 1024, callTimeoutMs: 10_000});
	t.after(async () => {
		await pool.close();
		await rm(dir, {recursive: true, force: true});
	});
	const started = join(dir, 'started');
	const spec = {exec: [process.execPath, '-e', echoWorker, started], cwd: dir};
	return {pool, dir, context: {workspace: dir, workspace_id: workspaceId, paths}, resolve, reject, spec, started};
}

const echoWorker = `
require('node:fs').writeFileSync(process.argv[1], '');
require('node:readline').createInterface({input: process.stdin}).on('line', line => {
	const frame = JSON.parse(line);
	process.stdout.write(JSON.stringify({id: frame.id, data: {frame, pid: process.pid}}) + '\\n');
});
`;

async function waitForFile(path: string): Promise<void> {
	const deadline = Date.now() + 5000;
	while (!existsSync(path)) {
		if (Date.now() > deadline) throw new Error(`${path} never appeared`);
		await delay(10);
	}
}

test('a pool whose context is still coming starts its workers at once; a call waits for the context and carries it', async t => {
	const {pool, context, resolve, spec, started} = await pending(t);
	pool.start(spec);
	await waitForFile(started);
	let answered = false;
	const call = pool.call(spec, 'before_turn', {text: 'hi'}).then(answer => {
		answered = true;
		return answer;
	});
	await delay(200);
	assert.equal(answered, false, 'no frame goes out before the context is there');
	resolve(context);
	const {frame} = (await call) as {frame: Record<string, unknown>};
	assert.deepEqual(frame, {id: 1, event: 'before_turn', ...context, data: {text: 'hi'}});
});

test('resources set while the context is coming are in the frames once it is there', async t => {
	const {pool, dir, context, resolve, spec} = await pending(t);
	const resources = {skills: [{path: join(dir, 'skills'), origin: '--skill'}], prompts: []};
	pool.setResources(resources);
	const call = pool.call(spec, 'before_turn', {});
	resolve(context);
	const frameOf = async (answer: Promise<Record<string, unknown>>) => ((await answer) as {frame: Record<string, unknown>}).frame;
	assert.deepEqual((await frameOf(call)).resources, resources);
	pool.setResources(undefined);
	assert.equal(Object.hasOwn(await frameOf(pool.call(spec, 'before_turn', {})), 'resources'), false);
});

test('a context that cannot be had fails the calls waiting for it with its own error', async t => {
	const {pool, reject, spec} = await pending(t);
	const waiting = pool.call(spec, 'before_turn', {});
	reject(new Error('workspace registry /x/workspaces.json is corrupt'));
	await assert.rejects(waiting, /^Error: workspace registry \/x\/workspaces\.json is corrupt$/);
	await assert.rejects(pool.call(spec, 'before_turn', {}), /workspace registry/);
});

test('a pool closed while its context is coming refuses the calls that waited', async t => {
	const {pool, context, resolve, spec} = await pending(t);
	const waiting = pool.call(spec, 'before_turn', {});
	await pool.close();
	resolve(context);
	await assert.rejects(waiting, /the worker pool is closed/);
});
