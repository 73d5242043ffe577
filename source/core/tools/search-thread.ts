import {Worker} from 'node:worker_threads';
import type {ScanPattern, ScanResult} from './search-scan.js';

/**
 * The search tool's second thread (search-worker.ts): started by the first
 * big search and kept, unref'd while idle, so later searches split their
 * files across two cores without paying a thread's start-up again.
 */

interface SearchThread {
	worker: Worker;
	next: number;
	waiting: Map<number, {resolve: (result: ScanResult) => void; reject: (error: Error) => void}>;
}

/** Started by the first big search and kept: a thread's start-up (tens of ms) would eat what it saves. */
let resident: SearchThread | null = null;

function searchThread(): SearchThread {
	if (resident) return resident;
	const worker = new Worker(new URL('search-worker.js', import.meta.url));
	const thread: SearchThread = {worker, next: 0, waiting: new Map()};
	const fail = (error: Error) => {
		if (resident === thread) resident = null;
		for (const waiter of thread.waiting.values()) waiter.reject(error);
		thread.waiting.clear();
	};

	worker.on('message', ({id, result}: {id: number; result: ScanResult}) => {
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

/** Scans `files` on the search thread. An abort stops the thread (the next big search starts another). */
export function scanInWorker(files: string[], pattern: ScanPattern, maxResults: number, signal: AbortSignal): {result: Promise<ScanResult>; stop: () => void} {
	const thread = searchThread();
	const id = thread.next++;
	const onAbort = () => void thread.worker.terminate();
	signal.addEventListener('abort', onAbort, {once: true});
	const result = new Promise<ScanResult>((resolve, reject) => {
		thread.waiting.set(id, {resolve, reject});
		thread.worker.ref();
		thread.worker.postMessage({id, files, pattern, maxResults});
	}).finally(() => signal.removeEventListener('abort', onAbort));
	// Never an unhandled rejection when the first half filled the results and nobody waits for this one.
	result.catch(() => {});
	return {result, stop: () => signal.removeEventListener('abort', onAbort)};
}
