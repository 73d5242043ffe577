// A delegate_task round trip's overhead (issue 15's benchmark): the same work
// — one glob call and an answer — done by the parent, and handed by the
// parent to a child through delegate_task, in one agent set up in process
// against the mock model (so a process start does not drown the figure).
// The delegated turn makes two more model requests (the parent's delegate
// call and its answer after the report); the mock answers each at once, so
// the difference is the host's cost: the child's session file beside the
// parent's, its turn, its output buffer and report, and those two requests
// over the loopback. Medians of RUNS turns each, measured alternately.
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {startMockProvider, type MockReply} from '../test/fixtures/mock-provider.js';
import {setupAgent} from '../source/core/session/setup-agent.js';
import {median, timeAsync} from './measure.js';

const RUNS = Math.max(20, Number(process.env.BENCH_RUNS ?? 15) * 2);

export async function benchChildren(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-children-')));
	const workspace = join(root, 'workspace');
	mkdirSync(workspace);
	for (let index = 0; index < 20; index++) writeFileSync(join(workspace, `file-${index}.txt`), `file ${index}\n`);
	const mock = await startMockProvider();
	const saved = {...process.env};
	Object.assign(process.env, {I_CONFIG_DIR: join(root, 'config'), I_DATA_DIR: join(root, 'data'), I_CACHE_DIR: join(root, 'cache'), I_RUNTIME_DIR: join(root, 'runtime'), BENCH_KEY: 'k'});
	const agent = await setupAgent({cwd: workspace, config: {protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'bench', api_key_env: 'BENCH_KEY', max_retries: 0}, yolo: true}, () => {});
	const glob: MockReply = {toolCalls: [{id: 'g', name: 'glob', arguments: JSON.stringify({pattern: '*.txt'})}]};
	const found: MockReply = {text: 'There are 20 text files.'};
	const direct = [glob, found];
	// The parent making as many requests as the delegated turn: what is left is the child's own cost.
	const direct4 = [glob, glob, glob, found];
	const delegated: MockReply[] = [{toolCalls: [{id: 'd', name: 'delegate_task', arguments: JSON.stringify({task: 'Count the text files.', tools: ['glob']})}]}, glob, found, {text: 'The child counted 20.'}];
	const turn = async (replies: MockReply[]) => {
		mock.enqueue(...replies);
		return timeAsync(async () => {
			const outcome = await agent.runTurn('How many text files are there?', new AbortController().signal);
			if (outcome.reason !== 'stop') throw new Error(`the bench turn ended ${outcome.reason}: ${outcome.error?.message ?? ''}`);
		});
	};

	const figures = {direct: [] as number[], direct4: [] as number[], delegated: [] as number[]};
	try {
		// Once each before measuring: the modules, the file cache.
		await turn(direct);
		await turn(delegated);
		for (let round = 0; round < RUNS; round++) {
			figures.direct.push(await turn(direct));
			figures.direct4.push(await turn(direct4));
			figures.delegated.push(await turn(delegated));
		}
	} finally {
		await agent.close();
		await mock.close();
		for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
		Object.assign(process.env, saved);
	}

	const parent = median(figures.direct);
	const child = median(figures.delegated);
	const parent4 = median(figures.direct4);
	console.log('');
	console.log(`child agents (issue 15): one turn in process against the mock, medians of ${RUNS}`);
	console.log('');
	console.log('| the same work (a glob call and an answer) | ms per turn | model requests |');
	console.log('|---|---:|---:|');
	console.log(`| done by the parent | ${parent.toFixed(2)} | 2 |`);
	console.log(`| handed to a child with delegate_task | ${child.toFixed(2)} | 4 |`);
	console.log(`| the round trip's overhead | ${(child - parent).toFixed(2)} | +2 |`);
	console.log(`| the parent alone with as many requests (three glob calls) | ${parent4.toFixed(2)} | 4 |`);
	console.log(`| the child's own cost beyond its requests (session, turn, report) | ${(child - parent4).toFixed(2)} | |`);
}
