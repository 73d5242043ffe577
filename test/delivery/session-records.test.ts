// The session file's delivery lines (source/core/session/session-records.ts):
// queued items and entries survive a reopen, a committed ID is never
// pending again, a torn or malformed record line is cut like a torn step.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {appendFileSync, mkdtempSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {openSession} from '../../source/core/session/session-store.js';
import type {QueuedItem} from '../../source/core/session/session-records.js';

function place() {
	const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'i-records-')));
	return {workspace, path: join(workspace, 'session.json')};
}

const message = (id: string, text: string, deliver: 'steer' | 'nextTurn' = 'steer'): QueuedItem => ({
	kind: 'message',
	id,
	extension: 'x',
	deliver,
	message: {role: 'user', content: text, _extension_message: {id, extension: 'x', display: false}},
});

test('queued items and entries survive a reopen; what was committed is not pending again', async () => {
	const at = place();
	let session = await openSession(at);
	await session.appendStep([
		{role: 'system', content: 's'},
		{role: 'user', content: 'hi'},
	]);
	await session.queue(message('m1', 'first'));
	await session.queue(message('m2', 'second', 'nextTurn'));
	await session.queue({kind: 'entry', id: 'e1', extension: 'x', customType: 'state', data: {a: [1]}});
	assert.deepEqual(
		session.pending.map(item => item.id),
		['m1', 'm2', 'e1'],
	);
	await session.close();

	session = await openSession(at);
	assert.deepEqual(
		session.pending.map(item => item.id),
		['m1', 'm2', 'e1'],
	);
	const first = session.pending[0]!;
	assert.equal(first.kind === 'message' && first.deliver, 'steer');
	await session.appendStep([(first as Extract<QueuedItem, {kind: 'message'}>).message]);
	await session.commitEntries([{id: 'e1', extension: 'x', customType: 'state', data: {a: [1]}}]);
	assert.deepEqual(
		session.pending.map(item => item.id),
		['m2'],
	);
	await session.close();

	session = await openSession(at);
	assert.deepEqual(
		session.pending.map(item => item.id),
		['m2'],
	);
	assert.deepEqual(session.entries, [{id: 'e1', extension: 'x', customType: 'state', data: {a: [1]}}]);
	assert.deepEqual(
		session.messages.map(item => item.content),
		['s', 'hi', 'first'],
	);
	// A compaction that drops the committed message does not make it pending again.
	await session.replaceHistory([
		{role: 'system', content: 's'},
		{role: 'user', content: 'summary'},
	]);
	await session.close();
	session = await openSession(at);
	assert.deepEqual(
		session.pending.map(item => item.id),
		['m2'],
	);
	await session.close();
});

test('a torn record line, and a queued message without its metadata, are cut off like a damaged step, keeping the bytes aside', async () => {
	const at = place();
	let session = await openSession(at);
	await session.appendStep([
		{role: 'system', content: 's'},
		{role: 'user', content: 'hi'},
	]);
	await session.queue(message('m1', 'kept'));
	await session.close();
	const good = readFileSync(at.path, 'utf8');
	appendFileSync(at.path, '{"type":"queued","id":"m2","extension":"x","item":{"kind":"mess');
	session = await openSession(at);
	assert.equal(session.dropped?.lines, 1);
	assert.match(session.dropped!.reason, /line 4: incomplete/);
	assert.deepEqual(
		session.pending.map(item => item.id),
		['m1'],
	);
	await session.close();
	assert.equal(readFileSync(at.path, 'utf8'), good);

	writeFileSync(at.path, `${good}${JSON.stringify({type: 'queued', id: 'm3', extension: 'x', item: {kind: 'message', deliver: 'steer', message: {role: 'user', content: 'no meta'}}})}\n`);
	session = await openSession(at);
	assert.match(session.dropped!.reason, /line 4: not a valid queued delivery \(its message is not a user message carrying the same _extension_message\.id\)/);
	assert.deepEqual(
		session.pending.map(item => item.id),
		['m1'],
	);
	await session.close();

	writeFileSync(at.path, `${good}${JSON.stringify({type: 'entry', id: 'e1', extension: 'x'})}\n`);
	session = await openSession(at);
	assert.match(session.dropped!.reason, /line 4: not a valid entry \(customType: /);
	await session.close();
});
