// The per-turn cost of the standard profile's hooks on a 100k-token history
// (issue 3's benchmark): the same turn through runTurn, once with the hooks
// `i --runtime init` sets up (builtin.json → standard profile, its official
// workers resident), once with no hooks, alternating, in the same run. A
// turn here is what a coding turn usually is: the model asks for one tool
// call (read), then answers. The model is an in-process fake that answers at
// once, so what differs is the hook work alone, and nothing the hooks do
// can hide behind a model request. The standard profile's memory, skills,
// budget and cache hooks all carry the history; the official workers get
// prefix-reuse frames. A third row adds one pass-through before_request hook
// in plain seed §2 frames (no prefix reuse), whose data is the whole request
// body: what moving the 100k-token history through a hook costs without the
// extension.
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {PlatformDirs} from '../source/core/config/dirs.js';
import {loadModelConfig} from '../source/core/config/load-config.js';
import {loadPlugins} from '../source/core/plugins/load-plugins.js';
import {createWorkerPool} from '../source/core/pool/pool.js';
import {workerEnvironment} from '../source/core/pool/worker-environment.js';
import {createHookChain, emptyHookChain, type HookChain} from '../source/core/lifecycle/hook-chain.js';
import {createApprovalGate} from '../source/core/agent/approval-gate.js';
import {openSession, type Session} from '../source/core/session/session-store.js';
import {runTurn} from '../source/core/agent/run-turn.js';
import type {ModelCaller} from '../source/core/providers/model-caller.js';
import type {Message} from '../source/core/messages.js';
import type {ModelReply} from '../source/core/providers/types.js';
import {createNativeTools} from '../source/core/tools/native-tools.js';
import {median, timeAsync} from './measure.js';

const TURNS = 30;
/** 100k tokens at about 4 bytes a token. */
const HISTORY_BYTES = 400_000;
const cli = fileURLToPath(new URL('../bundle/cli.js', import.meta.url));
const echoWorker = fileURLToPath(new URL('../../bench/echo-worker.mjs', import.meta.url));

/** Answers a tool call first, then text: one step with a tool, one without. */
function fakeModel(): ModelCaller {
	let call = 0;
	return {
		protocol: 'openai',
		model: 'bench',
		prepare: (messages, tools) => ({url: 'http://127.0.0.1:9/v1/chat/completions', body: {messages, tools}}),
		async send(): Promise<ModelReply> {
			call++;
			const message =
				call % 2 === 1
					? {role: 'assistant' as const, content: null, tool_calls: [{id: `c${call}`, type: 'function' as const, function: {name: 'read', arguments: '{"files":[{"path":"note.txt"}]}'}}]}
					: {role: 'assistant' as const, content: 'Read it.'};
			return {message, finishReason: call % 2 === 1 ? 'tool_calls' : 'stop', rawFinishReason: null, usage: null};
		},
	};
}

function history(): Message[] {
	const messages: Message[] = [{role: 'system', content: 'You are a benchmark.'}];
	const chunk = 'The quick brown fox jumps over the lazy dog while the build runs. '.repeat(60);
	while (JSON.stringify(messages).length < HISTORY_BYTES) {
		messages.push({role: 'user', content: chunk}, {role: 'assistant', content: chunk});
	}

	return messages;
}

export async function benchHooks(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-hooks-')));
	const dirs: PlatformDirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const workspace = join(root, 'workspace');
	mkdirSync(dirs.config_dir, {recursive: true});
	mkdirSync(workspace);
	writeFileSync(join(workspace, 'note.txt'), 'a short note\n');
	writeFileSync(join(dirs.config_dir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(dirs.config_dir, 'plugins.json'), JSON.stringify({profile: 'standard', disabled: []}));
	const configFile = join(dirs.config_dir, 'config.json');
	writeFileSync(configFile, JSON.stringify({protocol: 'openai', model: 'bench', api_key_env: 'K', plugins: ['builtin.json']}));
	const {plugins} = await loadPlugins(loadModelConfig(configFile, true), dirs, {program: [process.execPath, cli]});
	const poolOptions = {
		context: {workspace, workspace_id: 'f29127b0-f512-4c6e-9e31-87d476d168ce', paths: dirs},
		env: workerEnvironment(process.env, dirs),
		ioLimitBytes: 1024 * 1024,
	};
	const pool = createWorkerPool(poolOptions);
	const standard = createHookChain(plugins.hooks, pool);
	// The same workers in plain seed §2 frames, in a pool of their own (one process per argv and cwd): what prefix reuse saves.
	const plainPool = createWorkerPool(poolOptions);
	const plain = createHookChain(
		plugins.hooks.map(hook => ({...hook, worker: {exec: hook.worker.exec, cwd: hook.worker.cwd}})),
		plainPool,
	);
	const passThrough = {events: ['before_request'], worker: {exec: [process.execPath, echoWorker], cwd: root}, manifest: 'bench'};
	const heavy = createHookChain([...plugins.hooks, passThrough], pool);
	const seed = history();
	const open = async (name: string): Promise<Session> => {
		const session = await openSession({path: join(root, `${name}.json`), workspace});
		await session.appendStep(seed);
		return session;
	};

	const sessions = {none: await open('none'), standard: await open('standard'), plain: await open('plain'), heavy: await open('heavy')};
	const turn = async (hooks: HookChain, session: Session) => {
		const outcome = await runTurn('Read note.txt', {
			caller: fakeModel(),
			tools: createNativeTools(),
			session,
			gate: createApprovalGate({
				mode: {current: 'default'},
				askPerson: async () => ({decision: 'deny', by: 'no_terminal', reason: null}),
				...(hooks.has('tool_approval') ? {policy: async data => hooks.run('tool_approval', data)} : {}),
			}),
			hooks,
			emit() {},
			workspace,
			systemPrompt: 'unused',
			maxSteps: 4,
			signal: new AbortController().signal,
		});
		if (outcome.reason !== 'stop') throw new Error(`the benchmark turn ended with ${outcome.reason}: ${outcome.error?.message}`);
	};

	try {
		// Warm: the workers start and both paths are optimised before anything is timed.
		for (let run = 0; run < 5; run++) {
			await turn(emptyHookChain, sessions.none);
			await turn(standard, sessions.standard);
			await turn(plain, sessions.plain);
			await turn(heavy, sessions.heavy);
		}

		const without: number[] = [];
		const withHooks: number[] = [];
		const withPlainFrames: number[] = [];
		const withHistoryHook: number[] = [];
		for (let run = 0; run < TURNS; run++) {
			without.push(await timeAsync(async () => turn(emptyHookChain, sessions.none)));
			withHooks.push(await timeAsync(async () => turn(standard, sessions.standard)));
			withPlainFrames.push(await timeAsync(async () => turn(plain, sessions.plain)));
			withHistoryHook.push(await timeAsync(async () => turn(heavy, sessions.heavy)));
		}

		const overhead = median(withHooks) - median(without);
		const listened = [...new Set(plugins.hooks.flatMap(hook => hook.events))].join(', ');
		console.log('');
		console.log(`| turn on a ${Math.round(HISTORY_BYTES / 4 / 1000)}k-token history (${TURNS} turns, medians) | ms |`);
		console.log('|---|---:|');
		console.log(`| no hooks (baseline) | ${median(without).toFixed(2)} |`);
		console.log(`| standard profile hooks (${listened}) | ${median(withHooks).toFixed(2)} |`);
		console.log(`| the same hooks in plain seed §2 frames (no prefix reuse) | ${median(withPlainFrames).toFixed(2)} |`);
		console.log(`| standard + a pass-through before_request hook in plain frames carrying the history (2 requests a turn) | ${median(withHistoryHook).toFixed(2)} |`);
		console.log('');
		console.log(
			`standard-profile hook overhead: ${overhead.toFixed(2)} ms per turn (target ≤ 20 ms); in plain frames: ${(median(withPlainFrames) - median(without)).toFixed(2)} ms; with the history through one more hook in plain frames: ${(median(withHistoryHook) - median(without)).toFixed(2)} ms`,
		);
	} finally {
		await Promise.all([...Object.values(sessions).map(async session => session.close()), pool.close(), plainPool.close()]);
		rmSync(root, {recursive: true, force: true});
	}
}
