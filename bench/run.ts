// `npm run bench`: start-up and one-shot print turn figures, each against a
// baseline measured in the same run, as medians of RUNS runs; the default
// profile's start-up against no plugins (bench/startup.ts); the extension
// host (bench/extensions.ts); a delegate_task round trip (bench/children.ts); then the
// resident worker pool against spawn-per-call (bench/pool.ts), hooks,
// skills, the input editor, the budget, the chat screen streaming 100k
// tokens (bench/tui.ts), the resume picker with 1000 sessions (bench/sessions.ts), the prompt cache, web_fetch, search, the
// sandbox's cost per shell command (bench/sandbox.ts), MCP servers (bench/mcp.ts) and a turn's
// tool phase with ten read-only calls (bench/tool-batch.ts).
import module from 'node:module';
import {cpus, totalmem} from 'node:os';
import {mkdtempSync, mkdirSync, writeFileSync, realpathSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider} from '../test/fixtures/mock-provider.js';
import {median, timeAsync, timeCommand} from './measure.js';
import {benchCache} from './cache.js';
import {benchExtensions} from './extensions.js';
import {benchProviders} from './providers.js';
import {benchChildren} from './children.js';
import {benchEditor} from './editor.js';
import {benchHooks} from './hooks.js';
import {benchMcp} from './mcp.js';
import {benchBudget} from './budget.js';
import {benchPool} from './pool.js';
import {benchSearch} from './search.js';
import {benchSandbox} from './sandbox.js';
import {benchSkills} from './skills.js';
import {benchStartup} from './startup.js';
import {benchMarkdown, benchTui} from './tui.js';
import {benchSessions} from './sessions.js';
import {benchToolBatch} from './tool-batch.js';
import {benchWebFetch} from './web.js';

// BENCH_ONLY=startup,pool runs those tables after the first one; by default every table runs.
const sections: Array<[string, () => Promise<void> | void]> = [
	['startup', benchStartup],
	['extensions', benchExtensions],
	['providers', benchProviders],
	['children', benchChildren],
	['pool', benchPool],
	['hooks', benchHooks],
	['skills', benchSkills],
	['editor', benchEditor],
	['budget', benchBudget],
	['tui', benchTui],
	['markdown', benchMarkdown],
	['sessions', benchSessions],
	['cache', benchCache],
	['web', benchWebFetch],
	['search', benchSearch],
	['sandbox', benchSandbox],
	['mcp', benchMcp],
	['batch', benchToolBatch],
];
const only = process.env.BENCH_ONLY?.split(',')
	.map(name => name.trim())
	.filter(Boolean);
const unknown = only?.filter(name => !sections.some(([known]) => known === name)) ?? [];
if (unknown.length > 0) throw new Error(`BENCH_ONLY names no table ${unknown.join(', ')}; tables: ${sections.map(([name]) => name).join(', ')}`);

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const cli = fileURLToPath(new URL('../../bin/i.js', import.meta.url));
const node = process.execPath;

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-')));
const workspace = join(root, 'workspace');
mkdirSync(workspace);
mkdirSync(join(root, 'config'));
const mock = await startMockProvider();
writeFileSync(join(root, 'config', 'config.json'), JSON.stringify({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'bench', api_key_env: 'BENCH_KEY'}));
const env = {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: join(root, 'config'), I_DATA_DIR: join(root, 'data'), BENCH_KEY: 'k'};
const answer = {text: 'The answer is 42.', usage: {input: 20, output: 6}};

// Warm the file cache once so the first measured run is not an outlier.
await timeCommand(node, ['-e', '0']);
await timeCommand(node, [cli, '--version']);

const bare: number[] = [];
const version: number[] = [];
const print: number[] = [];
// Node ≥ 22.1: the same one-shot with the compile cache off (bin/i.js turns it on), to show what it saves.
const hasCompileCache = typeof (module as {enableCompileCache?: unknown}).enableCompileCache === 'function';
const printUncached: number[] = [];
const mockOnly: number[] = [];
for (let run = 0; run < RUNS; run++) {
	bare.push(await timeCommand(node, ['-e', '0']));
	version.push(await timeCommand(node, [cli, '--version']));
	mock.enqueue(answer);
	print.push(await timeCommand(node, [cli, '-p', 'What is the answer?', '-C', workspace], {env}));
	if (hasCompileCache) {
		mock.enqueue(answer);
		printUncached.push(await timeCommand(node, [cli, '-p', 'What is the answer?', '-C', workspace], {env: {...env, NODE_DISABLE_COMPILE_CACHE: '1'}}));
	}
	mock.enqueue(answer);
	mockOnly.push(
		await timeAsync(async () => {
			const response = await fetch(`${mock.baseUrl('openai')}/chat/completions`, {
				method: 'POST',
				headers: {'content-type': 'application/json'},
				body: JSON.stringify({model: 'bench', stream: true, messages: [{role: 'user', content: 'What is the answer?'}]}),
			});
			await response.text();
		}),
	);
}

await mock.close();

const rows = [
	['node -e 0 (baseline)', median(bare), 1],
	['i --version', median(version), median(version) / median(bare)],
	['mock response alone (baseline)', median(mockOnly), null],
	['i -p (one-shot print turn)', median(print), median(print) / median(bare)],
	...(hasCompileCache ? [['i -p, compile cache off', median(printUncached), median(printUncached) / median(bare)] as const] : []),
] as const;
const baseline = median(bare) + median(mockOnly);
const overhead = median(print) - baseline;

console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, ${RUNS} runs each, medians`);
console.log('');
console.log('| measure | median ms | × node -e 0 |');
console.log('|---|---:|---:|');
for (const [name, ms, ratio] of rows) console.log(`| ${name} | ${ms.toFixed(1)} | ${ratio === null ? '' : `${ratio.toFixed(2)}×`} |`);
console.log('');
console.log(`i --version: ${(median(version) / median(bare)).toFixed(2)}× bare node (target ≤ 1.5×)`);
console.log(`i -p: ${median(print).toFixed(1)} ms against a baseline of ${baseline.toFixed(1)} ms (node -e 0 plus the mock's own response time): ${overhead.toFixed(1)} ms over it (target ≤ 150 ms)`);

for (const [name, run] of sections) if (!only || only.includes(name)) await run();
