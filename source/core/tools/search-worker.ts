/**
 * The search tool's resident worker thread: it scans the second half of a
 * big search's files while the main thread scans the first, so two cores
 * read and match at once. It answers each request ({id, files, pattern,
 * maxResults}) with {id, result}, one at a time, and lives as long as the
 * process (it does not keep it alive).
 */
import {parentPort} from 'node:worker_threads';
import {scanFiles, type ScanPattern} from './search-scan.js';

interface ScanRequest {
	id: number;
	files: string[];
	pattern: ScanPattern;
	maxResults: number;
}

let queue = Promise.resolve();
parentPort!.on('message', (request: ScanRequest) => {
	queue = queue.then(async () => {
		const result = await scanFiles(request.files, request.pattern, request.maxResults, async () => {});
		parentPort!.postMessage({id: request.id, result});
	});
});
