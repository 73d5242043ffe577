import {createRequire} from 'node:module';
import type {Worker} from 'node:worker_threads';
import type {ScanPattern, ScanResult} from './search-scan.js';

// node:worker_threads at the first big search, not when the tools are made: every run makes them, few search.
const require = createRequire(import.meta.url);

/**
 * The search tool's second thread (search-worker.ts): started by the first
 * big search and kept, unref'd while idle, so later searches split their
 * files across two cores without paying a thread's start-up again.
 */

interface SearchThread {
	worker: Worker;
	next: number;
	waiting: Map<number, {resolve: (result: ScanResult | null) => void; reject: (error: Error) => void}>;
}

/** Started by the first big search and kept: a thread's start-up (tens of ms) would eat what it saves. */
let resident: SearchThread | null = null;

function searchThread(): SearchThread {
	if (resident) return resident;
	const {Worker} = require('node:worker_threads') as typeof import('node:worker_threads');
	const worker: Worker = new Worker(new URL('search-worker.js', import.meta.url));
	const thread: SearchThread = {worker, next: 0, waiting: new Map()};
	const fail = (error: Error) => {
		if (resident === thread) resident = null;
		for (const waiter of thread.waiting.values()) waiter.reject(error);
		thread.waiting.clear();
	};

	worker.on('message', ({id, result}: {id: number; result: ScanResult | null}) => {
		thread.waiting.get(id)?.resolve(result);
		thread.waiting.delete(id);
		if (thread.waiting.size === 0) worker.unref();
	});
	worker.on('error', fail);
	worker.on('exit', code => fail(new Error(`the search worker thread ended (${code})`)));
	// Idle, it must not keep the process alive (a pending scan refs it); after the listeners, which ref it again.
	worker.unref();
	resident = thread;
	return thread;
}

/**
 * Scans `files` on the search thread. `stop` (nobody wants the result any
 * more) and an abort both cancel the scan: it ends at its next pause, and
 * the thread stays for the next search. A cancelled scan resolves with null.
 */
export function scanInWorker(files: string[], pattern: ScanPattern, maxResults: number, signal: AbortSignal): {result: Promise<ScanResult | null>; stop: () => void} {
	const thread = searchThread();
	const id = thread.next++;
	const cancel = new Int32Array(new SharedArrayBuffer(4));
	const stop = () => {
		Atomics.store(cancel, 0, 1);
		signal.removeEventListener('abort', stop);
	};

	if (signal.aborted) stop();
	else signal.addEventListener('abort', stop, {once: true});
	const result = new Promise<ScanResult | null>((resolve, reject) => {
		thread.waiting.set(id, {resolve, reject});
		thread.worker.ref();
		thread.worker.postMessage({id, files, pattern, maxResults, cancel});
	}).finally(() => signal.removeEventListener('abort', stop));
	// Never an unhandled rejection when the first half filled the results and nobody waits for this one.
	result.catch(() => {});
	return {result, stop};
}
