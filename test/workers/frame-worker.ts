import {spawn, type ChildProcess} from 'node:child_process';
import {mkdir, mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {TestContext} from 'node:test';
import {FrameDecoder} from '../../source/core/pool/frames.js';
import {binPath} from '../helpers/cli.js';

export type Frame = Record<string, any>;

/** A worker child process spoken to in frames, the way the pool speaks to it. */
export interface FrameWorker {
	child: ChildProcess;
	/** Writes raw bytes to its stdin. */
	write(bytes: string | Buffer): void;
	/** Writes one request frame and resolves with the next response frame. */
	request(frame: Record<string, unknown>): Promise<Frame>;
	/** The next response frame not yet taken. */
	next(): Promise<Frame>;
	/** Ends stdin and resolves when the process has exited. */
	close(): Promise<WorkerExit>;
	/** Resolves when the process has exited (without ending stdin). */
	exited: Promise<WorkerExit>;
}

export interface WorkerExit {
	code: number | null;
	/** Every frame it wrote, taken or not. */
	frames: Frame[];
	stderr: string;
}

/** How to stop each worker a test started: its folders are removed only once they are all gone (a worker may still be writing). */
const running = new WeakMap<TestContext, Array<() => Promise<void>>>();

/** Starts `argv` (a program and its arguments) and decodes its stdout strictly as frames: anything else fails the test. */
export function startWorker(t: TestContext, argv: string[], options: {env?: NodeJS.ProcessEnv; cwd?: string} = {}): FrameWorker {
	const [program, ...args] = argv;
	const child = spawn(program!, args, {cwd: options.cwd, env: options.env ?? {PATH: process.env.PATH}, stdio: ['pipe', 'pipe', 'pipe']});
	const stopped = new Promise<void>(resolve => child.once('close', () => resolve()));
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		await stopped;
	};

	let stops = running.get(t);
	if (!stops) {
		stops = [];
		running.set(t, stops);
	}

	stops.push(stop);
	t.after(stop);
	const decoder = new FrameDecoder();
	const frames: Frame[] = [];
	const queue: Frame[] = [];
	const waiting: Array<{resolve: (frame: Frame) => void; reject: (error: Error) => void}> = [];
	let stderr = '';
	let exit: WorkerExit | undefined;
	child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
	child.stdout!.on('data', (chunk: Buffer) => {
		for (const text of decoder.push(chunk)) {
			// Throws on anything but a JSON object: stdout must carry frames only.
			const frame = JSON.parse(text) as unknown;
			if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) throw new Error(`stdout carried a non-object line: ${text.slice(0, 200)}`);
			frames.push(frame as Frame);
			const waiter = waiting.shift();
			if (waiter) waiter.resolve(frame as Frame);
			else queue.push(frame as Frame);
		}
	});
	child.stdin!.on('error', () => {});
	const exited = new Promise<WorkerExit>(resolve => {
		child.on('close', code => {
			if (decoder.pendingBytes > 0) throw new Error(`stdout ended inside a frame (${decoder.pendingBytes} bytes)`);
			exit = {code, frames, stderr};
			for (const waiter of waiting.splice(0)) waiter.reject(new Error(`the worker exited (${code}) before answering; stderr: ${stderr}`));
			resolve(exit);
		});
	});
	const next = () => {
		const frame = queue.shift();
		if (frame) return Promise.resolve(frame);
		if (exit) return Promise.reject(new Error(`the worker exited (${exit.code}) before answering; stderr: ${stderr}`));
		return new Promise<Frame>((resolve, reject) => waiting.push({resolve, reject}));
	};

	return {
		child,
		exited,
		next,
		write(bytes) {
			child.stdin!.write(bytes);
		},
		async request(frame) {
			child.stdin!.write(`${JSON.stringify(frame)}\n`);
			return next();
		},
		async close() {
			child.stdin!.end();
			return exited;
		},
	};
}

/** `i --runtime worker NAME …` of the build under test. */
export function startOfficialWorker(t: TestContext, name: string, args: string[], options: {env: NodeJS.ProcessEnv; cwd?: string}): FrameWorker {
	return startWorker(t, [process.execPath, binPath, '--runtime', 'worker', name, ...args], options);
}

export interface Folders {
	root: string;
	workspace: string;
	config: string;
	data: string;
	cache: string;
	runtime: string;
	/** PATH and the four I_*_DIR, nothing else: as the pool runs a worker. */
	env: NodeJS.ProcessEnv;
	/** The four folders as a request's `paths`. */
	paths: {config_dir: string; data_dir: string; cache_dir: string; runtime_dir: string};
}

/** A temp root with a workspace and the four platform folders, removed after the test. */
export async function makeFolders(t: TestContext): Promise<Folders> {
	const root = await realpath(await mkdtemp(join(tmpdir(), 'i-workers-')));
	t.after(async () => {
		await Promise.all((running.get(t) ?? []).map(async stop => stop()));
		await rm(root, {recursive: true, force: true, maxRetries: 5});
	});
	const [workspace, config, data, cache, runtime] = ['workspace', 'config', 'data', 'cache', 'runtime'].map(name => join(root, name)) as [string, string, string, string, string];
	await Promise.all([workspace, config].map(async dir => mkdir(dir)));
	return {
		root,
		workspace,
		config,
		data,
		cache,
		runtime,
		env: {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: config, I_DATA_DIR: data, I_CACHE_DIR: cache, I_RUNTIME_DIR: runtime},
		paths: {config_dir: config, data_dir: data, cache_dir: cache, runtime_dir: runtime},
	};
}
