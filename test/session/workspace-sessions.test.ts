// The chat screen's sessions (spec/platform.md §3): names from the first message,
// /rename, /fork, the summary index and the list the picker reads.
import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {existsSync} from 'node:fs';
import {hostname} from 'node:os';
import {mkdir, readdir, readFile, stat, symlink, utimes, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {openSession} from '../../source/core/session/session-store.js';
import {EventBus, type RegisteredHandler} from '../../source/core/extensions/event-bus.js';
import {forkSession} from '../../source/core/session/fork-session.js';
import {latestSession, listSessions} from '../../source/core/session/list-sessions.js';
import {readSessionIndex, SESSION_INDEX_FILE} from '../../source/core/session/session-index.js';
import {checkSessionName, FALLBACK_SESSION_NAME, MAX_SESSION_NAME_CHARS, MAX_SLUG_CHARS, slugOf, unusedName, withSuffix} from '../../source/core/session/session-name.js';
import {stampName} from '../../source/core/session/start-session.js';
import {openWorkspaceSession, provisionalSessionPath, pruneProvisional, renameWorkspaceSession, workspaceSessionsFolder} from '../../source/core/session/workspace-sessions.js';
import type {Message} from '../../source/core/messages.js';
import {tempWorkspace} from './helpers.js';

const turn = (text: string, answer = 'ok'): Message[] => [
	{role: 'user', content: text},
	{role: 'assistant', content: answer},
];

function visible(names: string[]): string[] {
	return names.filter(name => name.endsWith('.json') && !name.startsWith('.')).sort();
}

test('slugOf: the first words, lower case, joined by -, within the limits; any script; a fallback', () => {
	assert.equal(slugOf('Fix the login bug, please!'), 'fix-the-login-bug-please');
	assert.equal(slugOf('  Why does `npm test` fail on CI?\nIt passes here.'), 'why-does-npm-test-fail-on');
	assert.equal(slugOf('修复登录错误 请看 src/login.ts'), '修复登录错误-请看-src-login-ts');
	assert.equal(slugOf('Ünïcödé naïve café'), 'ünïcödé-naïve-café');
	assert.equal(slugOf('!!! ??? ...'), FALLBACK_SESSION_NAME);
	assert.equal(slugOf(''), FALLBACK_SESSION_NAME);
	// A first word past the limit is cut to it; a later word that does not fit is left out whole.
	assert.equal(slugOf('x'.repeat(MAX_SLUG_CHARS + 1)), 'x'.repeat(MAX_SLUG_CHARS));
	assert.equal(slugOf(`${'a'.repeat(MAX_SLUG_CHARS - 2)} bb`), 'a'.repeat(MAX_SLUG_CHARS - 2));
	assert.equal(slugOf(`${'a'.repeat(MAX_SLUG_CHARS - 3)} bb`), `${'a'.repeat(MAX_SLUG_CHARS - 3)}-bb`);
	assert.equal([...slugOf('好'.repeat(100))].length, MAX_SLUG_CHARS);
	for (const text of ['a b', 'Fix it', '修复', '...']) assert.doesNotThrow(() => checkSessionName(slugOf(text)));
});

test('checkSessionName: 1–64 letters, digits, . _ -, not starting with .; NFC', () => {
	assert.equal(checkSessionName('my-session_2.0'), 'my-session_2.0');
	assert.equal(checkSessionName('x'.repeat(MAX_SESSION_NAME_CHARS)), 'x'.repeat(MAX_SESSION_NAME_CHARS));
	assert.throws(() => checkSessionName('x'.repeat(MAX_SESSION_NAME_CHARS + 1)), /65 characters, over the limit of 64/);
	for (const bad of ['', '.hidden', 'a/b', '../up', 'a b', 'a\\b', 'nul\0']) assert.throws(() => checkSessionName(bad), /is invalid/, JSON.stringify(bad));
	// é typed as e + combining accent is the same name as é.
	assert.equal(checkSessionName('cafe\u0301'), 'caf\u00e9');
	assert.equal(withSuffix('x'.repeat(MAX_SESSION_NAME_CHARS), '-2'), `${'x'.repeat(MAX_SESSION_NAME_CHARS - 2)}-2`);
	assert.equal(stampName(new Date('2025-03-04T05:06:07.890Z')), 'session-20250304-050607');
});

test('unusedName: the base, then -2, -3 …', async () => {
	const taken = new Set(['fix', 'fix-2']);
	assert.equal(await unusedName('fix', async name => taken.has(name)), 'fix-3');
	assert.equal(await unusedName('new', async name => taken.has(name)), 'new');
	// Past the last numbered suffix a random one ends the search.
	assert.match(await unusedName('all', async name => /^all(-\d+)?$/.test(name)), /^all-[0-9a-f]{2,}$/);
});

test('a provisional session is named after its first message at its first save, a clash gets -2, and the index has its summary', async t => {
	const workspace = await tempWorkspace(t);
	const folder = join(workspace, 'sessions');
	const one = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	assert.match(one.path, /\/\.new-[^/]+\.json$/);
	await one.appendStep(turn('Fix the login bug'));
	assert.equal(one.path, join(folder, 'fix-the-login-bug.json'));
	assert.ok(existsSync(`${one.path}.lock`), 'the lock moved with the file');
	await one.appendStep(turn('and the tests', 'done'));
	await one.close();
	assert.equal(existsSync(`${one.path}.lock`), false);

	const two = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	await two.appendStep(turn('fix the LOGIN bug'));
	await two.close();
	assert.equal(two.path, join(folder, 'fix-the-login-bug-2.json'));
	assert.deepEqual(visible(await readdir(folder)), ['fix-the-login-bug-2.json', 'fix-the-login-bug.json']);

	const index = readSessionIndex(folder);
	assert.equal(index['fix-the-login-bug']!.title, 'Fix the login bug');
	assert.equal(index['fix-the-login-bug']!.messages, 4);
	assert.equal(index['fix-the-login-bug']!.id, one.id);
	assert.equal(index['fix-the-login-bug']!.size, (await stat(one.path)).size);
	// The moved file reopens as the same session.
	const again = await openSession({path: one.path, workspace});
	assert.equal(again.id, one.id);
	assert.equal(again.messages.length, 4);
	await again.close();
});

test('a new session that never got a message leaves no file; one that did stays', async t => {
	const workspace = await tempWorkspace(t);
	const folder = join(workspace, 'sessions');
	const empty = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	assert.ok(existsSync(empty.path));
	await empty.close();
	assert.deepEqual(await readdir(folder), []);
	// A saved session opened again and closed without a message stays.
	const kept = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	await kept.appendStep(turn('keep me'));
	await kept.close();
	const reopened = await openWorkspaceSession({path: kept.path, workspace});
	await reopened.close();
	assert.deepEqual(visible(await readdir(folder)), ['keep-me.json']);
});

test('/rename moves the file and its lock atomically; a taken or invalid name is refused and nothing moves', async t => {
	const workspace = await tempWorkspace(t);
	const folder = join(workspace, 'sessions');
	const other = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	await other.appendStep(turn('other work'));
	await other.close();
	const session = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	await session.appendStep(turn('first words'));
	const before = await readFile(session.path, 'utf8');

	await assert.rejects(renameWorkspaceSession(session, 'other-work'), /a session named other-work exists in this workspace/);
	await assert.rejects(renameWorkspaceSession(session, '../escape'), /is invalid/);
	await assert.rejects(renameWorkspaceSession(session, '.hidden'), /is invalid/);
	assert.equal(session.path, join(folder, 'first-words.json'));
	assert.equal(await readFile(join(folder, 'other-work.json'), 'utf8').then(text => text.includes('other work')), true, 'the other session is untouched');

	await renameWorkspaceSession(session, 'login-fix');
	assert.equal(session.path, join(folder, 'login-fix.json'));
	assert.equal(await readFile(session.path, 'utf8'), before);
	assert.equal(existsSync(join(folder, 'first-words.json')), false);
	assert.equal(existsSync(join(folder, 'first-words.json.lock')), false);
	// The new name is held: a second open is refused while this one runs.
	await assert.rejects(openSession({path: session.path, workspace}), /is in use by process/);
	// Writes go on to the renamed file.
	await session.appendStep(turn('more'));
	await session.close();
	const index = readSessionIndex(folder);
	assert.equal(index['first-words'], undefined);
	assert.equal(index['login-fix']!.title, 'first words');
	assert.equal(index['login-fix']!.messages, 4);
	assert.deepEqual(visible(await readdir(folder)), ['login-fix.json', 'other-work.json']);
});

test('listSessions: newest first, the summary from the index, headers only for the rest, damaged files listed as damaged, locks marked', async t => {
	const workspace = await tempWorkspace(t);
	const folder = join(workspace, 'sessions');
	const a = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	await a.appendStep(turn('alpha question'));
	await a.close();
	const b = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	await b.appendStep(turn('beta question'));
	// A file the index does not know, whose body is not even JSON: only its header is read, so it lists fine.
	const foreign = join(folder, 'copied-in.json');
	await writeFile(foreign, `${JSON.stringify({type: 'i-session', version: 1, id: randomUUID(), workspace, created: new Date().toISOString()})}\n${'not json at all\n'.repeat(200_000)}`);
	await writeFile(join(folder, 'empty.json'), '');
	await writeFile(join(folder, 'notes.json'), '{"some": "other json"}\n');
	await writeFile(join(folder, 'newer.json'), `${JSON.stringify({type: 'i-session', version: 9, id: randomUUID(), workspace, created: new Date().toISOString()})}\n`);
	await mkdir(join(folder, 'folder.json'));
	const times = [
		['alpha-question.json', 1000],
		['beta-question.json', 2000],
		['copied-in.json', 3000],
		['empty.json', 500],
		['notes.json', 400],
		['newer.json', 300],
	] as const;
	for (const [file, seconds] of times) await utimes(join(folder, file), seconds, seconds);

	const list = await listSessions(folder);
	assert.deepEqual(
		list.map(summary => summary.name),
		['copied-in', 'beta-question', 'alpha-question', 'empty', 'notes', 'newer'],
	);
	const byName = new Map(list.map(summary => [summary.name, summary]));
	const alpha = byName.get('alpha-question')!;
	assert.equal(alpha.status, 'ok');
	assert.deepEqual(alpha.status === 'ok' && [alpha.title, alpha.messages, alpha.stale, alpha.lockedBy], ['alpha question', 2, false, null]);
	const beta = byName.get('beta-question')!;
	assert.equal(beta.lockedBy?.kind, 'held', 'b is open in this process');
	const copied = byName.get('copied-in')!;
	assert.deepEqual(copied.status === 'ok' && [copied.title, copied.messages], [null, null]);
	for (const [name, problem] of [
		['empty', /it is empty/],
		['notes', /not an i-session header/],
		['newer', /format version 9/],
	] as const) {
		const summary = byName.get(name)!;
		assert.equal(summary.status, 'damaged', name);
		assert.match(summary.status === 'damaged' ? summary.problem : '', problem);
	}

	// A step written behind the index's back (as by a process killed between the two): the entry is stale.
	await b.close();
	await writeFile(join(folder, 'beta-question.json'), `${await readFile(join(folder, 'beta-question.json'), 'utf8')}${JSON.stringify({type: 'step', n: 2, messages: turn('more')})}\n`);
	const stale = (await listSessions(folder)).find(summary => summary.name === 'beta-question')!;
	assert.deepEqual(stale.status === 'ok' && [stale.stale, stale.messages, stale.lockedBy], [true, 2, null]);

	// The latest that is not damaged.
	assert.equal((await latestSession(folder))?.name, 'beta-question');
	await utimes(join(folder, 'empty.json'), 9999, 9999);
	assert.equal((await latestSession(folder))?.name, 'beta-question', 'a damaged file is never "the latest"');
	assert.equal(await latestSession(join(workspace, 'none')), null);
	assert.deepEqual(await listSessions(join(workspace, 'none')), []);
});

test('listSessions of 1000 sessions reads the index and stats, and a damaged index only costs the summaries', async t => {
	const workspace = await tempWorkspace(t);
	const folder = join(workspace, 'sessions');
	await mkdir(folder);
	const sessions: Record<string, unknown> = {};
	for (let n = 0; n < 1000; n++) {
		const id = randomUUID();
		const text = `${JSON.stringify({type: 'i-session', version: 1, id, workspace, created: new Date().toISOString()})}\n${JSON.stringify({type: 'step', n: 1, messages: turn(`question ${n}`)})}\n`;
		const path = join(folder, `s-${n}.json`);
		await writeFile(path, text);
		await utimes(path, 1000 + n, 1000 + n);
		sessions[`s-${n}`] = {id, title: `question ${n}`, messages: 2, updated: new Date().toISOString(), size: Buffer.byteLength(text)};
	}
	await writeFile(join(folder, SESSION_INDEX_FILE), JSON.stringify({version: 1, sessions}));
	const list = await listSessions(folder);
	assert.equal(list.length, 1000);
	assert.equal(list[0]!.name, 's-999');
	assert.equal(list[999]!.name, 's-0');
	assert.ok(list.every(summary => summary.status === 'ok' && summary.messages === 2 && !summary.stale));

	await writeFile(join(folder, SESSION_INDEX_FILE), '{broken');
	const without = await listSessions(folder);
	assert.equal(without.length, 1000);
	assert.ok(without.every(summary => summary.status === 'ok' && summary.messages === null));
	// The next save writes the index again from nothing.
	const session = await openWorkspaceSession({path: join(folder, 's-5.json'), workspace});
	await session.appendStep(turn('again'));
	await session.close();
	assert.deepEqual(Object.keys(readSessionIndex(folder)), ['s-5']);
});

function gateBus(answer: unknown) {
	const handlers: RegisteredHandler[] = [{extension: 'guard', tag: 'SessionBeforeFork', handler: () => answer, platforms: undefined}];
	return new EventBus({handlers, report: () => {}, platform: 'linux', timeoutMs: () => 1000});
}

test('/fork copies the history into <name>-fork (then -fork-2), leaves the original as it was; SessionBeforeFork may refuse', async t => {
	const workspace = await tempWorkspace(t);
	const folder = join(workspace, 'sessions');
	const session = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	await assert.rejects(forkSession(session, folder, null), /nothing to fork/);
	await session.appendStep(turn('plan the release'));
	await session.commitEntries([{id: 'e1', extension: 'todo', customType: 'state', data: {items: 2}}]);
	const original = await readFile(session.path, 'utf8');

	const refused = await forkSession(session, folder, gateBus({cancel: true, reason: 'forks are off here'}));
	assert.deepEqual(refused, {ok: false, by: 'guard', reason: 'forks are off here'});
	assert.deepEqual(visible(await readdir(folder)), ['plan-the-release.json']);

	const outcome = await forkSession(session, folder, gateBus({cancel: false}));
	assert.ok(outcome.ok);
	const fork = outcome.fork;
	assert.equal(fork.path, join(folder, 'plan-the-release-fork.json'));
	assert.notEqual(fork.id, session.id);
	assert.deepEqual(fork.messages, session.messages);
	assert.deepEqual(fork.entries, session.entries);
	await fork.appendStep(turn('only in the fork'));
	await fork.close();
	assert.equal(await readFile(session.path, 'utf8'), original, 'the original is unchanged');
	const second = await forkSession(session, folder, null);
	assert.ok(second.ok);
	assert.equal(second.fork.path, join(folder, 'plan-the-release-fork-2.json'));
	await second.fork.close();
	await session.close();
	const index = readSessionIndex(folder);
	assert.equal(index['plan-the-release-fork']!.messages, 4);
	assert.equal(index['plan-the-release-fork']!.title, 'plan the release');
	assert.equal(index['plan-the-release-fork']!.size, (await stat(fork.path)).size);
});

test('the sessions folder is <data_dir>/workspaces/<id>/sessions by its real path, made owner-only, through a symlinked data folder too', async t => {
	const root = await tempWorkspace(t);
	const workspace = join(root, 'project');
	await mkdir(workspace);
	await mkdir(join(root, 'real-data'));
	await symlink(join(root, 'real-data'), join(root, 'data'));
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const folder = await workspaceSessionsFolder(workspace, dirs);
	const registry = JSON.parse(await readFile(join(root, 'real-data', 'workspaces.json'), 'utf8')) as {workspaces: Record<string, string>};
	assert.equal(folder, join(root, 'real-data', 'workspaces', Object.values(registry.workspaces)[0]!, 'sessions'));
	assert.equal((await stat(folder)).mode & 0o777, 0o700);
	assert.equal(await workspaceSessionsFolder(workspace, dirs), folder, 'the same workspace, the same folder');
	// A session opened there reports a path in this folder, so the chat knows it as one of its own (/rename).
	const session = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	assert.equal(join(session.path, '..'), folder);
	await session.close();
});

test('pruneProvisional: a header-only provisional file no one holds goes; one held, one with a step and anything else stay', async t => {
	const workspace = await tempWorkspace(t);
	const folder = join(workspace, 'sessions');
	await mkdir(folder);
	const header = `${JSON.stringify({type: 'i-session', version: 1, id: randomUUID(), workspace, created: new Date().toISOString()})}\n`;
	const left = join(folder, '.new-2025-01-01T00-00-00-000Z-aaaaaaaa.json');
	await writeFile(left, header);
	// A lock whose process is gone counts as free.
	await writeFile(`${left}.lock`, `${JSON.stringify({pid: 2 ** 22 + 17, hostname: hostname(), created: new Date().toISOString()})}\n`);
	const withStep = join(folder, '.new-2025-01-01T00-00-00-000Z-bbbbbbbb.json');
	await writeFile(withStep, `${header}${JSON.stringify({type: 'step', n: 1, messages: turn('kept')})}\n`);
	const named = join(folder, 'named.json');
	await writeFile(named, header);
	const held = await openWorkspaceSession({path: provisionalSessionPath(folder), workspace});
	await pruneProvisional(folder);
	assert.equal(existsSync(left), false);
	assert.equal(existsSync(`${left}.lock`), false);
	assert.ok(existsSync(withStep));
	assert.ok(existsSync(named));
	assert.ok(existsSync(held.path), 'a running chat keeps its file');
	await held.close();
	await pruneProvisional(join(workspace, 'none'));
});
