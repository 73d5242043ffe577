// The resume picker (issue 17 item 2): `i --resume` in a pseudo-terminal,
// launch to the picker drawn, with 1000 saved sessions against none (where
// the screen says there is nothing to resume instead), in one run; and
// the same 1000 with their summary index lost, where the list falls back to
// each file's header. Each session is a real file of ~12 KB (ten turns).
// Also the list read alone, in this process.
import {mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {randomUUID} from 'node:crypto';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {spawnInTerminal} from '../test/helpers/pty.js';
import {median, timeAsync} from './measure.js';
import {workspaceSessionsFolder} from '../source/core/session/workspace-sessions.js';
import {listSessions} from '../source/core/session/list-sessions.js';
import {SESSION_INDEX_FILE} from '../source/core/session/session-index.js';

const SESSIONS = 1000;
const TURNS = 10;
const LAUNCHES = Number(process.env.BENCH_SESSIONS_LAUNCHES ?? 7);
const cli = fileURLToPath(new URL('../../bin/i.js', import.meta.url));

interface Box {
	root: string;
	workspace: string;
	env: NodeJS.ProcessEnv;
	folder: string;
}

async function box(name: string): Promise<Box> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), `i-bench-sessions-${name}-`)));
	const workspace = join(root, 'workspace');
	mkdirSync(workspace);
	mkdirSync(join(root, 'config'));
	// Never asked: the picker is drawn before any turn.
	writeFileSync(join(root, 'config', 'config.json'), JSON.stringify({protocol: 'openai', base_url: 'http://127.0.0.1:9', model: 'bench', api_key_env: 'BENCH_KEY'}));
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const env = {PATH: process.env.PATH, HOME: root, I_CONFIG_DIR: dirs.config_dir, I_DATA_DIR: dirs.data_dir, I_CACHE_DIR: dirs.cache_dir, I_RUNTIME_DIR: dirs.runtime_dir, BENCH_KEY: 'k'};
	const folder = await workspaceSessionsFolder(workspace, dirs);
	mkdirSync(folder, {recursive: true});
	return {root, workspace, env, folder};
}

/** `count` sessions as i writes them (a header, a step per turn) and the index their saves would have left. */
function writeSessions(target: Box, count: number): void {
	const sessions: Record<string, unknown> = {};
	const filler = 'lorem ipsum dolor sit amet, 中文 '.repeat(18);
	for (let n = 0; n < count; n++) {
		const id = randomUUID();
		const lines = [JSON.stringify({type: 'i-session', version: 1, id, workspace: target.workspace, created: new Date().toISOString()})];
		for (let turn = 1; turn <= TURNS; turn++) {
			lines.push(
				JSON.stringify({
					type: 'step',
					n: turn,
					messages: [
						{role: 'user', content: `question ${n}.${turn} ${filler}`},
						{role: 'assistant', content: `answer ${turn} ${filler}`},
					],
				}),
			);
		}
		const text = `${lines.join('\n')}\n`;
		const path = join(target.folder, `session-${n}.json`);
		writeFileSync(path, text);
		const when = Date.now() / 1000 - (count - n) * 60;
		utimesSync(path, when, when);
		sessions[`session-${n}`] = {id, title: `question ${n}.1`, messages: TURNS * 2, updated: new Date(when * 1000).toISOString(), size: Buffer.byteLength(text)};
	}
	writeFileSync(join(target.folder, SESSION_INDEX_FILE), JSON.stringify({version: 1, sessions}));
}

/** Launch to the picker (or, with no session, the notice that there is none) drawn, once. */
async function launchToPicker(target: Box, drawn: (output: string) => boolean): Promise<number> {
	const launched = performance.now();
	let seen = '';
	let at = Number.NaN;
	const run = spawnInTerminal(process.execPath, [cli, '--resume', '--no-logo', '-C', target.workspace], {
		env: target.env,
		cwd: target.workspace,
		cols: 120,
		rows: 40,
		emulate: false,
		onData(data) {
			seen += data;
			if (Number.isNaN(at) && drawn(seen)) at = performance.now() - launched;
		},
	});
	await run.waitUntil(() => !Number.isNaN(at), 'the picker', {timeoutMs: 60_000});
	await run.close();
	return at;
}

export async function benchSessions(): Promise<void> {
	const none = await box('none');
	const many = await box('many');
	writeSessions(many, SESSIONS);
	const lost = await box('lost');
	writeSessions(lost, SESSIONS);
	rmSync(join(lost.folder, SESSION_INDEX_FILE));

	const picker = (output: string) => output.includes(`Resume a session (${SESSIONS})`) && output.includes('session-999');
	const rows: Array<[string, number, number, number]> = [];
	// Interleaved, one launch of each in turn: a busy moment of the machine falls on all three alike.
	const cases = [
		{target: none, drawn: (output: string) => output.includes('no saved session in this workspace yet'), times: [] as number[]},
		{target: many, drawn: picker, times: [] as number[]},
		{target: lost, drawn: picker, times: [] as number[]},
	];
	for (let launch = 0; launch < LAUNCHES; launch++) for (const item of cases) item.times.push(await launchToPicker(item.target, item.drawn));
	const [noneMs, manyMs, lostMs] = cases.map(item => median(item.times)) as [number, number, number];
	const read = async (folder: string) => {
		const times: number[] = [];
		for (let n = 0; n < 9; n++)
			times.push(
				await timeAsync(async () => {
					await listSessions(folder);
				}),
			);
		return median(times);
	};
	rows.push([`launch to the picker drawn, ms (median of ${LAUNCHES}, interleaved)`, noneMs, manyMs, lostMs]);
	rows.push(['the list read alone, ms (median of 9)', await read(none.folder), await read(many.folder), await read(lost.folder)]);
	console.log('');
	console.log(`resume picker: i --resume with ${SESSIONS} saved sessions of ${TURNS} turns (~12 KB each), against none; and with the summary index lost (headers read)`);
	console.log('');
	console.log(`| measure | 0 sessions | ${SESSIONS} sessions | ${SESSIONS}, no index |`);
	console.log('|---|---:|---:|---:|');
	for (const [name, a, b, c] of rows) console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${c.toFixed(1)} |`);
	for (const target of [none, many, lost]) rmSync(target.root, {recursive: true, force: true});
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchSessions();
