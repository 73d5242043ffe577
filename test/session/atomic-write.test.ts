import assert from 'node:assert/strict';
import {mkdir, readdir, readFile, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {writeFileAtomic} from '../../source/core/fs/atomic-write.js';
import {tempWorkspace} from './helpers.js';

test('writeFileAtomic creates and replaces a file, leaving no temp file', async t => {
	const dir = await tempWorkspace(t);
	const path = join(dir, 'config.json');
	await writeFileAtomic(path, 'one');
	assert.equal(await readFile(path, 'utf8'), 'one');
	await writeFileAtomic(path, new TextEncoder().encode('two ✓'));
	assert.equal(await readFile(path, 'utf8'), 'two ✓');
	assert.deepEqual(await readdir(dir), ['config.json']);
});

test('writeFileAtomic applies the mode to a new file', async t => {
	const dir = await tempWorkspace(t);
	const path = join(dir, 'secret');
	await writeFileAtomic(path, 'x', {mode: 0o600});
	assert.equal((await stat(path)).mode & 0o777, 0o600);
});

test('writeFileAtomic removes its temp file when the rename fails and leaves the target as it was', async t => {
	const dir = await tempWorkspace(t);
	const target = join(dir, 'taken');
	await mkdir(target);
	await writeFile(join(target, 'inside'), 'keep');
	await assert.rejects(writeFileAtomic(target, 'data'));
	assert.deepEqual(await readdir(dir), ['taken']);
	assert.equal(await readFile(join(target, 'inside'), 'utf8'), 'keep');
});

test('writeFileAtomic fails clearly when the folder does not exist', async t => {
	const dir = await tempWorkspace(t);
	await assert.rejects(writeFileAtomic(join(dir, 'missing', 'file'), 'x'), {code: 'ENOENT'});
});

test('writeFileAtomic writes chunks from an async iterable in order', async t => {
	const dir = await tempWorkspace(t);
	const path = join(dir, 'chunks');
	async function* chunks() {
		for (const text of ['one ', 'two ', '✓']) yield new TextEncoder().encode(text);
	}
	await writeFileAtomic(path, chunks(), {mode: 0o600});
	assert.equal(await readFile(path, 'utf8'), 'one two ✓');
	assert.deepEqual(await readdir(dir), ['chunks']);
});

test('an exclusive write never replaces a file that exists, and leaves no temp file', async t => {
	const dir = await tempWorkspace(t);
	const path = join(dir, 'once.json');
	await writeFileAtomic(path, 'first', {exclusive: true});
	await assert.rejects(writeFileAtomic(path, 'second', {exclusive: true}), {code: 'EEXIST'});
	assert.equal(await readFile(path, 'utf8'), 'first');
	assert.deepEqual(await readdir(dir), ['once.json']);
});
