// Resident worker pool against spawn-per-call (seed §2), in the same run,
// with the same worker program (bench/echo-worker.mjs) and the same frames.
//
// Resident: pool.call() from the call to its resolved data, through one warm
// worker: encoding, the pipe write, the worker's parse and echo, the pipe
// read, decoding and checking the answer. The worker's start is not counted.
// Spawn per call (how other agents run hooks): start node with the same
// script, write the same request frame, close stdin, read and decode the
// answer, wait for the exit. Both sides use the same spawn options and the
// same emptied environment; the request frame is 1 KiB or 1 MiB, newline
// included (give or take the digits of a growing ID), and the answer echoes
// its data.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {mkdtempSync, realpathSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {PlatformDirs} from '../source/core/config/dirs.js';
import {encodeFrame, FrameDecoder} from '../source/core/pool/frames.js';
import {createWorkerPool} from '../source/core/pool/pool.js';
import type {RequestContext, WorkerSpec} from '../source/core/pool/types.js';
import {workerEnvironment} from '../source/core/pool/worker-environment.js';
import {median, timeAsync} from './measure.js';

const echoWorker = fileURLToPath(new URL('../../bench/echo-worker.mjs', import.meta.url));
/** Calls per measurement: enough for a stable p50, few enough for spawn-per-call to finish in seconds. */
const SIZES = [
	{name: '1 KiB', bytes: 1024, resident: 2000, spawned: 30},
	{name: '1 MiB', bytes: 1024 * 1024, resident: 100, spawned: 15},
] as const;

interface Figures {
	p50: number;
	callsPerSecond: number;
}

export async function benchPool(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-pool-')));
	const paths: PlatformDirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const context: RequestContext = {workspace: root, workspace_id: 'f29127b0-f512-4c6e-9e31-87d476d168ce', paths};
	const env = workerEnvironment(process.env, paths);
	const spec: WorkerSpec = {exec: [process.execPath, echoWorker], cwd: root};
	const pool = createWorkerPool({context, env, ioLimitBytes: 1024 * 1024});
	const rows: [string, Figures, Figures][] = [];
	try {
		for (const size of SIZES) {
			const data = dataForFrame(context, size.bytes);
			// Warm: the worker is started and its code optimised before anything is timed.
			for (let call = 0; call < 50; call++) await pool.call(spec, 'tool', data);
			const resident = await measure(size.resident, () => pool.call(spec, 'tool', data));
			const spawned = await measure(size.spawned, () => spawnCall(spec, env, encodeFrame({id: 1, event: 'tool', ...context, data})));
			rows.push([size.name, spawned, resident]);
		}
	} finally {
		await pool.close();
		rmSync(root, {recursive: true, force: true});
	}

	console.log('');
	console.log('| worker call (node echo worker) | p50 ms | calls/s | × spawn-per-call |');
	console.log('|---|---:|---:|---:|');
	for (const [size, spawned, resident] of rows) {
		console.log(`| spawn per call, ${size} frames (baseline) | ${spawned.p50.toFixed(2)} | ${spawned.callsPerSecond.toFixed(0)} | 1× |`);
		console.log(`| resident worker, ${size} frames | ${resident.p50.toFixed(3)} | ${resident.callsPerSecond.toFixed(0)} | ${(spawned.p50 / resident.p50).toFixed(0)}× |`);
	}

	const [, spawned, resident] = rows[0]!;
	console.log('');
	console.log(`resident worker at 1 KiB: ${(spawned.p50 / resident.p50).toFixed(0)}× faster than spawn-per-call by p50 (target ≥ 50×); p50 ${resident.p50.toFixed(3)} ms (target ≤ 0.3 ms)`);
}

/** `data` that makes the request frame with ID 1 exactly `size` bytes, newline included. */
function dataForFrame(context: RequestContext, size: number): {text: string} {
	const empty = encodeFrame({id: 1, event: 'tool', ...context, data: {text: ''}}).length;
	return {text: 'x'.repeat(size - empty)};
}

/** p50 of each call, and calls per second over the whole sequential run. */
async function measure(calls: number, call: () => Promise<unknown>): Promise<Figures> {
	const times: number[] = [];
	const total = await timeAsync(async () => {
		for (let index = 0; index < calls; index++) times.push(await timeAsync(async () => void (await call())));
	});
	return {p50: median(times), callsPerSecond: (calls / total) * 1000};
}

async function spawnCall(spec: WorkerSpec, env: Record<string, string>, frame: Buffer): Promise<Record<string, unknown>> {
	const child = spawn(spec.exec[0]!, spec.exec.slice(1), {cwd: spec.cwd, env, detached: true, stdio: 'pipe', windowsHide: true});
	const decoder = new FrameDecoder();
	let answer: {data: Record<string, unknown>} | undefined;
	child.stdout.on('data', (chunk: Buffer) => {
		for (const text of decoder.push(chunk)) answer = JSON.parse(text) as {data: Record<string, unknown>};
	});
	child.stdin.end(frame);
	const [code] = (await once(child, 'close')) as [number | null];
	if (code !== 0 || answer === undefined) throw new Error(`the echo worker exited with ${code} and ${answer ? 'an' : 'no'} answer`);
	return answer.data;
}
