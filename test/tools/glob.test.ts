import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {mkdir, symlink, utimes, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {test} from 'node:test';
import {createGlobTool} from '../../source/core/tools/glob.js';
import {ToolInputError} from '../../source/core/tools/types.js';
import {run, tempDir, toolContext} from './helpers.js';

const glob = createGlobTool();

async function files(root: string, names: readonly string[]): Promise<void> {
	for (const [index, name] of names.entries()) {
		const file = join(root, name);
		await mkdir(dirname(file), {recursive: true});
		await writeFile(file, name);
		// Later names are newer, so the expected order is the reverse of the list.
		const time = new Date(Date.UTC(2024, 0, 1) + index * 60_000);
		await utimes(file, time, time);
	}
}

test('glob lists matching files newest first without asking', async t => {
	const dir = await tempDir(t);
	await files(dir, ['a.ts', 'src/b.ts', 'src/deep/c.ts', 'src/d.js', 'e.md']);
	const result = await run(glob, {pattern: '**/*.ts'}, toolContext(dir));
	assert.equal(result.ask, null);
	assert.equal(result.output, 'src/deep/c.ts\nsrc/b.ts\na.ts\n(3 files)');

	const top = await run(glob, {pattern: '*.ts'}, toolContext(dir));
	assert.equal(top.output, 'a.ts\n(1 file)');

	const braces = await run(glob, {pattern: 'src/*.{js,ts}'}, toolContext(dir));
	assert.equal(braces.output, 'src/d.js\nsrc/b.ts\n(2 files)');
});

test('the pattern is relative to path', async t => {
	const dir = await tempDir(t);
	await files(dir, ['src/b.ts', 'src/deep/c.ts', 'other/x.ts']);
	const result = await run(glob, {pattern: '**/*.ts', path: 'src'}, toolContext(dir));
	assert.equal(result.output, 'src/deep/c.ts\nsrc/b.ts\n(2 files)');
});

test('glob skips hidden files, dependency folders and symlinks unless the pattern names the folder', async t => {
	const dir = await tempDir(t);
	await files(dir, ['.hidden.ts', '.config/x.ts', 'node_modules/pkg/index.ts', 'dist/out.ts', 'real.ts']);
	await symlink(join(dir, 'real.ts'), join(dir, 'link.ts'));
	await symlink(join(dir, 'node_modules'), join(dir, 'linked-dir'));
	const result = await run(glob, {pattern: '**/*.ts'}, toolContext(dir));
	assert.equal(result.output, 'real.ts\n(1 file)');

	const named = await run(glob, {pattern: 'node_modules/pkg/*.ts'}, toolContext(dir));
	assert.equal(named.output, 'node_modules/pkg/index.ts\n(1 file)');
});

test('no match explains how patterns without a slash work', async t => {
	const dir = await tempDir(t);
	await files(dir, ['src/b.ts']);
	const result = await run(glob, {pattern: '*.ts'}, toolContext(dir));
	assert.equal(result.output, 'No files match "*.ts" in .; the pattern matches names directly in . only, use "**/*.ts" for any depth');
});

test('at most 1000 files are listed, with a note of how many more matched', async t => {
	const dir = await tempDir(t);
	for (let index = 0; index < 1001; index++) {
		writeFileSync(join(dir, `f${index}.txt`), '');
	}

	const result = await run(glob, {pattern: '*.txt'}, toolContext(dir, {outputLimit: 1_000_000}));
	const lines = result.output.split('\n');
	assert.equal(lines.length, 1001);
	assert.equal(lines.at(-1), '… and 1 more file (1001 match; the 1000 newest are listed); narrow the pattern or path');
});

test('glob asks outside the workspace and refuses a file as path', async t => {
	const dir = await tempDir(t);
	const outside = await tempDir(t);
	await files(dir, ['a.ts']);
	const planned = await glob.plan({pattern: '*', path: outside}, toolContext(dir));
	assert.equal(planned.ask?.title, `Glob outside the workspace: ${outside}`);
	const viaParent = await glob.plan({pattern: '../*'}, toolContext(join(dir)));
	assert.ok(viaParent.ask, 'a pattern climbing out of the workspace asks too');
	await assert.rejects(glob.plan({pattern: '*', path: 'a.ts'}, toolContext(dir)), ToolInputError);
	await assert.rejects(glob.plan({pattern: '/etc/*'}, toolContext(dir)), /pattern must be relative/);
});
