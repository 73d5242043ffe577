// i dev's loop against real package folders: builds with the package's own
// build script (npm), staged copies under .i/extensions/.dev/, the watcher
// rebuilding on change, a broken edit keeping the loaded copy (issue 14
// item 7). The chat screen's side (reloading each build) is not here.
import {spawn} from 'node:child_process';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {hostname, tmpdir} from 'node:os';
import {join} from 'node:path';
import {createDevLoop, type StartedDevLoop} from '../../source/core/extensions/dev/create-dev-loop.js';
import {findDevPackage, type DevPackage} from '../../source/core/extensions/dev/dev-package.js';
import {resolveEntryPoint} from '../../source/core/extensions/entry-point.js';
import {OWNER_FILE} from '../../source/core/extensions/dev/staging-area.js';
import type {DevBuild} from '../../source/core/extensions/dev-loop.js';

function tempDir(): string {
	return realpathSync(mkdtempSync(join(tmpdir(), 'i-dev-')));
}

/** A package whose build script copies src/index.js to dist/index.js, failing when the source says BROKEN. */
function scriptPackage(root: string, source = tool('one')): string {
	const folder = join(root, 'pkg');
	mkdirSync(join(folder, 'src'), {recursive: true});
	writeFileSync(join(folder, 'package.json'), JSON.stringify({name: 'watched-ext', type: 'module', main: 'dist/index.js', scripts: {build: 'node build.mjs'}}));
	writeFileSync(
		join(folder, 'build.mjs'),
		`import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
const source = readFileSync('src/index.js', 'utf8');
if (source.includes('BROKEN')) { console.error('src/index.js: cannot build a BROKEN source'); process.exit(1); }
mkdirSync('dist', {recursive: true});
writeFileSync('dist/index.js', source);
writeFileSync('tsconfig.tsbuildinfo', String(Date.now()));
`,
	);
	writeFileSync(join(folder, 'src', 'index.js'), source);
	return folder;
}

const tool = (name: string) => `export default function register(api) { api.registerTool({name: '${name}', description: 'd', parameters: {type: 'object'}, execute: () => ({output: '${name}'})}); }\n`;

async function devPackage(folder: string): Promise<DevPackage> {
	const found = await findDevPackage(folder, undefined);
	assert.equal(found.kind, 'package');
	return (found as {package: DevPackage}).package;
}

/** The builds the watcher reports, and a way to wait for the next. */
function recordBuilds(loop: StartedDevLoop) {
	const builds: DevBuild[] = [];
	const waiting: Array<() => void> = [];
	loop.onBuild(build => {
		builds.push(build);
		for (const wake of waiting.splice(0)) wake();
	});
	return {
		builds,
		async next(count: number, timeoutMs = 15_000): Promise<DevBuild> {
			const deadline = Date.now() + timeoutMs;
			while (builds.length < count) {
				if (Date.now() > deadline) throw new Error(`no build ${count} within ${timeoutMs} ms (${builds.length} so far)`);
				await new Promise<void>(resolve => {
					waiting.push(resolve);
					setTimeout(resolve, 100);
				});
			}

			return builds[count - 1]!;
		},
	};
}

const staged = (workspace: string) => join(workspace, '.i', 'extensions', '.dev');
const copies = (workspace: string) =>
	readdirSync(staged(workspace))
		.filter(name => !name.startsWith('.') && !name.endsWith('.lock'))
		.sort();

test('the first build is staged as a versioned copy the loader accepts; a change rebuilds into a new copy and onBuild says so', async () => {
	const root = tempDir();
	const folder = scriptPackage(root);
	const workspace = join(root, 'ws');
	mkdirSync(workspace);
	const loop = await createDevLoop({package: await devPackage(folder), workspace, watch: true});
	try {
		assert.equal(loop.first, join(staged(workspace), 'watched-ext-1'));
		assert.ok(loop.firstMs > 0);
		const entry = await resolveEntryPoint(loop.first);
		assert.deepEqual(entry, {file: join(loop.first, 'dist', 'index.js'), name: 'watched-ext'});
		// The copy holds package.json and the build's output, not the sources or the build script.
		assert.deepEqual(readdirSync(loop.first).sort(), [OWNER_FILE, 'dist', 'package.json']);
		assert.equal(readFileSync(join(staged(workspace), '.gitignore'), 'utf8'), '*\n');
		const builds = recordBuilds(loop);

		writeFileSync(join(folder, 'src', 'index.js'), tool('two'));
		const second = await builds.next(1);
		assert.ok(second.ok, JSON.stringify(second));
		assert.equal(second.path, join(staged(workspace), 'watched-ext-2'));
		assert.match(readFileSync(join(second.path, 'dist', 'index.js'), 'utf8'), /name: 'two'/);
		// The first copy is still there (the chat screen may still have it loaded).
		assert.match(readFileSync(join(loop.first, 'dist', 'index.js'), 'utf8'), /name: 'one'/);

		// The build's own writes (dist/, tsconfig.tsbuildinfo) start no build, and neither does a save of the same bytes.
		writeFileSync(join(folder, 'src', 'index.js'), tool('two'));
		await new Promise(resolve => setTimeout(resolve, 1500));
		assert.equal(builds.builds.length, 1, JSON.stringify(builds.builds));

		// A broken edit: the error, and the loaded copy stays.
		writeFileSync(join(folder, 'src', 'index.js'), `${tool('three')}// BROKEN\n`);
		const broken = await builds.next(2);
		assert.equal(broken.ok, false);
		assert.match((broken as {error: string}).error, /npm run build failed \(exit code 1\) in .*pkg; its output:\n.*cannot build a BROKEN source/s);
		assert.ok(existsSync(join(second.path, 'dist', 'index.js')));
		assert.deepEqual(copies(workspace), ['watched-ext-1', 'watched-ext-2'], 'a failed build leaves no copy');

		// Fixed again, in a new folder of sources: the watcher sees files in folders made after it started.
		mkdirSync(join(folder, 'src', 'lib'));
		writeFileSync(join(folder, 'src', 'lib', 'helper.js'), 'export const x = 1;\n');
		writeFileSync(join(folder, 'src', 'index.js'), tool('four'));
		const fixed = await builds.next(3);
		assert.ok(fixed.ok);
		assert.match(readFileSync(join(fixed.path, 'dist', 'index.js'), 'utf8'), /name: 'four'/);

		// /reload's rebuild: a new copy, returned, not told to the listeners.
		const reloaded = await loop.rebuild();
		assert.ok(reloaded.ok);
		assert.equal(reloaded.path, join(staged(workspace), 'watched-ext-4'));
		await new Promise(resolve => setTimeout(resolve, 500));
		assert.equal(builds.builds.length, 3);
	} finally {
		await loop.close();
	}

	// close() removes every copy it made and its run lock.
	assert.deepEqual(readdirSync(staged(workspace)), ['.gitignore']);
	const afterClose = await loop.rebuild();
	assert.equal(afterClose.ok, false);
});

test('a first build that fails throws its error and leaves nothing staged', async () => {
	const root = tempDir();
	const folder = scriptPackage(root, '// BROKEN\n');
	const workspace = join(root, 'ws');
	mkdirSync(workspace);
	await assert.rejects(createDevLoop({package: await devPackage(folder), workspace, watch: true}), (error: Error) => {
		assert.equal(error.name, 'BuildFailedError');
		assert.match(error.message, /cannot build a BROKEN source/);
		return true;
	});
	assert.deepEqual(readdirSync(staged(workspace)), ['.gitignore']);
});

test('copies of a run that is gone are removed at start; those of a live run are kept and numbered after', async () => {
	const root = tempDir();
	const folder = scriptPackage(root);
	const workspace = join(root, 'ws');
	const area = staged(workspace);
	mkdirSync(area, {recursive: true});
	const lock = (name: string, pid: number) => writeFileSync(join(area, name), `${JSON.stringify({pid, hostname: hostname(), created: new Date().toISOString()})}\n`);
	const copy = (name: string, owner: string | undefined) => {
		mkdirSync(join(area, name));
		writeFileSync(join(area, name, 'package.json'), '{}');
		if (owner) writeFileSync(join(area, name, OWNER_FILE), `${owner}\n`);
	};

	// A crashed run: its lock names a process that is gone. Another run of i dev is alive: a child process holds its lock.
	const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {stdio: 'ignore'});
	lock('run-1-dead.lock', 2 ** 22 + 12_345);
	copy('watched-ext-3', 'run-1-dead.lock');
	copy('other-ext-1', 'run-2-missing.lock');
	lock('run-3-live.lock', other.pid!);
	copy('watched-ext-5', 'run-3-live.lock');
	const loop = await createDevLoop({package: await devPackage(folder), workspace, watch: false}).finally(() => other.kill());
	try {
		assert.deepEqual(copies(workspace), ['watched-ext-5', 'watched-ext-6']);
		assert.equal(loop.first, join(area, 'watched-ext-6'));
		assert.ok(!existsSync(join(area, 'run-1-dead.lock')), 'the dead run lock is gone');
		assert.ok(existsSync(join(area, 'run-3-live.lock')));
	} finally {
		await loop.close();
	}

	assert.deepEqual(copies(workspace), ['watched-ext-5']);
});
