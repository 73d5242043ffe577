import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {startWorker} from './frame-worker.js';

/** The examples' sources sit at the repository root, beside the compiled tree (dist/ or a private build). */
const examples = new URL('../../../examples/', import.meta.url);

interface ManifestTool {
	name: string;
	parameters: {type: string; required: string[]};
	exec: string[];
	cwd?: string;
}

function manifestTool(folder: string): {tool: ManifestTool; cwd: string} {
	const cwd = fileURLToPath(new URL(`${folder}/`, examples));
	const manifest = JSON.parse(readFileSync(`${cwd}manifest.json`, 'utf8')) as {tools: ManifestTool[]};
	assert.equal(manifest.tools.length, 1);
	const tool = manifest.tools[0]!;
	assert.equal(tool.parameters.type, 'object');
	assert.deepEqual(tool.parameters.required, ['text']);
	return {tool, cwd};
}

const env = {PATH: process.env.PATH, PYTHONUTF8: '1', HOME: process.env.HOME};

test('python-word-count: word_count as its manifest runs it, speaking frames', async t => {
	const {tool, cwd} = manifestTool('python-word-count');
	assert.equal(tool.name, 'word_count');
	assert.deepEqual(tool.exec, ['python3', 'word_count.py']);
	const worker = startWorker(t, tool.exec, {cwd, env});
	const call = (id: number, text: unknown) => worker.request({id, event: 'tool', workspace: '/w', data: {name: 'word_count', arguments: {text}}});
	assert.deepEqual(await call(1, 'hello wörld\nsecond line'), {id: 1, data: {output: '4 words, 2 lines, 23 characters'}});
	assert.deepEqual(await call(2, '你好 世界😀\n'), {id: 2, data: {output: '2 words, 1 line, 7 characters'}});
	assert.deepEqual(await call(3, ''), {id: 3, data: {output: '0 words, 0 lines, 0 characters'}});
	assert.deepEqual(await call(4, 5), {id: 4, error: 'word_count needs the argument "text" (a string)'});
	assert.deepEqual(await worker.request({id: 5, event: 'tool', data: {name: 'other', arguments: {}}}), {
		id: 5,
		error: 'unknown tool "other"; this worker provides: word_count',
	});
	assert.deepEqual(await worker.request({id: 6, event: 'before_turn', data: {keep: ['me']}}), {id: 6, data: {keep: ['me']}});
	// A character split across two writes still arrives whole.
	const frame = Buffer.from(`${JSON.stringify({id: 7, event: 'tool', data: {name: 'word_count', arguments: {text: 'é'}}})}\n`);
	const cut = frame.indexOf(Buffer.from('é')) + 1;
	worker.write(frame.subarray(0, cut));
	worker.write(frame.subarray(cut));
	assert.deepEqual(await worker.next(), {id: 7, data: {output: '1 word, 1 line, 1 character'}});
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	assert.equal(exit.stderr, '');

	const broken = startWorker(t, tool.exec, {cwd, env});
	broken.write('not json\n');
	const ended = await broken.close();
	assert.equal(ended.code, 1);
	assert.match(ended.stderr, /^word_count: a request frame is not valid UTF-8 JSON/);
});

test('typescript-worker: reverse_text, compiled by our build, speaking frames', async t => {
	const {tool, cwd} = manifestTool('typescript-worker');
	assert.equal(tool.name, 'reverse_text');
	// The manifest names the compiled file in dist/; this test runs the same file of the tree it was compiled into.
	assert.deepEqual(tool.exec, ['node', '../../dist/examples/typescript-worker/reverse-text.js']);
	const compiled = fileURLToPath(new URL('../../examples/typescript-worker/reverse-text.js', import.meta.url));
	const worker = startWorker(t, [process.execPath, compiled], {cwd, env});
	const call = (id: number, text: unknown) => worker.request({id, event: 'tool', workspace: '/w', data: {name: 'reverse_text', arguments: {text}}});
	assert.deepEqual(await call(1, 'abc'), {id: 1, data: {output: 'cba'}});
	assert.deepEqual(await call(2, 'e\u0301👍🏽字\u2028'), {id: 2, data: {output: '\u2028字👍🏽e\u0301'}});
	assert.deepEqual(await call(3, null), {id: 3, error: 'reverse_text needs the argument "text" (a string)'});
	assert.deepEqual(await worker.request({id: 4, event: 'tool', data: {name: 'nope', arguments: {}}}), {
		id: 4,
		error: 'unknown tool "nope"; this worker provides: reverse_text',
	});
	assert.deepEqual(await worker.request({id: 5, event: 'finish', data: {n: 1}}), {id: 5, data: {n: 1}});
	const frame = Buffer.from(`${JSON.stringify({id: 6, event: 'tool', data: {name: 'reverse_text', arguments: {text: '字x'}}})}\n`);
	const cut = frame.indexOf(Buffer.from('字')) + 1;
	worker.write(frame.subarray(0, cut));
	worker.write(frame.subarray(cut));
	assert.deepEqual(await worker.next(), {id: 6, data: {output: 'x字'}});
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	assert.equal(exit.stderr, '');

	const broken = startWorker(t, [process.execPath, compiled], {cwd, env});
	broken.write('{"event":"tool","data":{}}\n');
	const ended = await broken.close();
	assert.equal(ended.code, 1);
	assert.equal(ended.stderr, 'reverse-text: a request frame has no unsigned integer "id"\n');
});
