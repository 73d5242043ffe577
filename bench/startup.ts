// What a user meets at every start (issue 11): the whole process, cold, with
// the default configuration `i --runtime init` writes (builtin.json → the
// standard profile) against the same turn with no plugins and against bare
// `node -e 0`, wall and CPU (the process tree, workers included), as medians
// of RUNS whole-process runs measured alternately in the same run. Also: the
// worker processes one default-profile one-shot starts, counted by a module
// preloaded into `i` that logs the children it spawns, and the chat screen's
// launch to first frame, to ready and to the agent set up with the default
// profile (and to first frame with none), launched alternately with
// one-shots of the same config: issue 41 holds ready to 1.3× the one-shot.
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider} from '../test/fixtures/mock-provider.js';
import {spawnInTerminal, type TerminalRun} from '../test/helpers/pty.js';
import {median, timeCommand, timeCommandCpu} from './measure.js';

const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 15));
const FIRST_FRAME_LAUNCHES = 10;
const CHAT_COLUMNS = 120;
const CHAT_ROWS = 40;
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

interface ChatLaunch {
	first: number;
	ready: number;
	agent: number;
}

/**
 * One chat-screen launch: to its first frame (the input's `/help` hint), to
 * ready (the status line names the session, new or opened; the editor takes
 * keys from the first frame) and to the agent set up (the status line names
 * the model, after the last "starting" spinner).
 */
async function chatLaunch(setup: Setup): Promise<ChatLaunch> {
	const launched = performance.now();
	let seen = '';
	const times = {first: Number.NaN, ready: Number.NaN, agent: Number.NaN};
	const run: TerminalRun = spawnInTerminal(node, [cli, '-C', setup.workspace], {
		env: setup.env,
		cwd: setup.workspace,
		cols: CHAT_COLUMNS,
		rows: CHAT_ROWS,
		emulate: false,
		onData(data) {
			seen += data;
			const now = performance.now() - launched;
			if (Number.isNaN(times.first) && seen.includes('/help')) times.first = now;
			if (Number.isNaN(times.ready) && /new session|session [0-9a-f]{8}/.test(seen)) times.ready = now;
			if (Number.isNaN(times.agent) && seen.lastIndexOf('bench · ') > seen.lastIndexOf('starting —')) times.agent = now;
		},
	});
	await run.waitUntil(() => !Number.isNaN(times.agent), 'the agent set up', {timeoutMs: 30_000});
	await run.close();
	return times;
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

	// The chat screen's launches, alternating with one-shots of the same config (the figure "ready" is held to) and
	// with launches of the no-plugins config; each side first in turn, so a slow minute of the machine's weighs on all alike.
	const chats = {bare: [] as ChatLaunch[], standard: [] as ChatLaunch[], oneShot: [] as number[]};
	for (let launch = 0; launch < FIRST_FRAME_LAUNCHES; launch++) {
		const steps = [
			async () => chats.bare.push(await chatLaunch(bare)),
			async () => chats.standard.push(await chatLaunch(standard)),
			async () => {
				mock.enqueue(answer);
				chats.oneShot.push((await timeCommandCpu(node, oneShot(standard), {env: standard.env})).wallMs);
			},
		];
		for (const step of launch % 2 === 0 ? steps : steps.reverse()) await step();
	}

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
	const chatMedian = (side: ChatLaunch[], key: keyof ChatLaunch) => median(side.map(launch => launch[key]));
	const shot = median(chats.oneShot);
	console.log('');
	console.log(`chat screen in a ${CHAT_COLUMNS}×${CHAT_ROWS} pseudo-terminal, default profile: medians of ${FIRST_FRAME_LAUNCHES} launches, alternating with one-shots of the same config`);
	console.log('');
	console.log('| measure | ms | × the one-shot |');
	console.log('|---|---:|---:|');
	console.log(`| i -p "Say hello" (the one-shot, whole process) | ${shot.toFixed(0)} | 1.00× |`);
	console.log(`| launch to first frame | ${chatMedian(chats.standard, 'first').toFixed(0)} | ${ratio(chatMedian(chats.standard, 'first'), shot)} |`);
	console.log(`| launch to ready (the editor takes keys, the status line shows the session) | ${chatMedian(chats.standard, 'ready').toFixed(0)} | ${ratio(chatMedian(chats.standard, 'ready'), shot)} |`);
	console.log(
		`| launch to the agent set up (the model in the status line; a message sent before waits for it) | ${chatMedian(chats.standard, 'agent').toFixed(0)} | ${ratio(chatMedian(chats.standard, 'agent'), shot)} |`,
	);
	console.log(`| launch to first frame, no plugins | ${chatMedian(chats.bare, 'first').toFixed(0)} | ${ratio(chatMedian(chats.bare, 'first'), shot)} |`);
	console.log('');
	console.log(`targets: first frame and ready ≤ 1.30× the one-shot (${ratio(chatMedian(chats.standard, 'first'), shot)}, ${ratio(chatMedian(chats.standard, 'ready'), shot)})`);
	console.log(`worker processes started by one default-profile one-shot: ${starts}`);
	console.log(`targets: default profile ≤ 1.30× no plugins in wall (${ratio(wall('standard'), wall('bare'))}) and ≤ 1.50× in CPU (${ratio(cpu('standard'), cpu('bare'))}); one worker process (${starts})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchStartup();
