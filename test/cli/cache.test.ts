import {test} from 'node:test';
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

test('i -p with the cache profile in openai mode against a prefix-caching mock: cache-report shows the hits the mock served', async t => {
	const mock = await startMockProvider({prefixCache: true});
	t.after(async () => mock.close());
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(box.configDir, 'plugins.json'), JSON.stringify({profile: 'cache', disabled: []}));
	writeFileSync(join(box.configDir, 'cache.json'), JSON.stringify({mode: 'openai', namespace: 'e2e', target_hit_ratio: 0.5}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['builtin.json']});
	// A file big enough that the prompt passes the 1024-token minimum once it is read.
	writeFileSync(join(box.workspace, 'notes.txt'), `${Array.from({length: 400}, (_, line) => `line ${line}: the quick brown fox`).join('\n')}\n`);
	const read = (id: string) => ({id, name: 'read', arguments: JSON.stringify({files: [{path: 'notes.txt'}]})});
	mock.enqueue({toolCalls: [read('r1')]}, {text: 'read it'}, {text: 'still here'});
	const session = join(box.root, 's.json');
	for (const prompt of ['read notes.txt', 'and again?']) {
		const run = await runCli(['-p', prompt, '--session', session, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
	}

	assert.equal(mock.requests.length, 3);
	const keys = new Set(mock.requests.map(request => request.body.prompt_cache_key));
	assert.equal(keys.size, 1, 'one stable key across runs');
	assert.match([...keys][0], /^[0-9a-f]{64}$/);
	const figures = mock.requests.map(request => request.prefixCache!);
	assert.equal(figures[0]!.cached, 0, 'the first request is cold');
	assert.ok(figures[1]!.cached >= 1024 && figures[2]!.cached >= 1024, JSON.stringify(figures));
	// The history is append-only, so each request reuses the whole cacheable prefix.
	for (const figure of figures) assert.equal(figure.cached, figure.cacheable);

	const run = await runCli(['--runtime', 'cache-report', '-C', box.workspace, '--json'], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const report = JSON.parse(run.stdout) as Record<string, any>;
	const input = figures.reduce((sum, figure) => sum + figure.input, 0);
	const cached = figures.reduce((sum, figure) => sum + figure.cached, 0);
	assert.equal(report.input_tokens, input);
	assert.equal(report.cache_read_tokens, cached);
	assert.equal(report.observed_token_hit_ratio, cached / input);
	assert.equal(report.requests, 3);
	assert.equal(report.observed, 3);
	assert.deepEqual(report.predictions, {new: 1, append: 2, compact: 0, reset: 0});
	assert.equal(report.target_met, cached / input >= 0.5);
	assert.ok(cached / input > 0.3, `hit ratio ${cached / input}`);
});
