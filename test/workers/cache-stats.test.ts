import assert from 'node:assert/strict';
import {test} from 'node:test';
import {makeFolders, startOfficialWorker} from './frame-worker.js';
import {beforeRequest, chatBody, hook, readStatsFile, registerWorkspace, roundTrip, statsWhen} from './cache-helpers.js';

test('eight worker processes updating one stats file lose no count', async t => {
	const folders = await makeFolders(t);
	const id = await registerWorkspace(folders);
	const processes = 8;
	const perProcess = 15;
	const workers = Array.from({length: processes}, () => startOfficialWorker(t, 'cache', [], {env: folders.env}));
	const exits = await Promise.all(
		workers.map(async (worker, n) => {
			for (let index = 0; index < perProcess; index++) {
				// Process n reports n+1 cached tokens of 100 each time, so every sum is known exactly.
				await roundTrip(worker, id, chatBody([{role: 'user', content: `p${n} r${index}`}]), {prompt_tokens: 100, prompt_tokens_details: {cached_tokens: n + 1}}, 'openai', `model-${n}`);
			}

			return worker.close();
		}),
	);
	// A write that failed (a lock not taken in time, say) exits 1 and says why: named here, not left to a count.
	assert.deepEqual(
		exits.map(exit => [exit.code, exit.stderr]),
		exits.map(() => [0, '']),
	);
	const stats = await readStatsFile(folders, id);
	const total = processes * perProcess;
	assert.equal(stats.totals.requests, total);
	assert.equal(stats.totals.prepared, total);
	assert.equal(stats.totals.observed, total);
	assert.equal(stats.totals.input_tokens, 100 * total);
	assert.equal(stats.totals.cache_read_tokens, perProcess * ((processes * (processes + 1)) / 2));
	assert.equal(stats.totals.predictions.new, processes);
	assert.equal(stats.totals.predictions.reset, total - processes);
	assert.equal(stats.records.length, total);
	assert.equal(stats.streams.length, processes);
});

test('the last 200 records and the 256 most recently used streams are kept, at the limit and one past; totals are kept', async t => {
	const folders = await makeFolders(t);
	const id = await registerWorkspace(folders);
	const worker = startOfficialWorker(t, 'cache', [], {env: folders.env});
	const body = chatBody([{role: 'user', content: 'same'}]);
	const send = async (n: number) => (await hook(worker, id, 'before_request', beforeRequest(body, {model: `model-${n}`}))).request_meta.cache as {prediction: string; stream: string};
	const first = await send(0);
	for (let n = 1; n < 200; n++) await send(n);
	const sent = (count: number) => async () => statsWhen(folders, id, stats => stats.totals.requests === count);
	let stats = await sent(200)();
	assert.equal(stats.records.length, 200);
	assert.equal(stats.records[0].model, 'model-0');
	await send(200);
	stats = await sent(201)();
	assert.equal(stats.records.length, 200, 'one past: the oldest record goes');
	assert.equal(stats.records[0].model, 'model-1');
	assert.equal(stats.records.at(-1).model, 'model-200');

	for (let n = 201; n < 256; n++) await send(n);
	stats = await sent(256)();
	assert.equal(stats.streams.length, 256);
	assert.equal(stats.streams[0].key, first.stream, 'at the limit the first stream is still kept');
	await send(256);
	stats = await sent(257)();
	assert.equal(stats.streams.length, 256, 'one past: the least recently used stream goes');
	assert.ok(!stats.streams.some((stream: {key: string}) => stream.key === first.stream));
	// model-1's stream is still known, model-0's was forgotten.
	assert.equal((await send(1)).prediction, 'append');
	assert.equal((await send(0)).prediction, 'new');
	await worker.close();
	stats = await readStatsFile(folders, id);
	assert.equal(stats.totals.requests, 259);
	assert.deepEqual(stats.totals.predictions, {new: 258, append: 1, compact: 0, reset: 0});
});
