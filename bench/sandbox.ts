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
		// With an allowed domain the proxy's bridge runs first and the command in a second bubblewrap (sandbox-command.ts).
		const proxied = new ShellSandbox({workspace: root, configDir: join(root, '.no-config')}, () => {});
		proxied.configure({enabled: true, off: null, allowWrite: [], allowedDomains: ['example.com']});
		const plain = createShellTool(undefined, off);
		const rows = [
			{name: '`true`', command: 'true', sandboxed: createShellTool(undefined, sandbox)},
			{name: `\`git status --short\` in a ${FOLDERS * FILES_PER_FOLDER}-file repository`, command: 'git status --short', sandboxed: createShellTool(undefined, sandbox)},
			{name: '`true` with `sandbox.allowedDomains` (the proxy bridge)', command: 'true', sandboxed: createShellTool(undefined, proxied)},
		];
		const context = {workspace: root, signal: new AbortController().signal, outputLimit: 64_000};
		console.log('');
		console.log(`| shell tool call (${RUNS} runs, alternated, medians) | sandboxed ms | unsandboxed ms (baseline) | added ms |`);
		console.log('|---|---:|---:|---:|');
		try {
			for (const row of rows) {
				const times = {sandboxed: [] as number[], plain: [] as number[]};
				for (let run = 0; run < RUNS; run++) {
					for (const kind of ['sandboxed', 'plain'] as const) {
						const tool = kind === 'plain' ? plain : row.sandboxed;
						times[kind].push(
							await timeAsync(async () => {
								const planned = await tool.plan({command: row.command}, context);
								const result = await planned.run();
								if (result.isError) throw new Error(`${row.command} failed (${kind}): ${result.output}`);
							}),
						);
					}
				}

				const [sandboxed, unsandboxed] = [median(times.sandboxed), median(times.plain)];
				console.log(`| ${row.name} | ${sandboxed.toFixed(1)} | ${unsandboxed.toFixed(1)} | ${(sandboxed - unsandboxed).toFixed(1)} |`);
			}
		} finally {
			await proxied.close();
		}
	} finally {
		rmSync(root, {recursive: true, force: true});
	}
}
