import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {mkdir, symlink, truncate, writeFile} from 'node:fs/promises';
import {promisify} from 'node:util';
import {join} from 'node:path';
import {test} from 'node:test';
import {createReadTool} from '../../source/core/tools/read.js';
import {run, tempDir, toolContext} from './helpers.js';

const read = createReadTool();

function lines(count: number, from = 1): string {
	return Array.from({length: count}, (_, index) => `line ${from + index}`).join('\n') + '\n';
}

test('read returns a header and cat -n style numbered lines, without asking inside the workspace', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'a.txt'), 'first\n\tsecond\n');
	const result = await run(read, {files: [{path: 'a.txt'}]}, toolContext(dir));
	assert.equal(result.ask, null);
	assert.equal(result.output, '==> a.txt <==\n     1\tfirst\n     2\t\tsecond');
	assert.notEqual(result.isError, true);
});

test('read pages with offset and limit and says how to continue', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'long.txt'), lines(3000));
	const first = await run(read, {files: [{path: 'long.txt'}]}, toolContext(dir, {outputLimit: 1_000_000}));
	const firstLines = first.output.split('\n');
	assert.equal(firstLines.length, 1 + 2000 + 1);
	assert.equal(firstLines[2000], '  2000\tline 2000');
	assert.equal(firstLines.at(-1), '… 1000 more lines; read with offset=2001');

	const rest = await run(read, {files: [{path: 'long.txt', offset: 2001}]}, toolContext(dir, {outputLimit: 1_000_000}));
	assert.ok(rest.output.startsWith('==> long.txt <==\n  2001\tline 2001\n'));
	assert.ok(rest.output.endsWith('  3000\tline 3000'));

	const window = await run(read, {files: [{path: 'long.txt', offset: 10, limit: 2}]}, toolContext(dir));
	assert.equal(window.output, '==> long.txt <==\n    10\tline 10\n    11\tline 11\n… 2989 more lines; read with offset=12');
});

test('read reports an offset past the end', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'short.txt'), lines(3));
	const result = await run(read, {files: [{path: 'short.txt', offset: 4}]}, toolContext(dir));
	assert.equal(result.isError, true);
	assert.match(result.output, /short\.txt has 3 lines; offset 4 is past the end/);
});

test('read cuts lines over 2000 characters with a marker and shows CRLF lines without the CR', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'wide.txt'), `${'w'.repeat(2500)}\r\nshort\r\n`);
	const result = await run(read, {files: [{path: 'wide.txt'}]}, toolContext(dir));
	const [, wide, short] = result.output.split('\n');
	assert.equal(wide, `     1\t${'w'.repeat(2000)} … [line cut: 500 more characters]`);
	assert.equal(short, '     2\tshort');
});

test('read stops at its share of the output limit and says where to continue', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'long.txt'), lines(500));
	const result = await run(read, {files: [{path: 'long.txt'}]}, toolContext(dir, {outputLimit: 400}));
	assert.ok(result.output.length <= 400 + 80);
	assert.match(result.output, /… \d+ more lines \(output limit reached\); read with offset=\d+$/);
});

test('read refuses folders, binary files, missing files and files over 10 MiB, each in its own section', async t => {
	const dir = await tempDir(t);
	await mkdir(join(dir, 'folder'));
	await writeFile(join(dir, 'blob.bin'), Buffer.from([0x41, 0x00, 0x42]));
	await writeFile(join(dir, 'huge.txt'), '');
	await truncate(join(dir, 'huge.txt'), 10 * 1024 * 1024 + 1);
	await writeFile(join(dir, 'ok.txt'), 'fine\n');
	const result = await run(read, {files: [{path: 'folder'}, {path: 'blob.bin'}, {path: 'missing.txt'}, {path: 'huge.txt'}, {path: 'ok.txt'}]}, toolContext(dir));
	assert.notEqual(result.isError, true, 'one file succeeded');
	const sections = result.output.split('\n\n');
	assert.equal(sections.length, 5);
	assert.match(sections[0]!, /^==> folder <==\nError: folder is a folder; use glob/);
	assert.match(sections[1]!, /Error: blob\.bin is a binary file/);
	assert.match(sections[2]!, /Error: missing\.txt does not exist/);
	assert.match(sections[3]!, /Error: huge\.txt is 10 MiB \(10485761 bytes\), over the 10 MiB limit; use search/);
	assert.equal(sections[4], '==> ok.txt <==\n     1\tfine');
});

test('a file of exactly 10 MiB is read', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'big.txt'), Buffer.alloc(10 * 1024 * 1024, 'a'));
	const result = await run(read, {files: [{path: 'big.txt', limit: 1}]}, toolContext(dir));
	assert.notEqual(result.isError, true);
	assert.match(result.output, / … \[line cut: \d+ more characters\]/);
});

test('read is an error only when every file failed', async t => {
	const dir = await tempDir(t);
	const result = await run(read, {files: [{path: 'nope'}, {path: 'nada'}]}, toolContext(dir));
	assert.equal(result.isError, true);
});

test('read asks before reading outside the workspace, also through a symlink', async t => {
	const dir = await tempDir(t);
	const outside = await tempDir(t);
	await writeFile(join(outside, 'secret.txt'), 'hidden\n');
	await symlink(join(outside, 'secret.txt'), join(dir, 'link.txt'));
	await symlink(outside, join(dir, 'linked-folder'));

	const direct = await read.plan({files: [{path: join(outside, 'secret.txt')}]}, toolContext(dir));
	assert.deepEqual(direct.ask, {title: `Read outside the workspace: ${join(outside, 'secret.txt')}`, detail: join(outside, 'secret.txt')});

	const viaLink = await read.plan({files: [{path: 'link.txt'}]}, toolContext(dir));
	assert.equal(viaLink.ask?.title, `Read outside the workspace: ${join(outside, 'secret.txt')}`);
	assert.equal(viaLink.ask?.detail, `${join(dir, 'link.txt')} → ${join(outside, 'secret.txt')}`);

	const viaFolder = await read.plan({files: [{path: 'linked-folder/secret.txt'}]}, toolContext(dir));
	assert.ok(viaFolder.ask);
	assert.equal((await viaLink.run()).output, '==> link.txt <==\n     1\thidden');
});

test('a symlink inside the workspace pointing inside needs no approval', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'real.txt'), 'x\n');
	await symlink(join(dir, 'real.txt'), join(dir, 'alias.txt'));
	const planned = await read.plan({files: [{path: 'alias.txt'}]}, toolContext(dir));
	assert.equal(planned.ask, null);
});

test('an empty file says so', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'empty.txt'), '');
	const result = await run(read, {files: [{path: 'empty.txt'}]}, toolContext(dir));
	assert.equal(result.output, '==> empty.txt <==\n(empty file)');
});

test('20 files may be read at once, 21 are refused', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'f.txt'), 'x\n');
	const twenty = await run(read, {files: Array.from({length: 20}, () => ({path: 'f.txt'}))}, toolContext(dir));
	assert.equal(twenty.output.split('\n\n').length, 20);
	await assert.rejects(read.plan({files: Array.from({length: 21}, () => ({path: 'f.txt'}))}, toolContext(dir)), {
		name: 'ToolInputError',
		message: 'read: files must list at most 20 items (got 21)',
	});
});

test('a line of exactly 2000 characters is whole; 2001 is cut', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'edge.txt'), `${'e'.repeat(2000)}\n${'f'.repeat(2001)}\n`);
	const result = await run(read, {files: [{path: 'edge.txt'}]}, toolContext(dir));
	const [, exact, over] = result.output.split('\n');
	assert.equal(exact, `     1\t${'e'.repeat(2000)}`);
	assert.equal(over, `     2\t${'f'.repeat(2000)} … [line cut: 1 more characters]`);
});

/** Reads `files` in a fresh process, so the test runner's own memory does not blur the figures. */
async function measuredRead(workspace: string, files: Array<{path: string; offset?: number; limit?: number}>): Promise<{ms: number; growth: number; output: string}> {
	const script = `
		import {createReadTool} from ${JSON.stringify(new URL('../../source/core/tools/read.js', import.meta.url).href)};
		const before = process.memoryUsage().rss;
		const started = performance.now();
		const planned = await createReadTool().plan({files: ${JSON.stringify(files)}}, {workspace: ${JSON.stringify(workspace)}, signal: new AbortController().signal, outputLimit: 100000});
		const result = await planned.run();
		const ms = performance.now() - started;
		// The peak, not the figure after: memory freed again by the end still had to be there.
		const growth = process.resourceUsage().maxRSS * 1024 - before;
		console.log(JSON.stringify({ms, growth, output: result.output}));
	`;
	const {stdout} = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
	return JSON.parse(stdout) as {ms: number; growth: number; output: string};
}

test('reading a few lines of a 10 MiB file of 2.5 million short lines is quick and takes little memory, also 20 times over', async t => {
	const dir = await tempDir(t);
	const count = 2_500_000;
	await writeFile(join(dir, 'many.txt'), Buffer.alloc(count * 4, 'abc\n'));
	const section = ['==> many.txt <==', ...Array.from({length: 10}, (_, index) => `${String(index + 5).padStart(6)}\tabc`), `… ${count - 14} more lines; read with offset=15`].join('\n');
	const mb = 1024 * 1024;

	const one = await measuredRead(dir, [{path: 'many.txt', offset: 5, limit: 10}]);
	assert.equal(one.output, section);
	assert.ok(one.ms < 1000, `took ${Math.round(one.ms)} ms`);
	assert.ok(one.growth < 100 * mb, `peak memory grew by ${Math.round(one.growth / mb)} MB`);

	// Twenty such files are read one after another, not all held at once.
	const twenty = await measuredRead(
		dir,
		Array.from({length: 20}, () => ({path: 'many.txt', offset: 5, limit: 10})),
	);
	assert.equal(twenty.output, Array.from({length: 20}, () => section).join('\n\n'));
	assert.ok(twenty.growth < 100 * mb, `peak memory grew by ${Math.round(twenty.growth / mb)} MB`);
});
