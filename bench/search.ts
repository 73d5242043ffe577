// The built-in `search` tool against ripgrep (issue 6): the same generated
// 10000-file tree, a literal and a regex pattern, wall time per search as
// medians. ripgrep is Debian's `ripgrep`, installed here when missing
// (apt-get, with sudo when not root). The tool runs in-process as the core
// runs it; rg is a process per search, as a person would run it, so its
// start-up (a few ms) is in its figure.
import {execFileSync, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createSearchTool} from '../source/core/tools/search.js';
import {median, timeAsync, timeSync} from './measure.js';

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const RUNS = 9;

function ripgrep(): string | null {
	const found = spawnSync('sh', ['-c', 'command -v rg'], {encoding: 'utf8'});
	if (found.status === 0) return found.stdout.trim();
	const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
	console.log('installing ripgrep (Debian package) for the search benchmark…');
	const install = spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length > 0 ? ['apt-get'] : []), 'install', '-y', '--no-install-recommends', 'ripgrep'], {stdio: 'ignore'});
	if (install.status !== 0) return null;
	const again = spawnSync('sh', ['-c', 'command -v rg'], {encoding: 'utf8'});
	return again.status === 0 ? again.stdout.trim() : null;
}

/** A tree shaped like a source repository: 100 packages of 100 files of about 2 KB. */
function makeTree(root: string): void {
	const line = (folder: number, file: number, row: number) => `export function handle${folder}_${file}_${row}(request: Request): Response { return respond(request, ${row}); }\n`;
	for (let folder = 0; folder < FOLDERS; folder++) {
		const dir = join(root, `pkg${folder}`, 'src');
		mkdirSync(dir, {recursive: true});
		for (let file = 0; file < FILES_PER_FOLDER; file++) {
			let text = '';
			for (let row = 0; row < 20; row++) text += line(folder, file, row);
			if (file % 37 === 0) text += `// TODO: remove the legacy retry path (${folder}/${file})\n`;
			writeFileSync(join(dir, `module${file}.ts`), text);
		}
	}
}

export async function benchSearch(): Promise<void> {
	const rg = ripgrep();
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-bench-search-')));
	try {
		makeTree(root);
		const tool = createSearchTool();
		const context = {workspace: root, signal: new AbortController().signal, outputLimit: 64_000};
		const cases = [
			{name: 'literal "legacy retry path"', args: {pattern: 'legacy retry path', max_results: 1000}, rg: ['--fixed-strings', 'legacy retry path']},
			{name: 'regex "handle\\d+_7_1[0-4]"', args: {pattern: 'handle\\d+_7_1[0-4]', regex: true, max_results: 1000}, rg: ['handle\\d+_7_1[0-4]']},
		];
		console.log('');
		console.log(`| search over ${FOLDERS * FILES_PER_FOLDER} files (${RUNS} runs, medians) | i search ms | ripgrep ms (baseline) | × ripgrep |`);
		console.log('|---|---:|---:|---:|');
		for (const each of cases) {
			const ours: number[] = [];
			const theirs: number[] = [];
			let matches = '';
			for (let run = 0; run < RUNS + 1; run++) {
				const took = await timeAsync(async () => {
					const planned = await tool.plan(each.args, context);
					matches = (await planned.run()).output.split('\n').at(-1) ?? '';
				});
				// The first run of each warms the file cache and the JIT.
				if (run > 0) ours.push(took);
				if (rg) {
					const rgTook = timeSync(() => execFileSync(rg, ['--line-number', '--no-heading', ...each.rg, '.'], {cwd: root, maxBuffer: 64 * 1024 * 1024}));
					if (run > 0) theirs.push(rgTook);
				}
			}

			const ratio = rg ? `${(median(ours) / median(theirs)).toFixed(2)}×` : '—';
			console.log(`| ${each.name} ${matches} | ${median(ours).toFixed(1)} | ${rg ? median(theirs).toFixed(1) : 'ripgrep unavailable'} | ${ratio} |`);
		}

		console.log('');
		console.log("target: the built-in search within 2× ripgrep's wall time");
	} finally {
		rmSync(root, {recursive: true, force: true});
	}
}
