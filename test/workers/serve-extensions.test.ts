import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {makeFolders, startWorker, type Folders} from './frame-worker.js';

const serveUrl = new URL('../../workers/serve/serve.js', import.meta.url).href;

/**
 * A worker built on serve() for its two extensions. before_turn leaves a
 * task for after its answer, to run `delay_ms` after it: after `wait_ms`,
 * write `file` (in the workspace), or fail when `fail` is set. after_save appends a message to
 * what it is given, and counts the messages it saw; finish tries to change
 * a message in place.
 */
const fixture = `
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import {serve} from ${JSON.stringify(serveUrl)};
process.exit(await serve({
	name: 'fixture',
	hooks: {
		before_turn: async (data, context) => {
			context.afterAnswer(async () => {
				await delay(Number(data.wait_ms ?? 0));
				if (data.fail) throw new Error('the disk is full');
				await writeFile(join(context.workspace, String(data.file)), 'written');
			}, {delayMs: Number(data.delay_ms ?? 0)});
			return data;
		},
		after_save: async data => ({...data, seen: data.messages.length, messages: [...data.messages, {role: 'user', content: 'added'}]}),
		finish: async data => { data.messages[0].content = 'changed'; return data; },
	},
}));
`;

function start(t: TestContext, folders: Folders) {
	return startWorker(t, [process.execPath, '--input-type=module', '-e', fixture], {env: folders.env});
}

test('serve: work left for after an answer runs after it, in the background, and before the worker exits', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	const first = await worker.request({id: 1, event: 'before_turn', workspace: folders.workspace, data: {file: 'slow', wait_ms: 300}});
	assert.deepEqual(first, {id: 1, data: {file: 'slow', wait_ms: 300}});
	// The next request is answered while the first one's work still runs.
	await worker.request({id: 2, event: 'after_save', data: {messages: []}});
	assert.equal(existsSync(join(folders.workspace, 'slow')), false);
	await worker.request({id: 3, event: 'before_turn', workspace: folders.workspace, data: {file: 'last', wait_ms: 200}});
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	assert.ok(existsSync(join(folders.workspace, 'slow')));
	assert.ok(existsSync(join(folders.workspace, 'last')), 'EOF waits for the work still to do');
});

test('serve: work after an answer that fails is the next answer’s error, or exit 1 at EOF', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	await worker.request({id: 1, event: 'before_turn', workspace: folders.workspace, data: {fail: true}});
	// Give the task its turn: it fails in the background.
	await new Promise(resolve => setTimeout(resolve, 100));
	const next = await worker.request({id: 2, event: 'after_save', data: {messages: []}});
	assert.deepEqual(next, {id: 2, error: 'work after the answer to an earlier request failed: the disk is full'});
	// Reported once: the worker goes on.
	assert.deepEqual((await worker.request({id: 3, event: 'after_save', data: {messages: []}})).data, {messages: [{role: 'user', content: 'added'}], seen: 0});

	const other = start(t, folders);
	await other.request({id: 1, event: 'before_turn', workspace: folders.workspace, data: {fail: true, wait_ms: 100}});
	const exit = await other.close();
	assert.equal(exit.code, 1);
	assert.match(exit.stderr, /^i worker fixture: work after the answer to an earlier request failed: the disk is full\n$/);
});

test('serve: work left for later runs after its delay, the next requests served meanwhile, or at once at EOF', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	await worker.request({id: 1, event: 'before_turn', workspace: folders.workspace, data: {file: 'soon', delay_ms: 200}});
	await worker.request({id: 2, event: 'before_turn', workspace: folders.workspace, data: {file: 'late', delay_ms: 60_000}});
	assert.deepEqual((await worker.request({id: 3, event: 'after_save', data: {messages: []}})).data, {messages: [{role: 'user', content: 'added'}], seen: 0});
	// The first runs once its delay has passed, with the worker still up; the second is a minute away.
	for (const deadline = Date.now() + 10_000; !existsSync(join(folders.workspace, 'soon')); await new Promise(resolve => setTimeout(resolve, 20))) {
		assert.ok(Date.now() < deadline, 'the task with a 200 ms delay never ran');
	}

	assert.equal(existsSync(join(folders.workspace, 'late')), false);
	// EOF does not wait out the minute, and does not drop the task either: it runs it at once.
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	assert.ok(existsSync(join(folders.workspace, 'late')), 'EOF runs the delayed task');

	// A delayed task that fails is reported like any other: by the next answer once it has run, or by exit 1 at EOF.
	const failing = start(t, folders);
	await failing.request({id: 1, event: 'before_turn', workspace: folders.workspace, data: {fail: true, delay_ms: 100}});
	let next: Awaited<ReturnType<typeof failing.request>>;
	for (let id = 2, deadline = Date.now() + 10_000; ; id++) {
		next = await failing.request({id, event: 'after_save', data: {messages: []}});
		if (next.error !== undefined || Date.now() > deadline) break;
		await new Promise(resolve => setTimeout(resolve, 50));
	}

	assert.equal(next.error, 'work after the answer to an earlier request failed: the disk is full');
	const other = start(t, folders);
	await other.request({id: 1, event: 'before_turn', workspace: folders.workspace, data: {fail: true, delay_ms: 60_000}});
	const failed = await other.close();
	assert.equal(failed.code, 1);
	assert.match(failed.stderr, /^i worker fixture: work after the answer to an earlier request failed: the disk is full\n$/);
});

test('serve: prefix-reuse requests are rebuilt for the handlers, answers shortened, and what was received cannot be changed', async t => {
	const folders = await makeFolders(t);
	const worker = start(t, folders);
	const messages = [
		{role: 'system', content: 's'},
		{role: 'user', content: 'u'},
	];
	const first = await worker.request({id: 1, event: 'after_save', data: {messages, path: '/s'}, reuse: {'/messages': 0}});
	// The handler saw two and appended one: the answer leaves out the two the host sent.
	assert.deepEqual(first, {id: 1, data: {messages: [{role: 'user', content: 'added'}], path: '/s', seen: 2}, reuse: {'/messages': 2}});
	const second = await worker.request({id: 2, event: 'after_save', data: {messages: [{role: 'assistant', content: 'a'}], path: '/s'}, reuse: {'/messages': 2}});
	assert.deepEqual(second, {id: 2, data: {messages: [{role: 'user', content: 'added'}], path: '/s', seen: 3}, reuse: {'/messages': 3}});
	// A handler that changes a message it was given fails, rather than corrupt the next request's base.
	const changed = await worker.request({id: 3, event: 'finish', data: {messages: []}, reuse: {'/messages': 3}});
	assert.match(String(changed.error), /Cannot assign to read only property 'content'/);
	// A reuse that does not fit the bases is an error frame; the host stops such a worker.
	const bad = await worker.request({id: 4, event: 'after_save', data: {messages: []}, reuse: {'/messages': 9}});
	assert.equal(bad.error, '"reuse" takes 9 elements of "/messages" from a base of 3');
	const malformed = await worker.request({id: 5, event: 'after_save', data: {messages: []}, reuse: {'/messages': -1}});
	assert.equal(malformed.error, '"reuse" gives "/messages" the count -1; a count is an unsigned integer');
	// Without reuse, plain frames as ever.
	assert.deepEqual(await worker.request({id: 6, event: 'after_save', data: {messages: []}}), {id: 6, data: {messages: [{role: 'user', content: 'added'}], seen: 0}});
	assert.equal((await worker.close()).code, 0);
});
