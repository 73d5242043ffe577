// The skills module's before_turn with 100 skills (the most a root may
// hold), through a resident worker as the standard profile runs it: on a
// turn where every SKILL.md changed since the last one (each is read and
// parsed again: the baseline), and on a turn where none did (the usual
// case: each is only looked at). Both in the same run.
import {mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {createWorkerPool} from '../source/core/pool/pool.js';
import {workerEnvironment} from '../source/core/pool/worker-environment.js';
import {median, timeAsync} from './measure.js';

const SKILLS = 100;
const TURNS = 30;
const cli = fileURLToPath(new URL('../bundle/cli.js', import.meta.url));

export async function benchSkills(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-skills-')));
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const workspace = join(root, 'workspace');
	const files: string[] = [];
	for (let index = 0; index < SKILLS; index++) {
		const folder = join(workspace, '.agents', 'skills', `skill-${index}`);
		mkdirSync(folder, {recursive: true});
		const file = join(folder, 'SKILL.md');
		writeFileSync(file, `---\nname: skill-${index}\ndescription: Does task number ${index}, carefully and step by step.\n---\n\n# Skill ${index}\n\n${'A line of instructions. '.repeat(300)}\n`);
		files.push(file);
	}

	// Each turn either moves every file's time (all changed) or leaves them (none changed); times stay well in the past.
	let minutesAgo = 1000;
	const touchAll = () => {
		const time = new Date(Date.now() - --minutesAgo * 60_000);
		for (const file of files) utimesSync(file, time, time);
	};

	touchAll();
	const pool = createWorkerPool({context: {workspace, workspace_id: 'f29127b0-f512-4c6e-9e31-87d476d168ce', paths: dirs}, env: workerEnvironment(process.env, dirs), ioLimitBytes: 1024 * 1024});
	const spec = {exec: [process.execPath, cli, '--runtime', 'worker', 'skills'], cwd: root, prefixReuse: true};
	const messages = [
		{role: 'system', content: 'You are a benchmark.'},
		{role: 'user', content: 'Go on.'},
	];
	const turn = async () => {
		await pool.call(spec, 'before_turn', {messages});
	};

	try {
		for (let run = 0; run < 5; run++) await turn();
		const changed: number[] = [];
		const unchanged: number[] = [];
		for (let run = 0; run < TURNS; run++) {
			touchAll();
			changed.push(await timeAsync(turn));
			unchanged.push(await timeAsync(turn));
		}

		console.log('');
		console.log(`| skills before_turn, ${SKILLS} skills in one root (${TURNS} turns, medians) | ms |`);
		console.log('|---|---:|');
		console.log(`| every SKILL.md changed since the last turn: all read and parsed (baseline) | ${median(changed).toFixed(2)} |`);
		console.log(`| none changed: each only looked at | ${median(unchanged).toFixed(2)} |`);
	} finally {
		await pool.close();
		rmSync(root, {recursive: true, force: true});
	}
}
