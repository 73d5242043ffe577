import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {mkdir, symlink, truncate, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {test} from 'node:test';
import {createSearchTool} from '../../source/core/tools/search.js';
import {scanInWorker} from '../../source/core/tools/search-thread.js';
import {ToolInputError} from '../../source/core/tools/types.js';
import {run, tempDir, toolContext} from './helpers.js';

const search = createSearchTool();

async function tree(root: string, files: Record<string, string>): Promise<void> {
	for (const [name, content] of Object.entries(files)) {
		await mkdir(dirname(join(root, name)), {recursive: true});
		await writeFile(join(root, name), content);
	}
}

function matchLines(output: string): string[] {
	return output.split('\n').filter(line => /^[^(].*:\d+: /.test(line));
}

test('search finds literal text and reports path:line: snippet', async t => {
	const dir = await tempDir(t);
	await tree(dir, {'a.txt': 'one\n  a.b here  \naxb\n', 'sub/b.txt': 'nothing\nA.B\n'});
	const result = await run(search, {pattern: 'a.b'}, toolContext(dir));
	assert.equal(result.ask, null);
	assert.equal(result.output, 'a.txt:2: a.b here\nsub/b.txt:2: A.B\n(2 matches in 2 files; 2 files searched)');
});

test('regex mode and smart case', async t => {
	const dir = await tempDir(t);
	await tree(dir, {'c.txt': 'Foo\nfoo\naxb\n'});
	assert.deepEqual(matchLines((await run(search, {pattern: 'a.b', regex: true}, toolContext(dir))).output), ['c.txt:3: axb']);
	assert.deepEqual(matchLines((await run(search, {pattern: 'foo'}, toolContext(dir))).output), ['c.txt:1: Foo', 'c.txt:2: foo']);
	assert.deepEqual(matchLines((await run(search, {pattern: 'Foo'}, toolContext(dir))).output), ['c.txt:1: Foo']);
	assert.deepEqual(matchLines((await run(search, {pattern: 'foo', case_sensitive: true}, toolContext(dir))).output), ['c.txt:2: foo']);
	assert.deepEqual(matchLines((await run(search, {pattern: 'Foo', case_sensitive: false}, toolContext(dir))).output), ['c.txt:1: Foo', 'c.txt:2: foo']);
	// Escapes like \S are not uppercase letters.
	assert.deepEqual(matchLines((await run(search, {pattern: '^f\\S+', regex: true}, toolContext(dir))).output), ['c.txt:1: Foo', 'c.txt:2: foo']);
});

test('the glob option filters by name at any depth, or by path when it has a slash', async t => {
	const dir = await tempDir(t);
	await tree(dir, {'x.ts': 'hit\n', 'src/y.ts': 'hit\n', 'src/z.js': 'hit\n'});
	assert.deepEqual(matchLines((await run(search, {pattern: 'hit', glob: '*.ts'}, toolContext(dir))).output), ['src/y.ts:1: hit', 'x.ts:1: hit']);
	assert.deepEqual(matchLines((await run(search, {pattern: 'hit', glob: 'src/*'}, toolContext(dir))).output), ['src/y.ts:1: hit', 'src/z.js:1: hit']);
	assert.deepEqual(matchLines((await run(search, {pattern: 'hit', path: 'src', glob: '*.js'}, toolContext(dir))).output), ['src/z.js:1: hit']);
	assert.deepEqual(matchLines((await run(search, {pattern: 'hit', path: 'x.ts'}, toolContext(dir))).output), ['x.ts:1: hit']);
});

test('an invalid regex is an input error carrying the RegExp message', async t => {
	const dir = await tempDir(t);
	await assert.rejects(search.plan({pattern: '(unclosed', regex: true}, toolContext(dir)), (error: unknown) => {
		assert.ok(error instanceof ToolInputError);
		assert.match(error.message, /^search: invalid regex: Invalid regular expression: .*Unterminated group/);
		return true;
	});
});

test('search skips hidden, dependency, symlinked, binary and oversized files, and says so', async t => {
	const dir = await tempDir(t);
	await tree(dir, {
		'keep.txt': 'needle\n',
		'.hidden.txt': 'needle\n',
		'.git/config': 'needle\n',
		'node_modules/p/i.js': 'needle\n',
		'vendor/v.txt': 'needle\n',
		'bin.dat': 'needle\0\n',
		'big.txt': '',
	});
	await truncate(join(dir, 'big.txt'), 1024 * 1024 + 1);
	// Exactly 1 MiB of short lines: still searched.
	await writeFile(join(dir, 'edge.txt'), Buffer.concat([Buffer.from('needle\n'), Buffer.alloc(1024 * 1024 - 7, 'xxxxxxx\n')]));
	await symlink(join(dir, 'keep.txt'), join(dir, 'link.txt'));
	const result = await run(search, {pattern: 'needle'}, toolContext(dir));
	assert.deepEqual(matchLines(result.output), ['edge.txt:1: needle', 'keep.txt:1: needle']);
	assert.match(result.output, /\nskipped: 1 binary file, 1 file over 1 MiB$/);
});

test('lines over 10000 characters are not scanned; long matching lines are shown around the match', async t => {
	const dir = await tempDir(t);
	await tree(dir, {'wide.txt': `${'z'.repeat(10_001)}needle\n${'y'.repeat(4000)}needle${'w'.repeat(4000)}\n`});
	const result = await run(search, {pattern: 'needle'}, toolContext(dir));
	const [line] = matchLines(result.output);
	assert.match(line!, /^wide\.txt:2: …y+needlew+…$/);
	assert.equal(line!.length - 'wide.txt:2: '.length, 200 + 2);
	assert.match(result.output, /skipped: 1 line over 10000 characters/);
});

test('a file with no match still counts its long lines, and a long line is never run through the regex as a whole text', async t => {
	const dir = await tempDir(t);
	// A regex that backtracks over a whole long line: run over the text it would take seconds, skipped it takes nothing.
	await tree(dir, {'min.js': `${'foo '.repeat(100_000)}\nshort line\n`, 'plain.txt': 'nothing here\n'});
	for (const input of [{pattern: 'needle'}, {pattern: 'foo.*bar', regex: true}]) {
		const result = await run(search, input, toolContext(dir));
		assert.match(result.output, /^No matches/, JSON.stringify(input));
		assert.match(result.output, /skipped: 1 line over 10000 characters/, JSON.stringify(input));
		assert.doesNotMatch(result.output, /timed out|took too long/, JSON.stringify(input));
	}
});

test('a FIFO named as the path is counted unreadable, never read as an empty file', async t => {
	const dir = await tempDir(t);
	execFileSync('mkfifo', [join(dir, 'pipe')]);
	const result = await run(search, {pattern: 'x', path: 'pipe'}, toolContext(dir));
	assert.match(result.output, /skipped: 1 unreadable file/);
	assert.doesNotMatch(result.output, /1 file searched/);
});

test('max_results stops the search and says so', async t => {
	const dir = await tempDir(t);
	await tree(dir, {'many.txt': 'hit\n'.repeat(50)});
	const result = await run(search, {pattern: 'hit', max_results: 10}, toolContext(dir));
	assert.equal(matchLines(result.output).length, 10);
	assert.match(result.output, /stopped at 10 matches \(max_results\); narrow the search or raise max_results \(at most 1000\)/);
});

test('no match says how much was searched', async t => {
	const dir = await tempDir(t);
	await tree(dir, {'a.txt': 'x\n'});
	const result = await run(search, {pattern: 'absent'}, toolContext(dir));
	assert.equal(result.output, 'No matches for "absent" in . (1 file searched)');
});

test('search asks before looking outside the workspace', async t => {
	const dir = await tempDir(t);
	const outside = await tempDir(t);
	await symlink(outside, join(dir, 'out'));
	const planned = await search.plan({pattern: 'x', path: 'out'}, toolContext(dir));
	assert.equal(planned.ask?.title, `Search outside the workspace: ${outside}`);
});

test('a catastrophic regex is stopped by the time limit instead of hanging', async t => {
	const dir = await tempDir(t);
	await tree(dir, {'evil.txt': `${'a'.repeat(40)}!\n`});
	const started = Date.now();
	const result = await run(search, {pattern: '^(a+)+$', regex: true}, toolContext(dir));
	assert.ok(Date.now() - started < 8000);
	assert.match(result.output, /stopped: the regex took over 5 s/);
});

test('the walk limits: exactly 10000 files pass, 10001 report the file limit', async t => {
	const dir = await tempDir(t);
	// Synchronous on purpose: thousands of concurrent writes would run out of file descriptors.
	for (let index = 0; index < 10_000; index++) {
		writeFileSync(join(dir, `f${index}`), '');
	}

	const atLimit = await run(search, {pattern: 'x'}, toolContext(dir));
	assert.equal(atLimit.output, 'No matches for "x" in . (10000 files searched)');

	await writeFile(join(dir, 'one-more'), '');
	const past = await run(search, {pattern: 'x'}, toolContext(dir));
	assert.equal(past.output, 'No matches for "x" in . (10000 files searched)\nstopped after 10000 files (limit); narrow the path or glob');
});

test('literal searches skip undecoded files that cannot match, and find every one that does: case, multi-byte text, CRLF', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'a.txt'), 'Ünïcode LEGACY retry path\r\nnothing\r\n');
	await writeFile(join(dir, 'b.txt'), '日本語 legacy retry path 日本語\n');
	await writeFile(join(dir, 'c.txt'), 'legacy\nretry path\n');
	await writeFile(join(dir, 'd.txt'), 'Legacy Retry Path\n');
	const smart = await run(search, {pattern: 'legacy retry path'}, toolContext(dir));
	assert.match(smart.output, /^a\.txt:1: Ünïcode LEGACY retry path$/m);
	assert.match(smart.output, /^b\.txt:1: 日本語 legacy retry path 日本語$/m);
	assert.match(smart.output, /^d\.txt:1: Legacy Retry Path$/m);
	assert.match(smart.output, /\(3 matches in 3 files; 4 files searched\)/);
	const exact = await run(search, {pattern: 'Legacy Retry'}, toolContext(dir));
	assert.match(exact.output, /\(1 match in 1 file; 4 files searched\)/);
	assert.match(exact.output, /^d\.txt:1:/m);
});

test('a big search split with the search thread: an abort stops both halves, and the next search still counts every file', async t => {
	const dir = await tempDir(t);
	for (let index = 0; index < 3000; index++) writeFileSync(join(dir, `f${String(index).padStart(4, '0')}.txt`), index % 1000 === 999 ? 'needle here\n' : 'hay\n');
	const controller = new AbortController();
	const planned = await search.plan({pattern: 'needle'}, toolContext(dir, {signal: controller.signal}));
	const running = planned.run();
	controller.abort();
	await assert.rejects(running, (error: Error) => error.name === 'AbortError');
	const result = await run(search, {pattern: 'needle'}, toolContext(dir));
	assert.match(result.output, /\(3 matches in 3 files; 3000 files searched\)$/);
	assert.deepEqual(result.output.split('\n').slice(0, 3), ['f0999.txt:1: needle here', 'f1999.txt:1: needle here', 'f2999.txt:1: needle here'], 'matches of both halves, in walk order');
});

test('the search thread: a scan nobody wants any more, or aborted before it began, stops and leaves the thread for the next one', async t => {
	const dir = await tempDir(t);
	const files = Array.from({length: 1500}, (_, index) => join(dir, `f${index}.txt`));
	for (const file of files) writeFileSync(file, 'needle\n');
	const pattern = {source: 'needle', flags: '', literal: 'needle'};
	const stopped = scanInWorker(files, pattern, 10_000, new AbortController().signal);
	stopped.stop();
	assert.equal(await stopped.result, null);
	const controller = new AbortController();
	controller.abort();
	assert.equal(await scanInWorker(files, pattern, 10_000, controller.signal).result, null);
	const whole = await scanInWorker(files, pattern, 10_000, new AbortController().signal).result;
	assert.equal(whole?.hits.length, 1500);
	assert.equal(whole?.tally.searched, 1500);
});

test('a generated tree of 12000 files in 120 folders: the search stops at 10000 files and says so, with every match it found', async t => {
	const dir = await tempDir(t);
	for (let folder = 0; folder < 120; folder++) {
		mkdirSync(join(dir, `pkg${String(folder).padStart(3, '0')}`));
		for (let file = 0; file < 100; file++) writeFileSync(join(dir, `pkg${String(folder).padStart(3, '0')}`, `mod${file}.ts`), file === 7 ? `export const needle${folder} = ${folder};\n` : 'export {};\n');
	}

	const result = await run(search, {pattern: 'needle\\d+', regex: true}, toolContext(dir));
	const lines = result.output.split('\n');
	assert.equal(lines.at(-1), 'stopped after 10000 files (limit); narrow the path or glob');
	// Each folder searched whole holds one match on line 1: 100 folders of 100 files make the 10000 (in directory order).
	const matches = lines.filter(line => /^pkg\d{3}\/mod7\.ts:1: export const needle\d+/.test(line));
	assert.equal(matches.length, 100, result.output.slice(0, 500));
	assert.match(result.output, /\(100 matches in 100 files; 10000 files searched\)/);
});

test('the walk limits: 20000 entries pass, 20001 report the entry limit', async t => {
	const dir = await tempDir(t);
	// Hidden files are entries the walk reads but never opens: the cheapest way to reach the entry limit.
	for (let index = 0; index < 20_000; index++) {
		writeFileSync(join(dir, `.h${index}`), '');
	}

	const atLimit = await run(search, {pattern: 'x'}, toolContext(dir));
	assert.equal(atLimit.output, 'No matches for "x" in . (0 files searched)');

	writeFileSync(join(dir, '.one-more'), '');
	const past = await run(search, {pattern: 'x'}, toolContext(dir));
	assert.equal(past.output, 'No matches for "x" in . (0 files searched)\nstopped after 20000 folder entries (limit); narrow the path or glob');
});
