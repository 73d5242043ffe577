import assert from 'node:assert/strict';
import {test} from 'node:test';
import {MAX_FRAME_BYTES} from '../../source/core/pool/frames.js';
import type {WorkerSpec} from '../../source/core/pool/types.js';
import {failure, fixture, python, setup} from './helpers.js';

type Seen = {bytes: number; reuse: boolean; tails: Record<string, number>};

function reuseWorker(dir: string, prefixReuse = true): WorkerSpec {
	return {exec: [python, fixture('reuse.py')], cwd: dir, ...(prefixReuse ? {prefixReuse: true} : {})};
}

function history(length: number): Array<{role: string; content: string}> {
	return Array.from({length}, (_, index) => ({role: index % 2 === 0 ? 'user' : 'assistant', content: `message ${index} `.repeat(100)}));
}

test('a worker that opts in gets prefix-reuse frames: each request carries only what it has not got, and answers come back whole', async t => {
	const {pool, dir} = await setup(t);
	const spec = reuseWorker(dir);
	const messages = history(50);
	const first = await pool.call(spec, 'before_turn', {messages});
	assert.deepEqual(first.seen, {bytes: (first.seen as Seen).bytes, reuse: true, tails: {'/messages': 50}});
	assert.deepEqual(first.messages, messages);
	assert.ok((first.seen as Seen).bytes > 50_000);

	const longer = [...messages, {role: 'user', content: 'one more'}];
	const second = await pool.call(spec, 'before_turn', {messages: longer});
	const seen = second.seen as Seen;
	assert.deepEqual(seen.tails, {'/messages': 1});
	assert.ok(seen.bytes < 2000, `the second request took ${seen.bytes} bytes`);
	assert.deepEqual(second.messages, longer);
	// The answer's prefix is rebuilt from the request: the caller's own objects.
	assert.equal((second.messages as unknown[])[0], longer[0]);
	assert.equal((second.messages as unknown[])[49], longer[49]);
});

test('every array under data or one object below it is tracked on its own pointer, names escaped', async t => {
	const {pool, dir} = await setup(t);
	const spec = reuseWorker(dir);
	const body = {model: 'm', messages: history(4), tools: [{name: 't'}]};
	await pool.call(spec, 'before_request', {url: 'http://127.0.0.1:1/', body, 'odd/~key': [1, 2]});
	const again = await pool.call(spec, 'before_request', {url: 'http://127.0.0.1:1/', body: {...body, messages: [...body.messages, {role: 'user', content: 'x'}]}, 'odd/~key': [1, 3]});
	assert.deepEqual((again.seen as Seen).tails, {'/body/messages': 1, '/body/tools': 0, '/odd~1~0key': 1});
	assert.deepEqual(again['odd/~key'], [1, 3]);
	assert.deepEqual((again.body as {messages: unknown[]}).messages.length, 5);
	// Another event's arrays at other pointers do not disturb these bases.
	await pool.call(spec, 'before_turn', {messages: history(2)});
	const third = await pool.call(spec, 'before_request', {url: 'http://127.0.0.1:1/', body: {...body, messages: [...body.messages, {role: 'user', content: 'x'}]}, 'odd/~key': [1, 3]});
	assert.deepEqual((third.seen as Seen).tails, {'/body/messages': 0, '/body/tools': 0, '/odd~1~0key': 0});
});

test('a worker that does not opt in gets plain spec/platform.md §2 frames, whole every time', async t => {
	const {pool, dir} = await setup(t);
	const spec = reuseWorker(dir, false);
	const messages = history(20);
	await pool.call(spec, 'before_turn', {messages});
	const again = await pool.call(spec, 'before_turn', {messages: [...messages, {role: 'user', content: 'x'}]});
	assert.deepEqual(again.seen, {bytes: (again.seen as Seen).bytes, reuse: false, tails: {}});
	assert.ok((again.seen as Seen).bytes > 20_000);
});

test('an answer whose reuse does not fit the request breaks the protocol: the worker is stopped and the next call starts afresh', async t => {
	const {pool, dir} = await setup(t);
	const spec = reuseWorker(dir);
	await assert.rejects(
		pool.call(spec, 'before_turn', {messages: history(2), answer: 'past-base'}),
		failure('protocol', /the worker broke the protocol: its answer's "reuse" takes 3 elements of "\/messages" from a base of 2; the worker was stopped/),
	);
	await assert.rejects(pool.call(spec, 'before_turn', {messages: history(2), answer: 'bad-pointer'}), failure('protocol', /its answer's "reuse" names "\/nowhere", but the data has no array there/));
	// A fresh worker has no bases: everything is sent again.
	const fresh = await pool.call(spec, 'before_turn', {messages: history(2)});
	assert.deepEqual((fresh.seen as Seen).tails, {'/messages': 2});
	// An answer without reuse is whole as it is.
	const whole = await pool.call(spec, 'before_turn', {messages: history(3), answer: 'full'});
	assert.deepEqual(whole.messages, history(3));
});

test('a request too large to send leaves the bases as the worker has them', async t => {
	const {pool, dir} = await setup(t);
	const spec = reuseWorker(dir);
	const messages = history(3);
	await pool.call(spec, 'before_turn', {messages});
	await assert.rejects(pool.call(spec, 'before_turn', {messages: [...messages, {role: 'user', content: 'x'.repeat(MAX_FRAME_BYTES)}]}), failure('protocol', /the request cannot be sent/));
	const next = await pool.call(spec, 'before_turn', {messages: [...messages, {role: 'user', content: 'y'}]});
	assert.deepEqual((next.seen as Seen).tails, {'/messages': 1});
	assert.equal((next.messages as unknown[]).length, 4);
});
