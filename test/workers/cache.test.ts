import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {makeFolders, startOfficialWorker} from './frame-worker.js';
import {PREPARED_WRITE_DELAY_MS} from '../../workers/cache/cache.js';
import {beforeRequest, chatBody, hook, readStatsFile, registerWorkspace, statsFile, statsWhen} from './cache-helpers.js';

const history = [
	{role: 'system', content: 'You are i.'},
	{role: 'user', content: 'list the files'},
];

async function setup(t: Parameters<typeof makeFolders>[0], config?: Record<string, unknown>) {
	const folders = await makeFolders(t);
	if (config) await writeFile(join(folders.config, 'cache.json'), JSON.stringify(config));
	const id = await registerWorkspace(folders);
	const worker = startOfficialWorker(t, 'cache', [], {env: folders.env});
	return {folders, id, worker};
}

test('openai mode adds a stable 64-character prompt_cache_key and the retention; request_meta is merged', async t => {
	const {folders, id, worker} = await setup(t, {mode: 'openai', retention: '24h', namespace: 'my-workload'});
	const first = await hook(worker, id, 'before_request', beforeRequest(chatBody(history), {request_meta: {other: 1}}));
	assert.match(first.body.prompt_cache_key, /^[0-9a-f]{64}$/);
	assert.equal(first.body.prompt_cache_retention, '24h');
	assert.deepEqual({...first.body, prompt_cache_key: undefined, prompt_cache_retention: undefined}, {...chatBody(history), prompt_cache_key: undefined, prompt_cache_retention: undefined});
	assert.equal(first.request_meta.other, 1, 'an earlier hook’s request_meta survives');
	assert.equal(first.request_meta.cache.prediction, 'new');
	assert.match(first.request_meta.cache.id, /^[0-9a-f-]{36}$/);
	// Same namespace, workspace and model: the same key, also from another process.
	const second = await hook(worker, id, 'before_request', beforeRequest(chatBody(history)));
	assert.equal(second.body.prompt_cache_key, first.body.prompt_cache_key);
	const other = startOfficialWorker(t, 'cache', [], {env: folders.env});
	assert.equal((await hook(other, id, 'before_request', beforeRequest(chatBody(history)))).body.prompt_cache_key, first.body.prompt_cache_key);
	// Another model is another key.
	const model = await hook(worker, id, 'before_request', beforeRequest(chatBody(history), {model: 'n'}));
	assert.notEqual(model.body.prompt_cache_key, first.body.prompt_cache_key);
	// Fields already in the request are never overwritten.
	const own = await hook(worker, id, 'before_request', beforeRequest(chatBody(history, {prompt_cache_key: 'mine', prompt_cache_retention: 'in_memory'})));
	assert.equal(own.body.prompt_cache_key, 'mine');
	assert.equal(own.body.prompt_cache_retention, 'in_memory');
	await worker.close();
	await other.close();
	const stats = await readStatsFile(folders, id);
	assert.equal(stats.totals.requests, 5);
});

test('another namespace gives another key; without retention none is sent', async t => {
	const a = await setup(t, {mode: 'openai', namespace: 'a'});
	const keyA = (await hook(a.worker, a.id, 'before_request', beforeRequest(chatBody(history)))).body;
	assert.equal(keyA.prompt_cache_retention, undefined);
	await writeFile(join(a.folders.config, 'cache.json'), JSON.stringify({mode: 'openai', namespace: 'b'}));
	const fresh = startOfficialWorker(t, 'cache', [], {env: a.folders.env});
	const keyB = (await hook(fresh, a.id, 'before_request', beforeRequest(chatBody(history)))).body;
	assert.notEqual(keyA.prompt_cache_key, keyB.prompt_cache_key);
	assert.match(keyB.prompt_cache_key, /^[0-9a-f]{64}$/);
});

test('anthropic mode adds top-level ephemeral cache_control with the ttl, never over an existing one', async t => {
	const {id, worker} = await setup(t, {mode: 'anthropic', ttl: '1h'});
	const body = {model: 'm', system: 'You are i.', messages: [{role: 'user', content: 'hi'}], max_tokens: 100};
	const prepared = await hook(worker, id, 'before_request', beforeRequest(body, {protocol: 'anthropic'}));
	assert.equal(prepared.body.prompt_cache_key, undefined);
	assert.deepEqual(prepared.body, {cache_control: {type: 'ephemeral', ttl: '1h'}, ...body});
	const own = await hook(worker, id, 'before_request', beforeRequest({...body, cache_control: {type: 'ephemeral'}}, {protocol: 'anthropic'}));
	assert.deepEqual(own.body.cache_control, {type: 'ephemeral'});
	const {worker: plain, id: plainId} = await setup(t, {mode: 'anthropic'});
	assert.deepEqual((await hook(plain, plainId, 'before_request', beforeRequest(body, {protocol: 'anthropic'}))).body.cache_control, {type: 'ephemeral'});
});

test('observe mode (the default) adds nothing to the request but records it', async t => {
	const {folders, id, worker} = await setup(t);
	const data = beforeRequest(chatBody(history));
	const prepared = await hook(worker, id, 'before_request', data);
	assert.deepEqual(prepared.body, data.body);
	assert.equal(prepared.request_meta.cache.prediction, 'new');
	await worker.close();
	assert.equal((await readStatsFile(folders, id)).totals.requests, 1);
});

test('enabled: false does nothing at all: data unchanged, no stats written, no workspace needed', async t => {
	const {folders, id, worker} = await setup(t, {mode: 'openai', enabled: false});
	const data = beforeRequest(chatBody(history));
	assert.deepEqual(await hook(worker, id, 'before_request', data), data);
	const retry = {request_meta: null, attempt: 1, delay_ms: 0, reason: 'http 503', status: 503};
	assert.deepEqual(await hook(worker, id, 'request_retry', retry), retry);
	const response = {response: {protocol: 'openai', model: 'm', message: {role: 'assistant', content: 'x'}, finish_reason: 'stop', usage: {prompt_tokens: 5}}, request_meta: null};
	assert.deepEqual(await hook(worker, id, 'after_response', response), response);
	const noWorkspace = await worker.request({id: 99, event: 'before_request', data});
	assert.deepEqual(noWorkspace.data, data);
	await worker.close();
	assert.equal(existsSync(join(folders.data, 'workspaces', id)), false);
});

test('a stats path that is absolute or climbs out with .. is refused naming the file and the field', async t => {
	const folders = await makeFolders(t);
	const file = join(folders.config, 'cache.json');
	const id = await registerWorkspace(folders);
	const worker = startOfficialWorker(t, 'cache', [], {env: folders.env});
	const errorFor = async (config: Record<string, unknown>) => {
		await writeFile(file, JSON.stringify(config));
		const response = await worker.request({id: 1, event: 'before_request', workspace_id: id, data: beforeRequest(chatBody(history))});
		assert.equal(response.data, undefined);
		return String(response.error);
	};

	assert.equal(await errorFor({stats: '/tmp/stats.json'}), `cache config ${file}: field "stats": must be a path relative to the workspace state folder, not an absolute path`);
	assert.equal(await errorFor({stats: '../other/stats.json'}), `cache config ${file}: field "stats": may not contain a ".." segment: it must stay inside the workspace state folder`);
	assert.match(await errorFor({stats: 'metrics/../../x.json'}), /field "stats": may not contain a "\.\." segment/);
	assert.match(await errorFor({stats: 'C:\\stats.json'}), /field "stats": must be a path relative/);
	assert.equal(await errorFor({mode: 'anthropic', retention: '24h'}), `cache config ${file}: field "retention": applies only to mode "openai" (mode is "anthropic")`);
	assert.equal(await errorFor({mode: 'openai', ttl: '5m'}), `cache config ${file}: field "ttl": applies only to mode "anthropic" (mode is "openai")`);
	assert.match(await errorFor({mode: 'openai', retention: '1h'}), /field "retention"/);
	assert.match(await errorFor({mode: 'cached'}), /field "mode"/);
	assert.match(await errorFor({target_hit_ratio: 1.5}), /field "target_hit_ratio"/);
	assert.match(await errorFor({stat: 'x.json'}), /unknown field "stat"/);
	await worker.close();
	assert.equal(existsSync(join(folders.data, 'workspaces', id)), false, 'nothing written anywhere');
});

test('a relative stats path lands under the workspace state folder; without a workspace_id the worker says stats cannot be written', async t => {
	const {folders, id, worker} = await setup(t, {stats: 'deep/er/stats.json'});
	await hook(worker, id, 'before_request', beforeRequest(chatBody(history)));
	await statsWhen(folders, id, stats => stats.totals.requests === 1, 'deep/er/stats.json');
	assert.ok(existsSync(statsFile(folders, id, 'deep/er/stats.json')));
	const response = await worker.request({id: 7, event: 'before_request', data: beforeRequest(chatBody(history))});
	assert.match(String(response.error), /no workspace_id, so the cache statistics \("stats": "deep\/er\/stats.json", relative to the workspace state folder\) cannot be written/);
});

test('predictions: new, append, reset, compact; a retry counts another prepared request', async t => {
	const {folders, id, worker} = await setup(t, {mode: 'openai'});
	const tools = [{type: 'function', function: {name: 'read', description: 'Read files', parameters: {type: 'object'}}}];
	const predictionOf = async (messages: unknown[], extra: Record<string, unknown> = {tools}) =>
		(await hook(worker, id, 'before_request', beforeRequest(chatBody(messages, extra)))).request_meta.cache.prediction as string;
	const turn1 = [...history];
	const turn2 = [...turn1, {role: 'assistant', content: null, tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}}]}, {role: 'tool', tool_call_id: 'c1', content: 'a.txt'}];
	const turn3 = [...turn2, {role: 'assistant', content: 'a.txt'}, {role: 'user', content: 'and now?'}];
	assert.equal(await predictionOf(turn1), 'new');
	assert.equal(await predictionOf(turn2), 'append');
	assert.equal(await predictionOf(turn3), 'append');
	// The same request again (e.g. a resent turn) is still served whole by a cache.
	assert.equal(await predictionOf(turn3), 'append');
	// An earlier message changed: the provider cache breaks after it.
	const edited = turn3.map((message, index) => (index === 1 ? {role: 'user', content: 'list all files'} : message));
	assert.equal(await predictionOf(edited), 'reset');
	// Other tools change the prefix too.
	assert.equal(await predictionOf(edited, {tools: []}), 'reset');
	// Compaction: the system prompt, a summary, the recent messages.
	const summary = {role: 'user', content: 'Summary of the earlier conversation (it replaces those messages):\n\nlisted files'};
	const compacted = [edited[0], summary, ...edited.slice(-2)];
	assert.equal(await predictionOf(compacted, {tools: []}), 'compact');
	assert.equal(await predictionOf([...compacted, {role: 'assistant', content: 'ok'}, {role: 'user', content: 'go on'}], {tools: []}), 'append');
	// A shorter history without a summary also reads as compaction (dropped messages).
	assert.equal(await predictionOf([edited[0], {role: 'user', content: 'fresh'}], {tools: []}), 'compact');

	const prepared = await hook(worker, id, 'before_request', beforeRequest(chatBody(turn1, {tools})));
	assert.equal(prepared.request_meta.cache.prediction, 'reset');
	const retry = {request_meta: prepared.request_meta, attempt: 1, delay_ms: 0, reason: 'http 503', status: 503};
	assert.deepEqual(await hook(worker, id, 'request_retry', retry), retry, 'request_retry changes nothing');
	await hook(worker, id, 'request_retry', {...retry, attempt: 2});
	await worker.close();

	const stats = await readStatsFile(folders, id);
	assert.deepEqual(stats.totals.predictions, {new: 1, append: 4, compact: 2, reset: 3});
	assert.equal(stats.totals.requests, 10);
	assert.equal(stats.totals.prepared, 12);
	assert.equal(stats.records.at(-1).prepared, 3);
	// Hashes and counts only: no text of the prompt, the tools or the key material.
	const text = JSON.stringify(stats);
	for (const fragment of ['list the files', 'You are i', 'Read files', 'Summary of', 'a.txt']) assert.ok(!text.includes(fragment), `${fragment} is not stored`);
});

test('a corrupt stats file is an error naming it, never silently reset', async t => {
	const {folders, id, worker} = await setup(t);
	await hook(worker, id, 'before_request', beforeRequest(chatBody(history)));
	// Once the worker has written its stats, a person breaks the file: the next request reads it again and says so.
	await statsWhen(folders, id, stats => stats.totals.requests === 1);
	const file = statsFile(folders, id);
	await writeFile(file, '{"version":1,"totals":');
	const response = await worker.request({id: 5, event: 'before_request', workspace_id: id, data: beforeRequest(chatBody(history))});
	assert.match(String(response.error), new RegExp(`cache stats ${file.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is corrupt \\(not valid JSON`));
	await writeFile(file, JSON.stringify({version: 1, totals: {}, streams: [], records: []}));
	const shape = await worker.request({id: 6, event: 'before_request', workspace_id: id, data: beforeRequest(chatBody(history))});
	assert.match(String(shape.error), /is corrupt \(missing field "totals\.requests"\); it is never reset automatically/);
});

test('retention in_memory and ttl 5m are sent as configured; another ttl is refused naming the field', async t => {
	const memory = await setup(t, {mode: 'openai', retention: 'in_memory'});
	assert.equal((await hook(memory.worker, memory.id, 'before_request', beforeRequest(chatBody(history)))).body.prompt_cache_retention, 'in_memory');
	const body = {model: 'm', system: 'You are i.', messages: [{role: 'user', content: 'hi'}], max_tokens: 100};
	const short = await setup(t, {mode: 'anthropic', ttl: '5m'});
	assert.deepEqual((await hook(short.worker, short.id, 'before_request', beforeRequest(body, {protocol: 'anthropic'}))).body.cache_control, {type: 'ephemeral', ttl: '5m'});
	const wrong = await setup(t, {mode: 'anthropic', ttl: '2h'});
	const refused = await wrong.worker.request({id: 1, event: 'before_request', workspace_id: wrong.id, data: beforeRequest(body, {protocol: 'anthropic'})});
	assert.match(String(refused.error), /field "ttl"/);
});

test(`a prepared request waits at most ${PREPARED_WRITE_DELAY_MS} ms for its response before it is written, and EOF writes it at once`, async t => {
	// Its response comes within the delay: both are on disk.
	const answered = await setup(t);
	const prepared = await hook(answered.worker, answered.id, 'before_request', beforeRequest(chatBody(history)));
	// The prepared count waits a second for the response's write: a quarter of it later, nothing is on disk yet.
	await new Promise(resolve => setTimeout(resolve, PREPARED_WRITE_DELAY_MS / 4));
	assert.equal(existsSync(statsFile(answered.folders, answered.id)), false);
	const usage = {prompt_tokens: 10, completion_tokens: 2, total_tokens: 12};
	await hook(answered.worker, answered.id, 'after_response', {
		response: {protocol: 'openai', model: 'm', message: {role: 'assistant', content: 'ok'}, finish_reason: 'stop', usage},
		request_meta: prepared.request_meta,
	});
	const both = await statsWhen(answered.folders, answered.id, stats => stats.totals.observed === 1);
	assert.equal(both.totals.requests, 1);
	assert.equal(both.records[0].observed, true);

	// No response: the prepared request is written once the delay has passed, the worker still running.
	const waiting = await setup(t);
	await hook(waiting.worker, waiting.id, 'before_request', beforeRequest(chatBody(history)));
	const alone = await statsWhen(waiting.folders, waiting.id, stats => stats.totals.requests === 1);
	assert.deepEqual([alone.totals.prepared, alone.totals.observed, alone.records[0].observed], [1, 0, false]);

	// The core closes the pool right after the request: nothing is lost to the delay.
	const closed = await setup(t);
	await hook(closed.worker, closed.id, 'before_request', beforeRequest(chatBody(history)));
	const exit = await closed.worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	// The delay's timer keeps no worker alive: had EOF not run the write, there would be no file at all.
	assert.equal((await readStatsFile(closed.folders, closed.id)).totals.requests, 1);
});
