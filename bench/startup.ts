// What a user meets at every start (issue 11): the whole process, cold, with
// the default configuration `i --runtime init` writes (builtin.json → the
// standard profile) against the same turn with no plugins and against bare
// `node -e 0`, wall and CPU (the process tree, workers included), as medians
// of RUNS whole-process runs measured alternately in the same run. Also: the
// worker processes one default-profile one-shot starts, counted by a module
// preloaded into `i` that logs the children it spawns, and the chat screen's
// launch to first frame with the default profile and with none, launched
// alternately too.
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider} from '../test/fixtures/mock-provider.js';
import {spawnInTerminal, type TerminalRun} from '../test/helpers/pty.js';
import {median, timeCommand, timeCommandCpu} from './measure.js';

const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 15));
const FIRST_FRAME_LAUNCHES = 10;
const cli = fileURLToPath(new URL('../../bin/i.js', import.meta.url));
const countSpawns = new URL('../../test/fixtures/count-spawns.mjs', import.meta.url).href;
const node = process.execPath;

interface Setup {
	env: NodeJS.ProcessEnv;
	workspace: string;
}

/** A config folder as `i --runtime init` leaves it, with the model filled in; or one with the model alone. */
async function makeSetup(root: string, name: string, baseUrl: string, profile: boolean): Promise<Setup> {
	const home = join(root, name);
	const workspace = join(home, 'workspace');
	mkdirSync(workspace, {recursive: true});
	const config = join(home, 'config');
	const env = {
		PATH: process.env.PATH,
		HOME: home,
		I_CONFIG_DIR: config,
		I_DATA_DIR: join(home, 'data'),
		I_CACHE_DIR: join(home, 'cache'),
		I_RUNTIME_DIR: join(home, 'runtime'),
		BENCH_KEY: 'k',
	};
	const model = {protocol: 'openai', base_url: baseUrl, model: 'bench', api_key_env: 'BENCH_KEY'};
	if (profile) {
		await timeCommand(node, [cli, '--runtime', 'init'], {env});
		const written = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')) as Record<string, unknown>;
		writeFileSync(join(config, 'config.json'), JSON.stringify({...written, ...model}));
	} else {
		mkdirSync(config, {recursive: true});
		writeFileSync(join(config, 'config.json'), JSON.stringify(model));
	}

	return {env, workspace};
}

export async function benchStartup(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-startup-')));
	const mock = await startMockProvider();
	const answer = {text: 'Hello!', usage: {input: 20, output: 3}};
	const bare = await makeSetup(root, 'bare', mock.baseUrl('openai'), false);
	const standard = await makeSetup(root, 'standard', mock.baseUrl('openai'), true);
	const oneShot = (setup: Setup) => [cli, '-p', 'Say hello', '-C', setup.workspace];

	// Warm the file cache once so the first measured run is not an outlier.
	await timeCommand(node, ['-e', '0']);
	mock.enqueue(answer);
	await timeCommand(node, oneShot(standard), {env: standard.env});

	const runs = {
		node: [] as Array<{wallMs: number; cpuMs: number}>,
		bare: [] as Array<{wallMs: number; cpuMs: number}>,
		standard: [] as Array<{wallMs: number; cpuMs: number}>,
	};
	for (let run = 0; run < RUNS; run++) {
		runs.node.push(await timeCommandCpu(node, ['-e', '0'], {env: bare.env}));
		mock.enqueue(answer);
		runs.bare.push(await timeCommandCpu(node, oneShot(bare), {env: bare.env}));
		mock.enqueue(answer);
		runs.standard.push(await timeCommandCpu(node, oneShot(standard), {env: standard.env}));
	}

	// Worker processes per one-shot: a module preloaded into `i` logs each child it spawns (workers get an emptied environment).
	const log = join(root, 'spawns.log');
	writeFileSync(log, '');
	mock.enqueue(answer);
	await timeCommand(node, oneShot(standard), {env: {...standard.env, NODE_OPTIONS: `--import ${countSpawns}`, SPAWN_LOG: log}});
	const starts = readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).length;

	/** One chat-screen launch's time to its first frame (the input's `/help` hint). */
	const firstFrame = async (setup: Setup): Promise<number> => {
		const launched = performance.now();
		let seen = '';
		let first = Number.NaN;
		const run: TerminalRun = spawnInTerminal(node, [cli, '-C', setup.workspace], {
			env: setup.env,
			cwd: setup.workspace,
			cols: 100,
			rows: 30,
			emulate: false,
			onData(data) {
				seen += data;
				if (Number.isNaN(first) && seen.includes('/help')) first = performance.now() - launched;
			},
		});
		await run.waitUntil(() => !Number.isNaN(first), 'the first frame', {timeoutMs: 30_000});
		await run.close();
		return first;
	};

	// Alternately, as the one-shots are, and here each side first in turn: a slow minute of the machine's then weighs on both screens alike.
	const frames = [
		{setup: bare, times: [] as number[]},
		{setup: standard, times: [] as number[]},
	];
	for (let launch = 0; launch < FIRST_FRAME_LAUNCHES; launch++) {
		for (const side of launch % 2 === 0 ? frames : [...frames].reverse()) side.times.push(await firstFrame(side.setup));
	}

	const [bareFrame, standardFrame] = frames.map(side => median(side.times)) as [number, number];
	await mock.close();

	const wall = (name: keyof typeof runs) => median(runs[name].map(run => run.wallMs));
	const cpu = (name: keyof typeof runs) => median(runs[name].map(run => run.cpuMs));
	const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
	console.log('');
	console.log(`start-up (issue 11): whole-process runs, cold, medians of ${RUNS}; CPU is the process tree's; the default profile is the one \`i --runtime init\` writes`);
	console.log('');
	console.log('| measure | wall ms | CPU ms | wall × no plugins | CPU × no plugins | wall × node -e 0 |');
	console.log('|---|---:|---:|---:|---:|---:|');
	console.log(`| node -e 0 (baseline) | ${wall('node').toFixed(1)} | ${cpu('node').toFixed(0)} | | | 1.00× |`);
	console.log(`| i -p "Say hello", no plugins (baseline) | ${wall('bare').toFixed(1)} | ${cpu('bare').toFixed(0)} | 1.00× | 1.00× | ${ratio(wall('bare'), wall('node'))} |`);
	console.log(
		`| i -p "Say hello", default profile | ${wall('standard').toFixed(1)} | ${cpu('standard').toFixed(0)} | ${ratio(wall('standard'), wall('bare'))} | ${ratio(cpu('standard'), cpu('bare'))} | ${ratio(wall('standard'), wall('node'))} |`,
	);
	console.log('');
	console.log(
		`chat screen launch to first frame, median of ${FIRST_FRAME_LAUNCHES}: ${standardFrame.toFixed(0)} ms with the default profile, ${bareFrame.toFixed(0)} ms with no plugins (${ratio(standardFrame, bareFrame)})`,
	);
	console.log(`worker processes started by one default-profile one-shot: ${starts}`);
	console.log(`targets: default profile ≤ 1.30× no plugins in wall (${ratio(wall('standard'), wall('bare'))}) and ≤ 1.50× in CPU (${ratio(cpu('standard'), cpu('bare'))}); one worker process (${starts})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchStartup();
