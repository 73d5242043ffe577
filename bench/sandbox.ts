// The sandbox's cost per command (issue 44): the shell tool running `true`
// and `git status` in a 10000-file repository, sandboxed (bubblewrap)
// against unsandboxed, alternated in one run, wall time per call as
// medians; the target is at most 50 ms added per command.
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createShellTool} from '../source/core/tools/shell.js';
import {ShellSandbox} from '../source/core/sandbox/shell-sandbox.js';
import {median, timeAsync} from './measure.js';

const RUNS = 15;
const FOLDERS = 100;
const FILES_PER_FOLDER = 100;

function makeRepository(root: string): void {
	for (let folder = 0; folder < FOLDERS; folder++) {
		const dir = join(root, `pkg${folder}`);
		mkdirSync(dir, {recursive: true});
		for (let file = 0; file < FILES_PER_FOLDER; file++) writeFileSync(join(dir, `file${file}.txt`), `${folder}/${file}\n`);
	}

	const git = (...args: string[]) => execFileSync('git', args, {cwd: root, stdio: 'ignore'});
	git('init', '-q');
	git('add', '-A');
	git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'files');
	// One change, so status has something to say.
	writeFileSync(join(root, 'pkg0', 'file0.txt'), 'changed\n');
}

export async function benchSandbox(): Promise<void> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-sandbox-')));
	try {
		makeRepository(root);
		const sandbox = new ShellSandbox({workspace: root, configDir: join(root, '.no-config')}, message => console.log(`sandbox: ${message}`));
		if (!(await sandbox.ready()).ok) {
			console.log('\n(sandbox table skipped: no sandbox can start here)');
			return;
		}

		const off = new ShellSandbox({workspace: root, configDir: join(root, '.no-config')}, () => {});
		off.configure({enabled: false, off: 'bench', allowWrite: [], allowedDomains: []});
		const tools = {sandboxed: createShellTool(undefined, sandbox), plain: createShellTool(undefined, off)};
		const context = {workspace: root, signal: new AbortController().signal, outputLimit: 64_000};
		console.log('');
		console.log(`| shell tool call (${RUNS} runs, alternated, medians) | sandboxed ms | unsandboxed ms (baseline) | added ms |`);
		console.log('|---|---:|---:|---:|');
		for (const command of ['true', 'git status --short']) {
			const times = {sandboxed: [] as number[], plain: [] as number[]};
			for (let run = 0; run < RUNS; run++) {
				for (const kind of ['sandboxed', 'plain'] as const) {
					times[kind].push(
						await timeAsync(async () => {
							const planned = await tools[kind].plan({command}, context);
							const result = await planned.run();
							if (result.isError) throw new Error(`${command} failed (${kind}): ${result.output}`);
						}),
					);
				}
			}

			const [sandboxed, plain] = [median(times.sandboxed), median(times.plain)];
			const name = command === 'true' ? '`true`' : `\`${command}\` in a ${FOLDERS * FILES_PER_FOLDER}-file repository`;
			console.log(`| ${name} | ${sandboxed.toFixed(1)} | ${plain.toFixed(1)} | ${(sandboxed - plain).toFixed(1)} |`);
		}
	} finally {
		rmSync(root, {recursive: true, force: true});
	}
}
