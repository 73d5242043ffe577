import {describeWorker, WorkerProcess} from './worker-process.js';
import type {ResourceFolders} from '../resources/resource-folders.js';
import {WorkerError, type RequestContext, type WorkerPool, type WorkerSpec} from './types.js';

/** spec/platform.md §2: each call, from serialisation to the answer. */
export const DEFAULT_CALL_TIMEOUT_MS = 15_000;

export interface WorkerPoolOptions {
	/**
	 * Sent at the top of every request frame (spec/platform.md §3). A promise while the
	 * workspace's ID is still being read: workers start at once, and calls
	 * wait for it (a call fails with its error).
	 */
	context: RequestContext | Promise<RequestContext>;
	/** Every worker's whole environment: see workerEnvironment(). */
	env: Record<string, string>;
	/** The stderr each worker keeps (the config's io_limit_bytes); the rest is drained and counted. */
	ioLimitBytes: number;
	/** Per call, unless the call sets its own; tests shorten it. */
	callTimeoutMs?: number;
	/** Stops what the workers use beyond their processes (sandboxed workers' domain proxies), once the workers are closed. */
	release?: (() => Promise<void>) | undefined;
}

/**
 * The resident worker pool (spec/platform.md §2): one process per (exec, cwd), started
 * by `start` or the first call and kept until it fails or the pool closes. A failed
 * worker is gone, its whole process group killed; nothing is retried, and
 * the next call to its spec starts a fresh one.
 *
 * What counts as a failure, decided from §2: a timeout, the process ending,
 * every protocol break, and also an error frame. §2 lists error frames with
 * the failures and says failures evict, and a worker that reports an error
 * may be in any state, so its next call gets a clean process. The exception
 * is a request over 48 MiB (or not serialisable): it fails before a byte is
 * written, the worker did nothing wrong and its stream is intact, so it stays.
 *
 * The process 'exit' event SIGKILLs every live worker group, so neither
 * process.exit nor a normal end leaves workers behind. An interrupt reaches a
 * running call through its signal, which stops that worker; the heads then
 * close the pool.
 */
export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
	const workers = new Map<string, WorkerProcess>();
	let context = options.context instanceof Promise ? undefined : options.context;
	/** Resources set while the context was still coming: they apply to it once it is here. */
	let pendingResources: {resources: ResourceFolders | undefined} | undefined;
	const contextReady =
		options.context instanceof Promise
			? options.context.then(value => {
					context = pendingResources ? {...value, resources: pendingResources.resources} : value;
				})
			: undefined;
	// A rejected context is reported by the calls that wait for it (and by whoever made the promise).
	contextReady?.catch(() => {});
	/** Every process not yet reaped, evicted ones finishing their last work included: closing waits for them, the exit kills them. */
	const alive = new Set<WorkerProcess>();
	let closing: Promise<void> | undefined;
	const killAll = () => {
		for (const worker of alive) worker.kill();
	};

	const workerFor = (spec: WorkerSpec): WorkerProcess => {
		const key = JSON.stringify([spec.exec, spec.cwd]);
		const running = workers.get(key);
		if (running !== undefined) return running;
		const started: WorkerProcess = new WorkerProcess({
			spec,
			// A worker writes frames only for calls, and calls wait for the context.
			context: () => context!,
			env: options.env,
			ioLimitBytes: options.ioLimitBytes,
			onEnd: () => {
				if (workers.get(key) === started) workers.delete(key);
			},
		});
		workers.set(key, started);
		alive.add(started);
		// Not awaited: the worker is forgotten whenever it exits; reaped never rejects.
		void started.reaped.then(() => alive.delete(started));
		return started;
	};

	process.on('exit', killAll);
	const pool: WorkerPool = {
		call(spec, event, data, callOptions) {
			if (closing) return Promise.reject(new WorkerError(`${describeWorker(spec)}: call "${event}" failed: the worker pool is closed`, 'spawn', 'the worker pool is closed'));
			if (context === undefined) return contextReady!.then(() => pool.call(spec, event, data, callOptions));
			return workerFor(spec).call(event, data, {
				timeoutMs: callOptions?.timeoutMs ?? options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
				...(callOptions?.signal ? {signal: callOptions.signal} : {}),
				...(callOptions?.module === undefined ? {} : {module: callOptions.module}),
				...(callOptions?.warn ? {warn: callOptions.warn} : {}),
			});
		},
		start(spec) {
			if (!closing) workerFor(spec);
		},
		setResources(resources) {
			if (context === undefined) pendingResources = {resources};
			else context = {...context, resources};
		},
		close() {
			if (closing === undefined) {
				process.off('exit', killAll);
				const all = [...alive];
				workers.clear();
				// Each close SIGKILLs its group at once, then waits for the process to be reaped.
				closing = Promise.all(all.map(worker => worker.close('the worker pool was closed'))).then(async () => options.release?.());
			}

			return closing;
		},
	};
	return pool;
}
