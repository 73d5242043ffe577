import assert from 'node:assert/strict';
import {test, type TestContext} from 'node:test';
import {MAX_FRAME_BYTES} from '../../source/core/pool/frames.js';
import {makeFolders, startWorker, type Folders} from './frame-worker.js';

const serveUrl = new URL('../../workers/serve/serve.js', import.meta.url).href;

/**
 * A worker built on serve(): `upper` upper-cases `data.text` on user_input,
 * `context` echoes what the handler was told, `boom` throws, `big` answers
 * over the frame limit, `noisy` logs to the console, `context_budget` gives
 * `data.warnings` warnings; tool `echo` returns its arguments.
 */
const fixture = `
import {serve} from ${JSON.stringify(serveUrl)};
process.exit(await serve({
	name: 'fixture',
	hooks: {
		user_input: async data => ({...data, text: String(data.text).toUpperCase()}),
		before_turn: async (data, context) => ({...data, context}),
		after_save: async () => { throw new Error('boom'); },
		finish: async data => ({...data, output: 'x'.repeat(Number(data.size))}),
		before_tool: async data => { console.log('noise'); console.info('more'); return data; },
		context_budget: async (data, context) => { for (let n = 0; n < Number(data.warnings); n++) context.warn('warning ' + n); return data; },
	},
	tools: {echo: async data => ({output: JSON.stringify(data.arguments)})},
}));
`;

function start(t: TestContext, folders: Folders) {
	return startWorker(t, [process.execPath, '--input-type=module', '-e', fixture], {env: folders.env});
}

test('serve: handled hooks transform, unhandled lifecycle events return data unchanged, one response per request in order', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	// Several frames in one write: answered one at a time, in order.
	worker.write(
		[
			{id: 1, event: 'user_input', data: {text: 'hi', keep: [1]}},
			{id: 7, event: 'session_load', data: {a: {b: 'ü\u2028'}}},
			{id: 0, event: 'tool', data: {name: 'echo', arguments: {x: 1}}},
		]
			.map(frame => `${JSON.stringify(frame)}\n`)
			.join(''),
	);
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	assert.equal(exit.stderr, '');
	assert.deepEqual(exit.frames, [
		{id: 1, data: {text: 'HI', keep: [1]}},
		{id: 7, data: {a: {b: 'ü\u2028'}}},
		{id: 0, data: {output: '{"x":1}'}},
	]);
});

test('serve: requests with a usable ID but bad parts get error frames, and the worker goes on', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	const cases: Array<[Record<string, unknown>, RegExp]> = [
		[{id: 1, event: 5, data: {}}, /^field "event" must be a string/],
		[{id: 2, event: 'finish', data: [1]}, /^field "data" must be an object/],
		[{id: 3, event: 'finish'}, /^field "data" must be an object/],
		[{id: 4, event: 'tool', data: {name: 'nope', arguments: {}}}, /^unknown tool "nope"; the fixture worker provides: echo$/],
		[{id: 5, event: 'tool', data: {arguments: {}}}, /^field "data.name" must be the tool name/],
		[{id: 6, event: 'provider', data: {}}, /^unknown event "provider" for the fixture worker$/],
		[{id: 7, event: 'after_save', data: {}}, /^boom$/],
		[{id: 8, event: 'finish', workspace: 'relative/dir', data: {}}, /^field "workspace" must be an absolute path/],
		[{id: 9, event: 'finish', workspace_id: 'not-a-uuid', data: {}}, /^field "workspace_id" must be a UUID/],
		[{id: 10, event: 'finish', paths: {config_dir: '/c'}, data: {}}, /^field "paths.data_dir" is missing/],
	];
	for (const [frame, message] of cases) {
		const response = await worker.request(frame);
		assert.deepEqual(Object.keys(response).sort(), ['error', 'id'], JSON.stringify(frame));
		assert.equal(response.id, frame.id);
		assert.match(response.error, message);
	}

	assert.deepEqual(await worker.request({id: 11, event: 'user_input', data: {text: 'still here'}}), {id: 11, data: {text: 'STILL HERE'}});
	assert.equal((await worker.close()).code, 0);
});

test("serve: a handler's warnings go with its answer, at most 16; a 17th is the handler's error", async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	const budget = async (id: number, warnings: number) => worker.request({id, event: 'context_budget', data: {warnings}});
	assert.deepEqual(await budget(1, 0), {id: 1, data: {warnings: 0}});
	assert.deepEqual(await budget(2, 16), {id: 2, data: {warnings: 16}, warnings: Array.from({length: 16}, (_, n) => `warning ${n}`)});
	assert.deepEqual(await budget(3, 17), {id: 3, error: 'the fixture worker gave more than 16 warnings for one answer; tell the rest with a later one'});
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
});

test('serve: handlers get the request context, or the I_*_DIR folders when paths is absent', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	const paths = {config_dir: '/elsewhere/config', data_dir: '/elsewhere/data', cache_dir: '/elsewhere/cache', runtime_dir: '/elsewhere/runtime'};
	const id = 'f29127b0-f512-4c6e-9e31-87d476d168ce';
	const given = await worker.request({id: 1, event: 'before_turn', workspace: '/project', workspace_id: id, paths, data: {}});
	assert.deepEqual(given.data.context, {workspace: '/project', workspace_id: id, paths});
	const fallback = await worker.request({id: 2, event: 'before_turn', data: {}});
	assert.deepEqual(fallback.data.context, {paths: folders.paths});
	await worker.close();
});

test('serve: console output of a handler goes to stderr, never stdout', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	assert.deepEqual(await worker.request({id: 1, event: 'before_tool', data: {n: 1}}), {id: 1, data: {n: 1}});
	const exit = await worker.close();
	assert.equal(exit.stderr, 'noise\nmore\n');
	assert.equal(exit.frames.length, 1);
});

test('serve: a response over 48 MiB becomes an error frame', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	const response = await worker.request({id: 3, event: 'finish', data: {size: MAX_FRAME_BYTES}});
	assert.equal(response.id, 3);
	assert.match(response.error, /^the fixture worker's response is too large: a frame of \d+ bytes is over the limit of 50331648 bytes$/);
	assert.equal((await worker.close()).code, 0);
});

test('serve: a request frame of exactly 48 MiB is served; one byte more ends the worker (exit 1)', async t => {
	const folders = await makeFolders(t);
	const head = '{"id":1,"event":"finish","data":{"size":0,"p":"';
	const tail = '"}}\n';
	const frameOf = (bytes: number) => head + 'p'.repeat(bytes - head.length - tail.length) + tail;

	const exact = start(t, folders);
	exact.write(frameOf(MAX_FRAME_BYTES));
	const response = await exact.next();
	assert.equal(response.data.p.length, MAX_FRAME_BYTES - head.length - tail.length);
	assert.equal((await exact.close()).code, 0);

	const over = start(t, folders);
	over.write(frameOf(MAX_FRAME_BYTES + 1));
	const exit = await over.close();
	assert.equal(exit.code, 1);
	assert.deepEqual(exit.frames, []);
	assert.match(exit.stderr, /^i worker fixture: a frame of .* bytes is over the limit of 50331648 bytes\n$/);
});

test('serve: frames that cannot be answered end the worker with exit 1 after the answers before them', async t => {
	const folders = await makeFolders(t);
	const cases: Array<[string, RegExp]> = [
		['{"id":1,', /a request frame is not valid JSON/],
		['[1,2]', /a request frame is not a JSON object/],
		['{"event":"finish","data":{}}', /a request frame has no unsigned integer "id" \(got undefined\)/],
		['{"id":-1,"event":"finish","data":{}}', /no unsigned integer "id" \(got -1\)/],
		['{"id":1.5,"event":"finish","data":{}}', /no unsigned integer "id" \(got 1.5\)/],
		['{"id":"1","event":"finish","data":{}}', /no unsigned integer "id" \(got "1"\)/],
	];
	for (const [bad, message] of cases) {
		const worker = start(t, folders);
		worker.write(`{"id":1,"event":"finish","data":{"size":0}}\n${bad}\n{"id":2,"event":"finish","data":{"size":0}}\n`);
		const exit = await worker.close();
		assert.equal(exit.code, 1, bad);
		assert.deepEqual(exit.frames, [{id: 1, data: {size: 0, output: ''}}], bad);
		assert.match(exit.stderr, message, bad);
	}
});

test('serve: EOF inside a frame (no newline) ends the worker with exit 1', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	worker.write('{"id":1,"event":"finish","data":{"size":0}}');
	const exit = await worker.close();
	assert.equal(exit.code, 1);
	assert.deepEqual(exit.frames, []);
	assert.match(exit.stderr, /stdin ended inside a frame \(43 bytes without a newline\)/);
});

test('serve: an empty stdin is a clean exit', async t => {
	const folders = await makeFolders(t);
	const exit = await start(t, folders).close();
	assert.deepEqual(exit, {code: 0, frames: [], stderr: ''});
});
