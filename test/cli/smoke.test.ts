import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {resolveDirs} from '../../source/core/config/dirs.js';
import {findWorkspaceId} from '../../source/core/config/workspace-registry.js';
import {startMockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

const examples = fileURLToPath(new URL('../../../config/examples', import.meta.url));

/** A shipped smoke example, pointed at the mock: its manifest by absolute path, everything else as shipped. */
function exampleConfig(box: Sandbox, name: string, baseUrl: string): string {
	const shipped = JSON.parse(readFileSync(join(examples, name), 'utf8')) as Record<string, any>;
	const path = join(box.configDir, name);
	writeFileSync(path, JSON.stringify({...shipped, base_url: baseUrl, plugins: shipped.plugins.map((file: string) => join(examples, file))}));
	return path;
}

async function smokeStats(box: Sandbox): Promise<Record<string, any>> {
	const dirs = resolveDirs(box.env);
	const id = await findWorkspaceId(box.workspace, dirs);
	assert.ok(id, 'the run registered its workspace');
	return JSON.parse(readFileSync(join(dirs.data_dir, 'workspaces', id, 'metrics', 'smoke-cache.json'), 'utf8')) as Record<string, any>;
}

for (const [name, cap] of [
	['deepseek.smoke.json', 32],
	['deepseek.thinking-vision.json', 1024],
] as const) {
	test(`${name}: one turn with the tools removed, the output capped at ${cap}, the cache observed into metrics/smoke-cache.json`, async t => {
		const mock = await startMockProvider();
		t.after(async () => mock.close());
		const box = makeSandbox();
		const config = exampleConfig(box, name, mock.baseUrl('deepseek'));
		const env = {...box.env, DEEPSEEK_TEST_API_KEY: 'sk-smoke-test-key'};
		mock.enqueue({text: 'pong', usage: {input: 50, output: 1, cacheRead: 40}});
		const run = await runCli(['-p', 'ping', '--config', config, '-C', box.workspace], {env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, 'pong\n');
		assert.equal(mock.requests.length, 1);
		const body = mock.requests[0]!.body as Record<string, unknown>;
		assert.equal(body.max_tokens, cap);
		for (const field of ['tools', 'tool_choice', 'parallel_tool_calls']) assert.ok(!(field in body), `${field} removed`);
		// Observe only: nothing added for the provider's cache.
		assert.ok(!('prompt_cache_key' in body));
		const stats = await smokeStats(box);
		assert.equal(stats.totals.requests, 1);
		assert.equal(stats.totals.observed, 1);
		assert.equal(stats.totals.input_tokens, 50);
		assert.equal(stats.totals.cache_read_tokens, 40);
		assert.doesNotMatch(JSON.stringify(stats), /sk-smoke-test-key|ping|pong/);
		// cache-report reads it with a cache.json-shaped file naming it (docs/plugins.md).
		const report = join(box.root, 'smoke-report.json');
		writeFileSync(report, JSON.stringify({stats: 'metrics/smoke-cache.json'}));
		const shown = await runCli(['--runtime', 'cache-report', '-C', box.workspace, '--config', report, '--json'], {env});
		assert.equal(shown.code, 0, shown.stderr);
		const figures = JSON.parse(shown.stdout) as Record<string, unknown>;
		assert.equal(figures.observed_token_hit_ratio, 40 / 50);
		assert.equal(figures.requests, 1);
	});
}

test('a smoke turn whose reply calls a tool fails (exit 1) and is still counted; the request is never retried', async t => {
	const mock = await startMockProvider();
	t.after(async () => mock.close());
	const box = makeSandbox();
	const config = exampleConfig(box, 'deepseek.smoke.json', mock.baseUrl('deepseek'));
	const env = {...box.env, DEEPSEEK_TEST_API_KEY: 'sk-smoke-test-key'};
	mock.enqueue({toolCalls: [{id: 'c1', name: 'read', arguments: '{"files":[{"path":"x"}]}'}], usage: {input: 20, output: 5}});
	const run = await runCli(['-p', 'ping', '--config', config, '-C', box.workspace, '--yolo'], {env});
	assert.equal(run.code, 1, run.stderr);
	assert.match(run.stderr, /smoke policy: the model returned tool calls, which this policy refuses/);
	assert.equal(mock.requests.length, 1);
	const stats = await smokeStats(box);
	assert.equal(stats.totals.observed, 1);
	assert.equal(stats.totals.input_tokens, 20);
});

test('i --runtime manifest prints both smoke profiles: their worker on both sides of the request, no tools', async () => {
	const box = makeSandbox();
	for (const profile of ['smoke', 'smoke-thinking']) {
		const run = await runCli(['--runtime', 'manifest', profile], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
		const manifest = JSON.parse(run.stdout) as {tools: unknown[]; hooks: Array<{events: string[]; module: string; exec: string[]}>};
		assert.deepEqual(manifest.tools, []);
		assert.deepEqual(
			manifest.hooks.map(hook => [hook.module, hook.events]),
			[
				[profile, ['before_request', 'request_retry']],
				[profile, ['after_response']],
			],
		);
		assert.deepEqual(manifest.hooks[0]!.exec.slice(-3), ['--runtime', 'worker', 'official']);
	}
});
