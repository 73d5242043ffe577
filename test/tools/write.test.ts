import assert from 'node:assert/strict';
import {chmod, lstat, mkdir, readFile, readdir, stat, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {ToolInputError, ToolRunError} from '../../source/core/tools/types.js';
import {createWriteTool} from '../../source/core/tools/write.js';
import {run, tempDir, toolContext} from './helpers.js';

const write = createWriteTool();

test('write creates files and missing folders, always asking first', async t => {
	const dir = await tempDir(t);
	const planned = await write.plan(
		{
			files: [
				{path: 'deep/er/new.txt', content: 'one\ntwo\n'},
				{path: 'top.txt', content: 'x'},
			],
		},
		toolContext(dir),
	);
	assert.equal(planned.ask?.title, 'Write 2 files: deep/er/new.txt, top.txt');
	assert.match(planned.ask!.detail, /^deep\/er\/new\.txt: new file, 2 lines\none\ntwo\n/);
	assert.match(planned.ask!.detail, /top\.txt: new file, 1 line\nx$/);

	const result = await planned.run();
	assert.equal(result.output, ['Wrote deep/er/new.txt: 8 bytes, 2 lines (new file)', 'Wrote top.txt: 1 byte, 1 line (new file)'].join('\n'));
	assert.equal(await readFile(join(dir, 'deep/er/new.txt'), 'utf8'), 'one\ntwo\n');
	assert.equal(await readFile(join(dir, 'top.txt'), 'utf8'), 'x');
});

test("a new file's approval shows every line of it, whole: nothing is approved unseen", async t => {
	const dir = await tempDir(t);
	const content = Array.from({length: 300}, (_, index) => `${index + 1} ${'x'.repeat(400)}`).join('\n');
	const planned = await write.plan({files: [{path: 'big.txt', content}]}, toolContext(dir));
	assert.equal(planned.ask!.detail, `big.txt: new file, 300 lines\n${content}`);
});

test('replacing a file shows a unified diff, swaps it atomically and keeps its mode', async t => {
	const dir = await tempDir(t);
	const file = join(dir, 'script.sh');
	await writeFile(file, '#!/bin/sh\necho old\n');
	await chmod(file, 0o751);
	const before = await stat(file);

	const planned = await write.plan({files: [{path: 'script.sh', content: '#!/bin/sh\necho new\n'}]}, toolContext(dir));
	assert.equal(planned.ask?.title, 'Write 1 file: script.sh');
	assert.equal(planned.ask?.detail, '--- script.sh\n+++ script.sh\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-echo old\n+echo new');
	const result = await planned.run();
	assert.equal(result.output, 'Wrote script.sh: 19 bytes, 2 lines (replaced)');

	const after = await stat(file);
	assert.equal(after.mode & 0o7777, 0o751);
	assert.notEqual(after.ino, before.ino, 'replaced by rename, not rewritten in place');
	assert.deepEqual(await readdir(dir), ['script.sh'], 'no temp file left behind');
});

test('writing through a symlink replaces the target and keeps the link', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'real.txt'), 'old');
	await symlink(join(dir, 'real.txt'), join(dir, 'alias.txt'));
	await run(write, {files: [{path: 'alias.txt', content: 'new'}]}, toolContext(dir));
	assert.equal(await readFile(join(dir, 'real.txt'), 'utf8'), 'new');
	assert.ok((await lstat(join(dir, 'alias.txt'))).isSymbolicLink());
});

test('write refuses to run when a file changed after the approval was asked, and writes nothing', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'a.txt'), 'original');
	const planned = await write.plan(
		{
			files: [
				{path: 'b.txt', content: 'B'},
				{path: 'a.txt', content: 'mine'},
			],
		},
		toolContext(dir),
	);
	await writeFile(join(dir, 'a.txt'), 'someone else');
	await assert.rejects(planned.run(), (error: unknown) => {
		assert.ok(error instanceof ToolRunError);
		assert.match(error.message, /^write: a\.txt changed since the write was planned/);
		return true;
	});
	assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'someone else');
	await assert.rejects(stat(join(dir, 'b.txt')), {code: 'ENOENT'});
});

test('a new file that appeared after planning also counts as a change', async t => {
	const dir = await tempDir(t);
	const planned = await write.plan({files: [{path: 'n.txt', content: 'mine'}]}, toolContext(dir));
	await writeFile(join(dir, 'n.txt'), 'theirs');
	await assert.rejects(planned.run(), ToolRunError);
	assert.equal(await readFile(join(dir, 'n.txt'), 'utf8'), 'theirs');
});

test('write refuses folders, duplicate paths, and marks files outside the workspace', async t => {
	const dir = await tempDir(t);
	const outside = await tempDir(t);
	await mkdir(join(dir, 'folder'));
	await assert.rejects(write.plan({files: [{path: 'folder', content: ''}]}, toolContext(dir)), {
		name: 'ToolInputError',
		message: 'write: folder is a folder; give a file path',
	});
	await assert.rejects(
		write.plan(
			{
				files: [
					{path: 'x.txt', content: ''},
					{path: './x.txt', content: ''},
				],
			},
			toolContext(dir),
		),
		ToolInputError,
	);
	const planned = await write.plan({files: [{path: join(outside, 'o.txt'), content: 'o'}]}, toolContext(dir));
	assert.equal(planned.ask?.title, `Write 1 file (1 outside the workspace): ${join(outside, 'o.txt')}`);
});

test('an unchanged file says so in the approval', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'same.txt'), 'same\n');
	const planned = await write.plan({files: [{path: 'same.txt', content: 'same\n'}]}, toolContext(dir));
	assert.equal(planned.ask?.detail, 'same.txt: unchanged (same content)');
});
