import assert from 'node:assert/strict';
import {chmod, readFile, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {createEditTool} from '../../source/core/tools/edit.js';
import {ToolInputError, ToolRunError} from '../../source/core/tools/types.js';
import {tempDir, toolContext} from './helpers.js';

const edit = createEditTool();

async function inputError(args: Record<string, unknown>, workspace: string): Promise<string> {
	const error: unknown = await edit.plan(args, toolContext(workspace)).then(
		() => assert.fail('expected a ToolInputError'),
		(error_: unknown) => error_,
	);
	assert.ok(error instanceof ToolInputError, String(error));
	return error.message;
}

test('edit replaces one exact match after asking with the diff', async t => {
	const dir = await tempDir(t);
	const file = join(dir, 'app.ts');
	await writeFile(file, 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
	await chmod(file, 0o640);
	const planned = await edit.plan({path: 'app.ts', old_text: 'const b = 2;', new_text: 'const b = 20;\nconst bb = 21;'}, toolContext(dir));
	assert.equal(planned.ask?.title, 'Edit app.ts');
	assert.equal(planned.ask?.detail, '--- app.ts\n+++ app.ts\n@@ -1,3 +1,4 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n+const bb = 21;\n const c = 3;');
	const result = await planned.run();
	assert.equal(result.output, 'Edited app.ts: 1 replacement, +2 −1 lines from line 2');
	assert.equal(await readFile(file, 'utf8'), 'const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
	assert.equal((await stat(file)).mode & 0o7777, 0o640);
});

test('no match is an input error with a hint to re-read, and a whitespace hint when only whitespace differs', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'a.py'), 'def f():\n    return 1\n');
	const missing = await inputError({path: 'a.py', old_text: 'return 2', new_text: 'x'}, dir);
	assert.match(missing, /^edit: old_text was not found in a\.py\. It must match the file exactly, including whitespace and indentation; read the file again/);
	const indented = await inputError({path: 'a.py', old_text: 'def f():\n  return 1', new_text: 'x'}, dir);
	assert.match(indented, /different whitespace or indentation/);
});

test('several matches need more context or replace_all', async t => {
	const dir = await tempDir(t);
	const file = join(dir, 'm.txt');
	await writeFile(file, 'x = 1\nx = 1\nx = 1\n');
	const message = await inputError({path: 'm.txt', old_text: 'x = 1', new_text: 'x = 2'}, dir);
	assert.equal(message, 'edit: old_text matches 3 times in m.txt; add surrounding lines to make it unique, or set replace_all to true to replace all 3');

	const planned = await edit.plan({path: 'm.txt', old_text: 'x = 1', new_text: 'x = 2', replace_all: true}, toolContext(dir));
	const result = await planned.run();
	assert.match(result.output, /^Edited m\.txt: 3 replacements, \+3 −3 lines from line 1$/);
	assert.equal(await readFile(file, 'utf8'), 'x = 2\nx = 2\nx = 2\n');
});

test('replacement text is literal, $ patterns included', async t => {
	const dir = await tempDir(t);
	const file = join(dir, 'd.txt');
	await writeFile(file, 'price: X\n');
	await (await edit.plan({path: 'd.txt', old_text: 'X', new_text: "$& $1 $$ $'"}, toolContext(dir))).run();
	assert.equal(await readFile(file, 'utf8'), "price: $& $1 $$ $'\n");
});

test('a CRLF file stays CRLF when old_text and new_text use plain newlines', async t => {
	const dir = await tempDir(t);
	const file = join(dir, 'win.txt');
	await writeFile(file, 'one\r\ntwo\r\nthree\r\n');
	const planned = await edit.plan({path: 'win.txt', old_text: 'one\ntwo', new_text: 'uno\ndos\ndos bis'}, toolContext(dir));
	assert.doesNotMatch(planned.ask!.detail, /\r/, 'the approval diff shows no carriage returns');
	await planned.run();
	assert.equal(await readFile(file, 'utf8'), 'uno\r\ndos\r\ndos bis\r\nthree\r\n');
});

test('a BOM survives an edit and non-UTF-8 files are refused', async t => {
	const dir = await tempDir(t);
	const bom = join(dir, 'bom.txt');
	await writeFile(bom, '\uFEFFhello\n');
	await (await edit.plan({path: 'bom.txt', old_text: 'hello', new_text: 'bye'}, toolContext(dir))).run();
	assert.deepEqual([...(await readFile(bom)).subarray(0, 3)], [0xef, 0xbb, 0xbf]);

	await writeFile(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
	assert.match(await inputError({path: 'latin1.txt', old_text: 'caf', new_text: 'x'}, dir), /not valid UTF-8/);
});

test('edit fails without writing when the file changed between plan and run', async t => {
	const dir = await tempDir(t);
	const file = join(dir, 'race.txt');
	await writeFile(file, 'alpha\nbeta\n');
	const planned = await edit.plan({path: 'race.txt', old_text: 'beta', new_text: 'gamma'}, toolContext(dir));
	// Same length, same line: only the bytes differ.
	await writeFile(file, 'alpha\nbetA\n');
	await assert.rejects(planned.run(), (error: unknown) => {
		assert.ok(error instanceof ToolRunError);
		assert.equal(error.message, 'edit: race.txt changed since the edit was planned (after approval was asked); read it again and redo the edit');
		return true;
	});
	assert.equal(await readFile(file, 'utf8'), 'alpha\nbetA\n');
});

test('edit explains missing files, identical text and outside paths', async t => {
	const dir = await tempDir(t);
	const outside = await tempDir(t);
	assert.equal(await inputError({path: 'nope.txt', old_text: 'a', new_text: 'b'}, dir), 'edit: nope.txt does not exist; use write to create a file');
	await writeFile(join(dir, 's.txt'), 'same');
	assert.match(await inputError({path: 's.txt', old_text: 'same', new_text: 'same'}, dir), /new_text is the same as old_text/);
	await writeFile(join(outside, 'o.txt'), 'out');
	const planned = await edit.plan({path: join(outside, 'o.txt'), old_text: 'out', new_text: 'in'}, toolContext(dir));
	assert.equal(planned.ask?.title, `Edit ${join(outside, 'o.txt')} (outside the workspace)`);
});
