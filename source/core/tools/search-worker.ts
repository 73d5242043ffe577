/**
 * The search tool's resident worker thread: it scans the second half of a
 * big search's files while the main thread scans the first, so two cores
 * read and match at once. It answers each request ({id, files, pattern,
 * maxResults, cancel}) with {id, result}, one at a time (result null when
 * it was cancelled), and lives as long as the process (it does not keep it
 * alive).
 */
import {parentPort} from 'node:worker_threads';
import {scanFiles, type ScanPattern} from './search-scan.js';

interface ScanRequest {
	id: number;
	files: string[];
	pattern: ScanPattern;
	maxResults: number;
	/** Set to 1 by the main thread when nobody wants the result any more: the scan stops at its next pause. */
	cancel: Int32Array;
}

class Cancelled extends Error {}

let queue = Promise.resolve();
parentPort!.on('message', (request: ScanRequest) => {
	queue = queue.then(async () => {
		const pause = async () => {
			if (Atomics.load(request.cancel, 0) !== 0) throw new Cancelled();
		};

		try {
			parentPort!.postMessage({id: request.id, result: await scanFiles(request.files, request.pattern, request.maxResults, pause)});
		} catch (error) {
			if (!(error instanceof Cancelled)) throw error;
			parentPort!.postMessage({id: request.id, result: null});
		}
	});
});
