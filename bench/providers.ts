// The provider package's cost (issue 16's benchmark): it loads in every run
// of `i`, so whole processes with it against `--no-extensions`, medians of
// RUNS runs measured alternately in the same run: `i --list-models` (the
// package's register and the catalogue, no model call) and a one-shot
// `i -p` against the mock model with a config that chooses by protocol
// (the package loads but is not called). Also a one-shot through the
// package's own client (`--model deepseek/deepseek-chat` against the mock's
// Chat Completions endpoint) against the built-in deepseek adapter on the
// same endpoint: what loading the client at the first request costs.
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider} from '../test/fixtures/mock-provider.js';
import {median, timeCommandCpu} from './measure.js';

const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 15));
const cli = fileURLToPath(new URL('../../bin/i.js', import.meta.url));
const node = process.execPath;

export async function benchProviders(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-providers-')));
	const mock = await startMockProvider();
	const workspace = join(root, 'workspace');
	const config = join(root, 'config');
	mkdirSync(workspace);
	mkdirSync(config);
	const baseUrl = mock.baseUrl('deepseek');
	writeFileSync(join(config, 'config.json'), JSON.stringify({protocol: 'deepseek', base_url: baseUrl, model: 'deepseek-chat', api_key_env: 'DEEPSEEK_API_KEY'}));
	writeFileSync(join(config, 'models.json'), JSON.stringify({providers: {deepseek: {baseUrl}}}));
	const env = {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: config, I_DATA_DIR: join(root, 'data'), I_CACHE_DIR: join(root, 'cache'), I_RUNTIME_DIR: join(root, 'runtime'), DEEPSEEK_API_KEY: 'k'};
	const answer = {text: 'Hello!', usage: {input: 20, output: 3}};
	const list = (extra: string[]) => [cli, '--list-models', '-C', workspace, ...extra];
	const print = (extra: string[]) => [cli, '-p', 'Say hello', '-C', workspace, ...extra];

	// Warm the file cache once.
	await timeCommandCpu(node, list([]), {env});
	const runs: Record<string, Array<{wallMs: number; cpuMs: number}>> = {listWith: [], listWithout: [], printWith: [], printWithout: [], viaPackage: [], viaBuiltin: []};
	for (let run = 0; run < RUNS; run++) {
		runs.listWith!.push(await timeCommandCpu(node, list([]), {env}));
		runs.listWithout!.push(await timeCommandCpu(node, list(['--no-extensions']), {env}));
		mock.enqueue(answer);
		runs.printWith!.push(await timeCommandCpu(node, print([]), {env}));
		mock.enqueue(answer);
		runs.printWithout!.push(await timeCommandCpu(node, print(['--no-extensions']), {env}));
		mock.enqueue(answer);
		runs.viaPackage!.push(await timeCommandCpu(node, print(['--model', 'deepseek/deepseek-chat']), {env}));
		mock.enqueue(answer);
		runs.viaBuiltin!.push(await timeCommandCpu(node, print([]), {env}));
	}

	await mock.close();
	const wall = (name: string) => median(runs[name]!.map(entry => entry.wallMs));
	const cpu = (name: string) => median(runs[name]!.map(entry => entry.cpuMs));
	const row = (label: string, name: string, base: string) =>
		`  ${label.padEnd(52)} ${wall(name).toFixed(1).padStart(7)} ms wall ${cpu(name).toFixed(1).padStart(7)} ms CPU   ×${(wall(name) / wall(base)).toFixed(2)} wall ×${(cpu(name) / cpu(base)).toFixed(2)} CPU`;
	console.log(`\nThe provider package (medians of ${RUNS} whole-process runs, alternating)`);
	console.log(row('i --list-models --no-extensions', 'listWithout', 'listWithout'));
	console.log(row('i --list-models (the package loaded)', 'listWith', 'listWithout'));
	console.log(row('i -p, protocol deepseek, --no-extensions', 'printWithout', 'printWithout'));
	console.log(row('i -p, protocol deepseek (the package loaded, unused)', 'printWith', 'printWithout'));
	console.log(row('i -p --model deepseek/deepseek-chat (its client)', 'viaPackage', 'viaBuiltin'));
	console.log(row('  against: i -p, the built-in deepseek adapter', 'viaBuiltin', 'viaBuiltin'));
}
