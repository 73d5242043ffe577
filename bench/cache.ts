// Issue 5's benchmark (a): a fixed 50-turn coding workload through the
// built CLI in line mode, with the cache profile in openai mode, against the
// mock provider with OpenAI-style prefix caching (128-token blocks, nothing
// below 1024 tokens, per prompt_cache_key). The first turn pastes a large
// project brief (the stable prefix); every turn then reads 2–4 files of
// varied size, one tool call per request, and answers. Figures: the hit
// ratio cache-report observes, the share of the cacheable prefix the mock
// actually served (1.0 when every request's prefix is byte-identical to the
// previous request), and the ideal ratio of this workload as the baseline.
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {cpus, tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockReply} from '../test/fixtures/mock-provider.js';
import {runCli} from '../test/helpers/cli.js';

const TURNS = 50;
/** The pasted brief: about 100k tokens at 4 bytes a token. */
const BRIEF_BYTES = 400_000;

/** Deterministic file contents of varied size (64 B to about 3 KB). */
function sourceFile(n: number): string {
	const lines = 2 + ((n * 37) % 60);
	return Array.from({length: lines}, (_, line) => `export const value${n}_${line} = ${(n * 7919 + line * 104_729) % 100_003}; // line ${line}`).join('\n') + '\n';
}

export async function benchCache(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-cache-')));
	const mock = await startMockProvider({prefixCache: true});
	try {
		const workspace = join(root, 'workspace');
		const config = join(root, 'config');
		mkdirSync(join(workspace, 'src'), {recursive: true});
		mkdirSync(config);
		writeFileSync(join(config, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
		writeFileSync(join(config, 'plugins.json'), JSON.stringify({profile: 'cache', disabled: []}));
		writeFileSync(join(config, 'cache.json'), JSON.stringify({mode: 'openai', namespace: 'bench'}));
		writeFileSync(join(config, 'config.json'), JSON.stringify({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'bench', api_key_env: 'BENCH_KEY', plugins: ['builtin.json']}));
		const env = {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: config, I_DATA_DIR: join(root, 'data'), I_CACHE_DIR: join(root, 'cache'), I_RUNTIME_DIR: join(root, 'runtime'), BENCH_KEY: 'k'};

		const lines: string[] = [];
		let file = 0;
		for (let turn = 0; turn < TURNS; turn++) {
			const reads = 2 + (turn % 3);
			for (let call = 0; call < reads; call++, file++) {
				writeFileSync(join(workspace, 'src', `f${file}.ts`), sourceFile(file));
				mock.enqueue({toolCalls: [{id: `c${file}`, name: 'read', arguments: JSON.stringify({files: [{path: `src/f${file}.ts`}]})}]});
			}

			mock.enqueue({text: `Turn ${turn}: I read ${reads} files; the change goes in src/f${file - 1}.ts.`} satisfies MockReply);
			const brief = turn === 0 ? ` Project brief: ${'The service keeps its state in plain files and every change is reviewed. '.repeat(Math.ceil(BRIEF_BYTES / 73))}` : '';
			lines.push(`Turn ${turn}: look at the next files and tell me where the change goes.${brief}`);
		}

		const started = performance.now();
		const session = await runCli(['-C', workspace], {env, input: `${lines.join('\n')}\n`, timeoutMs: 600_000});
		const seconds = (performance.now() - started) / 1000;
		if (session.code !== 0) throw new Error(`the workload failed (exit ${session.code}): ${session.stderr.slice(-2000)}`);
		const report = await runCli(['--runtime', 'cache-report', '-C', workspace, '--json'], {env});
		if (report.code !== 0) throw new Error(`cache-report failed: ${report.stderr}`);
		const figures = JSON.parse(report.stdout) as {observed_token_hit_ratio: number; target_hit_ratio: number; target_met: boolean | null; requests: number; input_tokens: number; cache_read_tokens: number};

		const served = mock.requests.map(request => request.prefixCache!);
		const input = served.reduce((sum, figure) => sum + figure.input, 0);
		const cached = served.reduce((sum, figure) => sum + figure.cached, 0);
		const cacheable = served.reduce((sum, figure) => sum + figure.cacheable, 0);
		const keys = new Set(mock.requests.map(request => request.body.prompt_cache_key)).size;
		const ideal = cacheable / input;
		const reuse = cached / cacheable;
		const ratio = figures.observed_token_hit_ratio;

		console.log('');
		console.log(
			`prompt cache (issue 5 a): ${TURNS} turns, ${mock.requests.length} requests through i in line mode, cache profile in openai mode, ${keys} prompt_cache_key; mock prefix cache in 128-token blocks from 1024 tokens; ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; ${seconds.toFixed(1)} s`,
		);
		console.log('');
		console.log('| measure | value | target |');
		console.log('|---|---:|---:|');
		console.log(`| input tokens (cache-report; mock) | ${figures.input_tokens} ; ${input} | equal |`);
		console.log(`| cache-read tokens (cache-report; mock) | ${figures.cache_read_tokens} ; ${cached} | equal |`);
		console.log(`| ideal hit ratio of the workload (baseline: cacheable / input) | ${ideal.toFixed(4)} | > 0.99 |`);
		console.log(`| share of the cacheable prefix reused (cached / cacheable) | ${reuse.toFixed(4)} | 1.0 |`);
		console.log(`| observed token hit ratio (cache-report) | ${ratio.toFixed(4)} | ≥ ${figures.target_hit_ratio} |`);
		console.log(`| observed ÷ ideal | ${(ratio / ideal).toFixed(4)} | 1.0 |`);
		console.log(`| target_met (cache-report) | ${String(figures.target_met)} | true |`);
		if (figures.input_tokens !== input || figures.cache_read_tokens !== cached) console.log('cache-report disagrees with the tokens the mock served');
	} finally {
		await mock.close();
		rmSync(root, {recursive: true, force: true});
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await benchCache();
