import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {encodeFrame, FrameDecoder, type FrameError} from './frames.js';
import {arrayAt, readReuse, restoreArrays} from './prefix-reuse.js';
import {readResponse, type Response} from './response-frame.js';
import {ReuseSender} from './reuse-sender.js';
import {StderrTail} from './stderr-tail.js';
import {WorkerError, type RequestContext, type WorkerFailureKind, type WorkerSpec} from './types.js';
import {killGroup} from './kill-group.js';

/**
 * Once the worker has exited (or closed a pipe), how long to wait for the rest
 * of its stdout and stderr, which explain the end; a process that left the
 * group can hold them open.
 */
const END_DRAIN_MS = 500;
/** How long closing gives an idle worker, after EOF, to exit by itself before its group is killed. */
const CLOSE_GRACE_MS = 500;
/** How long closing waits for a killed worker to be reaped (SIGKILL cannot be caught). */
const REAP_WAIT_MS = 2000;

export interface WorkerProcessOptions {
	spec: WorkerSpec;
	/** Read as each frame is written: the pool's resources may change between calls (a reload). */
	context: () => RequestContext;
	env: Record<string, string>;
	ioLimitBytes: number;
	/** Called once, when the worker is evicted or ends: the pool forgets it. */
	onEnd: () => void;
}

interface Call {
	/** Given when the call's turn comes: IDs count up per worker, in the order requests are written. */
	id: number;
	event: string;
	/** Sent at the frame's top level when set (a host of several modules dispatches on it). */
	module: string | undefined;
	data: Record<string, unknown>;
	timeoutMs: number;
	resolve: (data: Record<string, unknown>) => void;
	reject: (error: WorkerError) => void;
	warn: ((message: string) => void) | undefined;
	timer?: NodeJS.Timeout;
	/** The request is still in the pipe's buffer: the worker has not read it all. */
	writing: boolean;
}

/** `worker ["python3","w.py"] in /x`: how every message names a worker. */
export function describeWorker(spec: WorkerSpec): string {
	return `worker ${JSON.stringify(spec.exec)} in ${spec.cwd}`;
}

/**
 * One resident NDJSON worker (spec/platform.md §2): a process in its own group, fed one
 * request at a time. Any failure ends it for good: the group is SIGKILLed and
 * the failing call and every queued one reject with the same WorkerError;
 * there is no retry. The one exception is a request that cannot be encoded
 * (over 48 MiB, not serialisable): nothing was written, the stream is
 * intact, so only that call fails. While idle, the process and its pipes do
 * not hold the event loop open.
 */
export class WorkerProcess {
	readonly #options: WorkerProcessOptions;
	readonly #name: string;
	readonly #child: ChildProcessWithoutNullStreams | undefined;
	readonly #decoder = new FrameDecoder();
	readonly #stderr: StderrTail;
	readonly #queue: Call[] = [];
	readonly #reaped: Promise<void>;
	/** Prefix reuse, when the worker's manifest entries opt in. */
	readonly #reuse: ReuseSender | undefined;
	#current: Call | undefined;
	#nextId = 1;
	#ended = false;
	#exit: {code: number | null; signal: NodeJS.Signals | null} | undefined;
	#stdoutEnded = false;
	#stderrEnded = false;
	#stdinError: string | undefined;
	#drainTimer: NodeJS.Timeout | undefined;

	constructor(options: WorkerProcessOptions) {
		this.#options = options;
		this.#name = describeWorker(options.spec);
		this.#stderr = new StderrTail(options.ioLimitBytes);
		this.#reuse = options.spec.prefixReuse === true ? new ReuseSender() : undefined;
		const [program, ...args] = options.spec.exec;
		let child: ChildProcessWithoutNullStreams | undefined;
		try {
			if (program === undefined) throw new Error('the exec argv is empty');
			// Never a shell: argv goes to the program as is. Its own group, so eviction reaches everything it started.
			// A sandboxed worker starts as bubblewrap's program (plugins/sandbox-workers.ts).
			const [file, ...rest] = options.spec.wrapper ? [...options.spec.wrapper, program, ...args] : [program, ...args];
			child = spawn(file!, rest, {cwd: options.spec.cwd, env: options.env, detached: true, stdio: 'pipe', windowsHide: true});
		} catch (error) {
			// Invalid arguments throw at once; report them like a failed start, once the first call is queued.
			const message = (error as Error).message;
			queueMicrotask(() => this.#fail('spawn', `could not start the worker: ${message}`));
		}

		this.#child = child;
		this.#reaped = child === undefined ? Promise.resolve() : new Promise(resolve => child.once('exit', () => resolve()));
		if (child) this.#watch(child);
	}

	/**
	 * Queues one call; it runs when the calls before it have ended. An abort
	 * drops a queued call, and stops the worker in the middle of a running
	 * one (the only way to stop what it is doing).
	 */
	call(event: string, data: Record<string, unknown>, options: {timeoutMs: number; signal?: AbortSignal; module?: string; warn?: (message: string) => void}): Promise<Record<string, unknown>> {
		const {timeoutMs, signal} = options;
		if (signal?.aborted) return Promise.reject(new WorkerError(`${this.#name}: call "${event}" was cancelled before it started`, 'aborted', 'the call was cancelled before it started'));
		return new Promise((resolve, reject) => {
			const onAbort = () => {
				if (this.#current === call) {
					this.#fail('aborted', 'the call was cancelled');
					return;
				}

				const index = this.#queue.indexOf(call);
				if (index !== -1) this.#queue.splice(index, 1);
				call.reject(new WorkerError(`${this.#name}: call "${event}" was cancelled before it started`, 'aborted', 'the call was cancelled before it started'));
			};

			const call: Call = {
				id: 0,
				event,
				module: options.module,
				data,
				timeoutMs,
				resolve(value) {
					signal?.removeEventListener('abort', onAbort);
					resolve(value);
				},
				reject(error) {
					signal?.removeEventListener('abort', onAbort);
					reject(error);
				},
				writing: false,
				warn: options.warn,
			};
			signal?.addEventListener('abort', onAbort, {once: true});
			this.#queue.push(call);
			this.#next();
		});
	}

	/**
	 * Ends the worker (pending calls fail, kind 'exit') and waits, briefly,
	 * until it is reaped. An idle worker first gets EOF and a moment to finish
	 * what its last answer left to do (a statistics write) and exit by itself;
	 * a busy one, or one that lingers, has its group killed.
	 */
	async close(reason: string): Promise<void> {
		const child = this.#child;
		if (child?.pid !== undefined && !this.#ended && this.#exit === undefined && this.#current === undefined && this.#queue.length === 0) {
			this.#hold(true);
			child.stdin.end();
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([this.#reaped, new Promise(resolve => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
			clearTimeout(timer);
		}

		this.#fail('exit', reason);
		if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
		let timer: NodeJS.Timeout | undefined;
		await Promise.race([this.#reaped, new Promise(resolve => (timer = setTimeout(resolve, REAP_WAIT_MS)))]);
		clearTimeout(timer);
	}

	/** SIGKILLs the group now, synchronously: for the process 'exit' event, when nothing asynchronous runs any more. */
	kill(): void {
		// Once the worker has exited, its exit took the group (#watch): the pid may since name another process.
		if (this.#exit === undefined) this.#killGroup();
	}

	/** Resolves once the process is gone (at once when it never started). */
	get reaped(): Promise<void> {
		return this.#reaped;
	}

	#watch(child: ChildProcessWithoutNullStreams): void {
		child.once('error', error => {
			this.#fail(child.pid === undefined ? 'spawn' : 'exit', child.pid === undefined ? `could not start the worker: ${error.message}` : error.message);
		});
		child.once('exit', (code, signal) => {
			this.#exit = {code, signal};
			// However it went (its own end, an eviction's grace, a kill), whatever it started goes with it.
			this.#killGroup();
			this.#ending();
		});
		child.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
		child.stdout.once('end', () => {
			this.#stdoutEnded = true;
			this.#ending();
		});
		child.stderr.on('data', (chunk: Buffer) => this.#stderr.push(chunk));
		child.stderr.once('end', () => {
			this.#stderrEnded = true;
			this.#ending();
		});
		// EPIPE: the worker closed its stdin or died; the 'exit' that follows says which.
		child.stdin.on('error', error => {
			this.#stdinError = (error as NodeJS.ErrnoException).code ?? error.message;
			this.#ending();
		});
		// Read errors on a pipe end it; 'end' or 'exit' report that.
		child.stdout.on('error', () => {});
		child.stderr.on('error', () => {});
	}

	#next(): void {
		if (this.#current !== undefined || this.#ended) return;
		const call = this.#queue.shift();
		if (call === undefined) {
			this.#hold(false);
			return;
		}

		this.#current = call;
		call.id = this.#nextId;
		this.#hold(true);
		// spec/platform.md §2: the limit covers serialisation, the write and the wait, so it starts first.
		call.timer = setTimeout(() => this.#timedOut(call), call.timeoutMs);
		const context = this.#options.context();
		const {config_dir, data_dir, cache_dir, runtime_dir} = context.paths;
		let frame: Buffer;
		let commit: (() => void) | undefined;
		try {
			const header = {
				id: call.id,
				event: call.event,
				...(call.module === undefined ? {} : {module: call.module}),
				workspace: context.workspace,
				workspace_id: context.workspace_id,
				paths: {config_dir, data_dir, cache_dir, runtime_dir},
				...(context.resources === undefined ? {} : {resources: context.resources}),
			};
			if (this.#reuse) {
				const prepared = this.#reuse.prepare(call.data);
				commit = prepared.commit;
				frame = encodeFrame({...header, data: prepared.data, reuse: prepared.reuse});
			} else {
				frame = encodeFrame({...header, data: call.data});
			}
		} catch (error) {
			// Nothing was written: the worker and its stream are untouched, so it stays.
			clearTimeout(call.timer);
			this.#current = undefined;
			const reason = `the request cannot be sent: ${(error as Error).message}`;
			call.reject(new WorkerError(`${this.#name}: call "${call.event}" failed: ${reason}`, 'protocol', reason));
			this.#next();
			return;
		}

		this.#nextId++;
		commit?.();
		// A failed start (an invalid argv) fails this call from its microtask.
		const stdin = this.#child?.stdin;
		if (stdin === undefined) return;
		if (!stdin.write(frame)) {
			call.writing = true;
			stdin.once('drain', () => (call.writing = false));
		}
	}

	#read(chunk: Buffer): void {
		if (this.#ended) return;
		let frames: string[];
		try {
			frames = this.#decoder.push(chunk);
		} catch (error) {
			this.#fail('protocol', `the worker broke the protocol: it wrote ${(error as FrameError).message}`);
			return;
		}

		// The next request goes out after the whole chunk: a second frame in it cannot answer a request not yet written.
		for (const text of frames) {
			const call = this.#current;
			let response: Response;
			try {
				response = readResponse(text, call?.id);
			} catch (error) {
				this.#fail('protocol', `the worker broke the protocol: it ${(error as FrameError).message}`);
				return;
			}

			if ('error' in response) {
				this.#fail('error', `the worker answered with an error: ${response.error}`, response.error);
				return;
			}

			// readResponse threw if no call was pending.
			if (this.#reuse && response.reuse !== undefined) {
				try {
					restoreArrays(response.data, readReuse(response.reuse), pointer => arrayAt(call!.data, pointer));
				} catch (error) {
					this.#fail('protocol', `the worker broke the protocol: its answer's ${(error as FrameError).message}`);
					return;
				}
			}

			clearTimeout(call!.timer);
			this.#current = undefined;
			for (const warning of response.warnings ?? []) call!.warn?.(warning);
			call!.resolve(response.data);
		}

		this.#next();
	}

	#timedOut(call: Call): void {
		if (this.#current !== call) return;
		const limit = call.timeoutMs % 1000 === 0 ? `${call.timeoutMs / 1000} s` : `${call.timeoutMs} ms`;
		this.#fail('timeout', `timed out after ${limit} ${call.writing ? 'writing the request (the worker did not read it)' : 'waiting for the answer'}`);
	}

	/**
	 * The worker exited or closed a pipe: it cannot go on. During a call its
	 * last output may still be on the way (an answer, the reason on stderr), so
	 * the end is reported once both pipes are drained, or after a short grace.
	 * Idle, it leaves the pool at once: the next call starts a fresh worker.
	 */
	#ending(): void {
		if (this.#ended) return;
		if (this.#current === undefined || (this.#exit !== undefined && this.#stdoutEnded && this.#stderrEnded)) {
			this.#failEnded();
			return;
		}

		this.#drainTimer ??= setTimeout(() => this.#failEnded(), END_DRAIN_MS).unref();
	}

	#failEnded(): void {
		if (this.#stdoutEnded && this.#decoder.pendingBytes > 0) {
			this.#fail('protocol', `the worker broke the protocol: its output ended inside a frame (${this.#decoder.pendingBytes} bytes without a newline)`);
		} else if (this.#exit !== undefined) {
			const {code, signal} = this.#exit;
			this.#fail('exit', `the worker ${code === null ? `was killed by ${signal}` : `exited with code ${code}`}${this.#current ? ' before answering' : ''}`);
		} else if (this.#stdoutEnded) {
			this.#fail('exit', 'the worker closed its stdout');
		} else {
			this.#fail('exit', `the worker stopped reading its stdin (${this.#stdinError})`);
		}
	}

	/** The one way a worker ends: kill its group, fail what is pending, leave the pool. */
	/** `said`: an error frame's own message, which is the whole reason; the worker's restart is the pool's business. */
	#fail(kind: WorkerFailureKind, detail: string, said?: string): void {
		if (this.#ended) return;
		this.#ended = true;
		clearTimeout(this.#drainTimer);
		const call = this.#current;
		clearTimeout(call?.timer);
		this.#current = undefined;
		const child = this.#child;
		if (child) {
			if (this.#exit === undefined) {
				// An error frame left the stream intact: the worker gets EOF and a moment to finish what earlier
				// answers left to do (another module's statistics write, in the official host) before its group
				// is killed. Any other failure kills it now.
				if (kind === 'error') setTimeout(() => this.kill(), CLOSE_GRACE_MS).unref();
				else this.#killGroup();
			}

			child.stdin.destroy();
			child.stdout.destroy();
			child.stderr.destroy();
			child.unref();
		}

		const pending = [...(call ? [call] : []), ...this.#queue.splice(0)];
		if (pending.length > 0) {
			// Queued calls were never sent; they share the error that ended the worker.
			const stopped = kind === 'timeout' || kind === 'protocol' || kind === 'error' || kind === 'aborted' ? '; the worker was stopped' : '';
			// An error frame is the worker's own explanation; anything else may be explained on stderr.
			const stderr = kind === 'error' ? '' : this.#stderr.describe();
			const verb = kind === 'timeout' ? '' : 'failed: ';
			const whole = `${detail}${stopped}${stderr}`;
			const error = new WorkerError(`${this.#name}: call "${pending[0]!.event}" ${verb}${whole}`, kind, said ?? whole);
			for (const each of pending) each.reject(error);
		}

		this.#options.onEnd();
	}

	/** The one place the group is killed: eviction, an error's grace, the host's exit, and the worker's own exit. */
	#killGroup(): void {
		killGroup(this.#child?.pid);
	}

	/** Holds the event loop open during a call only: an idle pool never keeps the process alive. */
	#hold(on: boolean): void {
		const child = this.#child;
		if (child === undefined) return;
		for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as {ref(): void; unref(): void}[]) {
			if (on) handle.ref();
			else handle.unref();
		}
	}
}
