import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {runCli} from '../helpers/cli.js';
import {makeFolders, startOfficialWorker, type Folders} from '../workers/frame-worker.js';
import {beforeRequest, chatBody, hook, registerWorkspace, roundTrip, statsFile} from '../workers/cache-helpers.js';

async function report(folders: Folders, extra: string[] = []) {
	const run = await runCli(['--runtime', 'cache-report', '-C', folders.workspace, '--json', ...extra], {env: folders.env, cwd: folders.root});
	assert.equal(run.code, 0, run.stderr);
	return JSON.parse(run.stdout) as Record<string, any>;
}

async function start(t: TestContext, config: Record<string, unknown> = {}) {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'cache.json'), JSON.stringify(config));
	const id = await registerWorkspace(folders);
	return {folders, id, worker: startOfficialWorker(t, 'cache', [], {env: folders.env})};
}

const body = chatBody([{role: 'user', content: 'hi'}]);

/** Each provider's raw usage objects and the figures worked out by hand from its accounting (spec/platform.md §8). */
const cases = [
	{
		name: 'OpenAI Chat: cached_tokens is part of prompt_tokens',
		protocol: 'openai',
		usages: [
			{prompt_tokens: 2000, completion_tokens: 10, prompt_tokens_details: {cached_tokens: 0}},
			{prompt_tokens: 2100, completion_tokens: 10, prompt_tokens_details: {cached_tokens: 1920}},
		],
		// (0 + 1920) / (2000 + 2100)
		expected: {input_tokens: 4100, cache_read_tokens: 1920, cache_write_tokens: 0, ratio: 1920 / 4100},
	},
	{
		name: 'Responses: input_tokens_details.cached_tokens is part of input_tokens',
		protocol: 'responses',
		usages: [
			{input_tokens: 1500, output_tokens: 5, input_tokens_details: {cached_tokens: 1024}},
			{input_tokens: 1600, output_tokens: 5, input_tokens_details: {cached_tokens: 1536}},
		],
		expected: {input_tokens: 3100, cache_read_tokens: 2560, cache_write_tokens: 0, ratio: 2560 / 3100},
	},
	{
		name: 'Anthropic: input + cache read + cache creation; creation is not a hit',
		protocol: 'anthropic',
		usages: [
			{input_tokens: 100, cache_creation_input_tokens: 3000, cache_read_input_tokens: 0, output_tokens: 5},
			{input_tokens: 50, cache_creation_input_tokens: 200, cache_read_input_tokens: 3000, output_tokens: 5},
		],
		// (0 + 3000) / (3100 + 3250)
		expected: {input_tokens: 6350, cache_read_tokens: 3000, cache_write_tokens: 3200, ratio: 3000 / 6350},
	},
	{
		name: 'DeepSeek: hit and miss partition the input',
		protocol: 'deepseek',
		usages: [
			{prompt_tokens: 1000, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 1000, completion_tokens: 3},
			{prompt_tokens: 1300, prompt_cache_hit_tokens: 960, prompt_cache_miss_tokens: 340, completion_tokens: 3},
		],
		expected: {input_tokens: 2300, cache_read_tokens: 960, cache_write_tokens: 0, ratio: 960 / 2300},
	},
];

for (const {name, protocol, usages, expected} of cases) {
	test(`cache-report accounting, ${name}`, async t => {
		const {folders, id, worker} = await start(t, {target_hit_ratio: 0.4});
		for (const usage of usages) await roundTrip(worker, id, body, usage, protocol);
		await worker.close();
		const figures = await report(folders);
		assert.equal(figures.observed_token_hit_ratio, expected.ratio);
		assert.equal(figures.input_tokens, expected.input_tokens);
		assert.equal(figures.cache_read_tokens, expected.cache_read_tokens);
		assert.equal(figures.cache_write_tokens, expected.cache_write_tokens);
		assert.equal(figures.requests, 2);
		assert.equal(figures.observed, 2);
		assert.equal(figures.target_hit_ratio, 0.4);
		assert.equal(figures.target_met, expected.ratio >= 0.4);
	});
}

test('cache-report over mixed providers sums each one’s accounting; the plain report shows the same figures', async t => {
	const {folders, id, worker} = await start(t);
	for (const {protocol, usages} of cases) for (const usage of usages) await roundTrip(worker, id, body, usage, protocol);
	await worker.close();
	const figures = await report(folders);
	const input = 4100 + 3100 + 6350 + 2300;
	const read = 1920 + 2560 + 3000 + 960;
	assert.equal(figures.input_tokens, input);
	assert.equal(figures.cache_read_tokens, read);
	assert.equal(figures.observed_token_hit_ratio, read / input);
	assert.equal(figures.target_hit_ratio, 0.99);
	assert.equal(figures.target_met, false);
	const plain = await runCli(['--runtime', 'cache-report', '-C', folders.workspace], {env: folders.env});
	assert.equal(plain.code, 0, plain.stderr);
	assert.match(plain.stdout, new RegExp(`observed_token_hit_ratio: ${(read / input).toFixed(4)}\n`));
	assert.match(plain.stdout, /target_met: false\n/);
	assert.match(plain.stdout, new RegExp(`input_tokens: ${input}\n`));
});

test('target_met is null when any usage is unknown', async t => {
	const {folders, id, worker} = await start(t, {target_hit_ratio: 0.5});
	await roundTrip(worker, id, body, {prompt_tokens: 2000, prompt_tokens_details: {cached_tokens: 1920}});
	let figures = await report(folders);
	assert.equal(figures.target_met, true, 'all known: the target is judged');
	await roundTrip(worker, id, body, null);
	await roundTrip(worker, id, body, {prompt_tokens: 100, prompt_tokens_details: {cached_tokens: 200}}, 'openai');
	await roundTrip(worker, id, body, {input_tokens: -1}, 'anthropic');
	await roundTrip(worker, id, body, {prompt_tokens: 100}, 'deepseek');
	await worker.close();
	figures = await report(folders);
	assert.equal(figures.unknown_usage, 4, 'missing, cached over total, negative, DeepSeek without hit/miss');
	assert.equal(figures.observed, 5);
	assert.equal(figures.observed_token_hit_ratio, 1920 / 2000, 'the ratio covers the known usage only');
	assert.equal(figures.target_met, null);
});

test('target_met is null while a prepared request was never observed; a retried and observed one is fine', async t => {
	const {folders, id, worker} = await start(t, {target_hit_ratio: 0.5});
	const prepared = await roundTrip(worker, id, body, {prompt_tokens: 2000, prompt_tokens_details: {cached_tokens: 1920}});
	await hook(worker, id, 'request_retry', {request_meta: prepared.request_meta, attempt: 1, delay_ms: 0, reason: 'http 503', status: 503});
	let figures = await report(folders);
	assert.equal(figures.prepared, 2);
	assert.equal(figures.target_met, true);
	await hook(worker, id, 'before_request', beforeRequest(body));
	await worker.close();
	figures = await report(folders);
	assert.equal(figures.requests, 2);
	assert.equal(figures.unobserved, 1);
	assert.equal(figures.observed_token_hit_ratio, 0.96);
	assert.equal(figures.target_met, null);
});

test('cache-report of a workspace never used says there are no stats and registers nothing; a corrupt file is an error naming it', async t => {
	const folders = await makeFolders(t);
	const run = await runCli(['--runtime', 'cache-report', '-C', folders.workspace], {env: folders.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /no cache statistics: this workspace was never used/);
	assert.match(run.stdout, /target_met: null/);
	assert.equal(existsSync(join(folders.data, 'workspaces.json')), false, 'no registry entry created');
	const figures = await report(folders);
	assert.equal(figures.found, false);
	assert.equal(figures.observed_token_hit_ratio, null);

	const id = await registerWorkspace(folders);
	assert.match((await runCli(['--runtime', 'cache-report', '-C', folders.workspace], {env: folders.env})).stdout, /no cache statistics yet/);
	const file = statsFile(folders, id);
	const worker = startOfficialWorker(t, 'cache', [], {env: folders.env});
	await hook(worker, id, 'before_request', beforeRequest(body));
	await worker.close();
	await writeFile(file, 'not json');
	const corrupt = await runCli(['--runtime', 'cache-report', '-C', folders.workspace], {env: folders.env});
	assert.equal(corrupt.code, 2);
	assert.ok(corrupt.stderr.includes(`cache stats ${file} is corrupt (not valid JSON`), corrupt.stderr);
});

test('cache-report --config FILE takes the target and stats path from that file', async t => {
	const {folders, id, worker} = await start(t);
	await writeFile(join(folders.root, 'mine.json'), JSON.stringify({stats: 'other.json', target_hit_ratio: 0.9}));
	const other = startOfficialWorker(t, 'cache', ['--config', 'mine.json'], {env: folders.env, cwd: folders.root});
	await roundTrip(other, id, body, {prompt_tokens: 1000, prompt_tokens_details: {cached_tokens: 950}});
	await other.close();
	await worker.close();
	assert.ok(existsSync(statsFile(folders, id, 'other.json')));
	const figures = await report(folders, ['--config', 'mine.json']);
	assert.equal(figures.target_hit_ratio, 0.9);
	assert.equal(figures.observed_token_hit_ratio, 0.95);
	assert.equal(figures.target_met, true);
	assert.equal((await report(folders)).found, false, 'the default cache.json names the default stats file');
	const bad = await runCli(['--runtime', 'cache-report', '-C', folders.workspace, '--config', 'missing.json'], {env: folders.env, cwd: folders.root});
	assert.equal(bad.code, 2);
	assert.match(bad.stderr, /cache config .*missing\.json does not exist/);
});
