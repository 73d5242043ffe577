import assert from 'node:assert/strict';
import {mkdir, symlink, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {test} from 'node:test';
import {MAX_WALK_ENTRIES, MAX_WALK_FILES, SKIPPED_DIRECTORIES, walkFiles} from '../../source/core/tools/walk.js';
import {tempDir} from './helpers.js';

test('the limits are the numbers of spec/platform.md §9', () => {
	assert.equal(MAX_WALK_FILES, 10_000);
	assert.equal(MAX_WALK_ENTRIES, 20_000);
	for (const name of ['node_modules', 'dist', 'build', 'out', 'target', 'vendor', '__pycache__', '.git', 'coverage', '.next', 'venv']) {
		assert.ok(SKIPPED_DIRECTORIES.has(name), name);
	}
});

test('walkFiles lists regular files sorted, skipping hidden, skipped folders and symlinks', async t => {
	const dir = await tempDir(t);
	for (const name of ['b.txt', 'a/c.txt', 'a/.d.txt', '.e/f.txt', 'build/g.txt', 'a/__pycache__/h.pyc', 'z/y/x.txt']) {
		await mkdir(dirname(join(dir, name)), {recursive: true});
		await writeFile(join(dir, name), '');
	}

	await symlink(join(dir, 'b.txt'), join(dir, 'link.txt'));
	await symlink(join(dir, 'z'), join(dir, 'link-dir'));
	const result = await walkFiles(dir, new AbortController().signal);
	assert.deepEqual(
		result.files.map(file => file.relative),
		['a/c.txt', 'b.txt', 'z/y/x.txt'],
	);
	assert.equal(result.files[0]!.absolute, join(dir, 'a/c.txt'));
	assert.equal(result.stoppedBy, null);
});

test('walkFiles walks a skipped folder when it is the root', async t => {
	const dir = await tempDir(t);
	await mkdir(join(dir, 'node_modules'));
	await writeFile(join(dir, 'node_modules', 'x.js'), '');
	const result = await walkFiles(join(dir, 'node_modules'), new AbortController().signal);
	assert.deepEqual(
		result.files.map(file => file.relative),
		['x.js'],
	);
});

test('walkFiles stops when the signal is aborted', async t => {
	const dir = await tempDir(t);
	const controller = new AbortController();
	controller.abort();
	await assert.rejects(walkFiles(dir, controller.signal), {name: 'AbortError'});
});

test('walkFiles lists the folders it walked into and asks skip only about names its own rules keep', async t => {
	const dir = await tempDir(t);
	for (const name of ['keep/a.txt', 'drop/b.txt', 'node_modules/c.js', '.hidden/d.txt', 'e.log', 'f.txt']) {
		await mkdir(dirname(join(dir, name)), {recursive: true});
		await writeFile(join(dir, name), '');
	}

	const asked: string[] = [];
	const result = await walkFiles(dir, new AbortController().signal, {
		skip(relative, isDirectory) {
			asked.push(`${relative}${isDirectory ? '/' : ''}`);
			return relative === 'drop' || relative.endsWith('.log');
		},
	});
	assert.deepEqual(
		result.files.map(file => file.relative),
		['f.txt', 'keep/a.txt'],
	);
	assert.deepEqual(result.directories, ['keep']);
	assert.deepEqual(asked.sort(), ['drop/', 'e.log', 'f.txt', 'keep/', 'keep/a.txt']);
});
