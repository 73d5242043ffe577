import assert from 'node:assert/strict';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {makeFolders, startOfficialWorker, type FrameWorker} from './frame-worker.js';

const tools = {
	tools: [{type: 'function', function: {name: 'read', parameters: {type: 'object'}}}],
	tool_choice: 'auto',
	parallel_tool_calls: true,
};

/** The workspace ID every request of the core carries: the smoke policy's cache observation lives in its state folder. */
const workspaceId = '00000000-0000-4000-8000-000000000001';

async function prepare(worker: FrameWorker, protocol: string, body: Record<string, unknown>) {
	const data = {url: 'https://api.example.test/v1/x', protocol, model: 'm', body};
	const response = await worker.request({id: 1, event: 'before_request', workspace_id: workspaceId, data});
	assert.ok(response.data, response.error);
	// The only other change: the cache record's ID, for after_response.
	assert.deepEqual({...response.data, body: undefined, request_meta: undefined}, {...data, body: undefined, request_meta: undefined});
	assert.deepEqual(Object.keys(response.data.request_meta), ['smoke_cache']);
	return response.data.body as Record<string, unknown>;
}

test("smoke removes the tools and caps output at 32 tokens in each protocol's own field", async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'smoke', [], {env: folders.env});
	const messages = [{role: 'user', content: 'ping'}];
	assert.deepEqual(await prepare(worker, 'openai', {model: 'm', messages, ...tools}), {model: 'm', messages, max_completion_tokens: 32});
	assert.deepEqual(await prepare(worker, 'deepseek', {model: 'm', messages, ...tools, max_tokens: 4096}), {model: 'm', messages, max_tokens: 32});
	assert.deepEqual(await prepare(worker, 'anthropic', {model: 'm', messages, ...tools, max_tokens: 8192, system: 's'}), {
		model: 'm',
		messages,
		max_tokens: 32,
		system: 's',
	});
	assert.deepEqual(await prepare(worker, 'responses', {model: 'm', input: [], ...tools, max_output_tokens: 100}), {model: 'm', input: [], max_output_tokens: 32});
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	assert.equal(exit.stderr, '');
});

test('smoke lowers a larger cap but never raises a smaller one; openai with max_tokens keeps that field', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'smoke', [], {env: folders.env});
	assert.deepEqual(await prepare(worker, 'anthropic', {max_tokens: 10}), {max_tokens: 10});
	assert.deepEqual(await prepare(worker, 'responses', {max_output_tokens: 32}), {max_output_tokens: 32});
	assert.deepEqual(await prepare(worker, 'openai', {max_completion_tokens: 33}), {max_completion_tokens: 32});
	assert.deepEqual(await prepare(worker, 'openai', {max_tokens: 500}), {max_tokens: 32});
	assert.deepEqual(await prepare(worker, 'openai', {max_tokens: 5}), {max_tokens: 5});
	assert.deepEqual(await prepare(worker, 'deepseek', {max_tokens: 'lots'}), {max_tokens: 32});
	const unknown = await worker.request({id: 2, event: 'before_request', workspace_id: workspaceId, data: {url: 'u', protocol: 'gemini', model: 'm', body: {}}});
	assert.equal(unknown.error, 'smoke policy: unknown protocol "gemini"; it caps output for openai, deepseek, anthropic, responses');
	await worker.close();
});

test('smoke --output-cap accepts 1 and 1024, refuses 0, 1025 and non-numbers (exit 2)', async t => {
	const folders = await makeFolders(t);
	for (const cap of [1, 1024]) {
		const worker = startOfficialWorker(t, 'smoke', ['--output-cap', String(cap)], {env: folders.env});
		assert.deepEqual(await prepare(worker, 'deepseek', {max_tokens: 4096}), {max_tokens: cap});
		assert.deepEqual(await prepare(worker, 'anthropic', {max_tokens: 2}), {max_tokens: Math.min(2, cap)});
		await worker.close();
	}

	for (const cap of ['0', '1025', '-1', '3.5', 'ten', '']) {
		const exit = await startOfficialWorker(t, 'smoke', [`--output-cap=${cap}`], {env: folders.env}).close();
		assert.equal(exit.code, 2, cap);
		assert.equal(exit.stderr, `i: worker smoke: --output-cap must be a whole number of tokens from 1 to 1024 (got "${cap}")\n`);
		assert.deepEqual(exit.frames, []);
	}
});

test('smoke.json sets the cap; --output-cap wins over it', async t => {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'smoke.json'), JSON.stringify({output_cap: 1024}));
	const configured = startOfficialWorker(t, 'smoke', [], {env: folders.env});
	assert.deepEqual(await prepare(configured, 'responses', {}), {max_output_tokens: 1024});
	await configured.close();
	const flagged = startOfficialWorker(t, 'smoke', ['--output-cap', '7'], {env: folders.env});
	assert.deepEqual(await prepare(flagged, 'responses', {}), {max_output_tokens: 7});
	await flagged.close();

	await writeFile(join(folders.config, 'smoke.json'), JSON.stringify({output_cap: 1025}));
	const invalid = startOfficialWorker(t, 'smoke', [], {env: folders.env});
	const response = await invalid.request({id: 1, event: 'before_request', workspace_id: workspaceId, data: {url: 'u', protocol: 'openai', model: 'm', body: {}}});
	assert.match(response.error, new RegExp(`^smoke config ${join(folders.config, 'smoke.json')}: field "output_cap": `));
	await invalid.close();
});

test('smoke refuses a response with tool calls and passes one without', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'smoke', [], {env: folders.env});
	const refusal = 'smoke policy: the model returned tool calls, which this policy refuses';
	const respond = (message: Record<string, unknown>) =>
		worker.request({id: 9, event: 'after_response', workspace_id: workspaceId, data: {response: {protocol: 'openai', message, finishReason: 'stop'}, request_meta: {attempt: 1}}});

	const plain = {role: 'assistant', content: 'pong'};
	assert.deepEqual(await respond(plain), {id: 9, data: {response: {protocol: 'openai', message: plain, finishReason: 'stop'}, request_meta: {attempt: 1}}});
	assert.deepEqual((await respond({...plain, tool_calls: []})).data.response.message.tool_calls, []);
	const call = {id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}};
	assert.deepEqual(await respond({role: 'assistant', content: null, tool_calls: [call]}), {id: 9, error: refusal});
	assert.deepEqual(await respond({...plain, _anthropic_content: [{type: 'tool_use', id: 't', name: 'read', input: {}}]}), {id: 9, error: refusal});
	assert.deepEqual(await respond({...plain, _responses_output: [{type: 'function_call', name: 'read', arguments: '{}'}]}), {id: 9, error: refusal});
	const malformed = await worker.request({id: 10, event: 'after_response', data: {response: 'text'}});
	assert.equal(malformed.error, 'smoke policy: after_response data needs "response.message" (an object)');
	await worker.close();
});

test('smoke observes the cache into metrics/smoke-cache.json of the workspace state folder, counting a refused reply and each retry', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'smoke', [], {env: folders.env});
	const body = {model: 'm', messages: [{role: 'user', content: 'ping'}]};
	const prepared = await worker.request({id: 1, event: 'before_request', workspace_id: workspaceId, data: {url: 'u', protocol: 'deepseek', model: 'm', body}});
	const meta = prepared.data.request_meta;
	// Observe only: no provider cache field was added.
	assert.deepEqual(prepared.data.body, {...body, max_tokens: 32});
	const retry = await worker.request({id: 2, event: 'request_retry', workspace_id: workspaceId, data: {request_meta: meta, attempt: 1}});
	assert.ok(retry.data, retry.error);
	const call = {id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}};
	const usage = {prompt_tokens: 100, completion_tokens: 3, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36};
	const refused = await worker.request({
		id: 3,
		event: 'after_response',
		workspace_id: workspaceId,
		data: {response: {protocol: 'deepseek', model: 'm', message: {role: 'assistant', content: null, tool_calls: [call]}, usage}, request_meta: meta},
	});
	assert.equal(refused.error, 'smoke policy: the model returned tool calls, which this policy refuses');
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	const path = join(folders.data, 'workspaces', workspaceId, 'metrics', 'smoke-cache.json');
	const stats = JSON.parse(await readFile(path, 'utf8'));
	assert.deepEqual({...stats.totals, predictions: undefined}, {requests: 1, prepared: 2, observed: 1, unknown_usage: 0, input_tokens: 100, cache_read_tokens: 64, cache_write_tokens: 0, predictions: undefined});
	assert.equal(stats.records.length, 1);
	assert.equal(stats.records[0].prediction, 'new');
	// The cache module's own file is not the smoke policy's.
	await assert.rejects(readFile(join(folders.data, 'workspaces', workspaceId, 'metrics', 'cache-stats.json')), {code: 'ENOENT'});
});

test('smoke-thinking caps output at 1024 and still removes tools and refuses tool calls', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'smoke-thinking', [], {env: folders.env});
	const messages = [{role: 'user', content: 'look'}];
	assert.deepEqual(await prepare(worker, 'deepseek', {model: 'm', messages, ...tools, max_tokens: 8192}), {model: 'm', messages, max_tokens: 1024});
	assert.deepEqual(await prepare(worker, 'anthropic', {max_tokens: 300}), {max_tokens: 300});
	const call = {id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}};
	const refused = await worker.request({id: 4, event: 'after_response', workspace_id: workspaceId, data: {response: {protocol: 'deepseek', message: {role: 'assistant', content: null, tool_calls: [call]}}}});
	assert.equal(refused.error, 'smoke policy: the model returned tool calls, which this policy refuses');
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	const capped = await startOfficialWorker(t, 'smoke-thinking', ['--output-cap', '5'], {env: folders.env}).close();
	assert.equal(capped.code, 2);
	assert.equal(capped.stderr, 'i: worker smoke-thinking: its output cap is 1024, fixed; for another one run the smoke worker with --output-cap N\n');
});
