import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {lstat, mkdir, open, readdir, readFile, stat, symlink, truncate, writeFile} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import {test} from 'node:test';
import {UsageError} from '../../source/core/errors.js';
import type {Message} from '../../source/core/messages.js';
import {openSession, sessionPathForName} from '../../source/core/session/session-store.js';
import {isDeepFrozen} from '../../source/core/immutable.js';
import {stepFor, tempWorkspace} from './helpers.js';

const mib = 1024 * 1024;

function stepLine(n: number, messages: Message[]): string {
	return `${JSON.stringify({type: 'step', n, messages})}\n`;
}

/** A session file with steps 1..count, closed again; returns the path and the file's bytes. */
async function sessionWithSteps(workspace: string, count: number): Promise<{path: string; bytes: Buffer}> {
	const path = join(workspace, 's.json');
	const session = await openSession({path, workspace});
	for (let n = 1; n <= count; n++) await session.appendStep(stepFor(n));
	await session.close();
	return {path, bytes: await readFile(path)};
}

/** Checks that the open kept the cut bytes, unchanged and private, in `<path>.dropped-<time>`. */
async function assertSavedTo(path: string, savedTo: string | undefined, cut: Buffer, label: string): Promise<void> {
	assert.ok(savedTo, `${label}: savedTo is set`);
	assert.equal(dirname(savedTo), dirname(path), label);
	assert.match(basename(savedTo), new RegExp(`^${basename(path).replaceAll('.', '\\.')}\\.dropped-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z(-\\d+)?$`), label);
	assert.deepEqual(await readFile(savedTo), cut, `${label}: the side file holds exactly the cut bytes`);
	assert.equal((await stat(savedTo)).mode & 0o777, 0o600, `${label}: the side file is private`);
}

function lineStarts(bytes: Buffer): number[] {
	const starts = [0];
	for (let i = bytes.indexOf(10); i !== -1 && i + 1 < bytes.length; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
	return starts;
}

test('create, append, reopen: same id, same messages, header as specified', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 'deep', 'er', 'chat.json');
	const first = await openSession({path, workspace});
	assert.equal(first.created, true);
	assert.match(first.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	assert.deepEqual(first.messages, []);
	assert.equal(first.dropped, null);
	const steps: Message[][] = [
		[
			{role: 'system', content: 'be brief'},
			{
				role: 'user',
				content: [
					{type: 'text', text: 'look'},
					{type: 'image_url', image_url: {url: 'data:image/png;base64,AAAA'}},
				],
			},
		],
		[
			{
				role: 'assistant',
				content: null,
				reasoning_content: 'think',
				tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{"path":"a"}'}}],
				_responses_output: [{type: 'reasoning'}, {type: 'function_call', call_id: 'c1', name: 'read', arguments: '{"path":"a"}'}],
			},
			{role: 'tool', tool_call_id: 'c1', content: 'file text\nwith\u2028separators'},
			{role: 'user', content: [{type: 'image_url', image_url: {url: 'data:image/png;base64,BBBB'}}], _tool_call_id: 'c1'},
		],
	];
	for (const step of steps) await first.appendStep(step);
	assert.deepEqual(first.messages, steps.flat());
	await first.close();

	const lines = (await readFile(path, 'utf8')).split('\n');
	assert.equal(lines.length, 4);
	assert.equal(lines[3], '');
	const header = JSON.parse(lines[0]!);
	assert.deepEqual(Object.keys(header), ['type', 'version', 'id', 'workspace', 'created']);
	assert.equal(header.type, 'i-session');
	assert.equal(header.version, 1);
	assert.equal(header.id, first.id);
	assert.equal(header.workspace, workspace);
	assert.equal(new Date(header.created).toISOString(), header.created);
	assert.deepEqual(JSON.parse(lines[2]!), {type: 'step', n: 2, messages: steps[1]});

	const second = await openSession({path, workspace});
	assert.equal(second.created, false);
	assert.equal(second.id, first.id);
	assert.equal(second.workspace, workspace);
	assert.equal(second.path, path);
	assert.deepEqual(second.messages, steps.flat());
	assert.equal(second.dropped, null);
	await second.close();
});

test('appending a step writes only that step: the size grows by its line, earlier bytes stay', async t => {
	const workspace = await tempWorkspace(t);
	const {path} = await sessionWithSteps(workspace, 300);
	const session = await openSession({path, workspace});
	assert.deepEqual(session.messages, Array.from({length: 300}, (_, i) => stepFor(i + 1)).flat(), 'lines longer than a read chunk come back whole');
	const before = await stat(path);
	assert.ok(before.size > 5 * mib, `the session should be large (${before.size} bytes)`);
	const prefix = await readFile(path);
	let size = before.size;
	for (let n = 301; n <= 320; n++) {
		await session.appendStep(stepFor(n));
		const now = await stat(path);
		assert.equal(now.size - size, Buffer.byteLength(stepLine(n, stepFor(n))));
		assert.equal(now.ino, before.ino, 'the file is appended to, not replaced');
		size = now.size;
	}
	await session.close();
	const after = await readFile(path);
	assert.ok(after.subarray(0, prefix.length).equals(prefix));
});

test('a torn last line, cut at every byte, reopens to the previous steps and reports the cut', async t => {
	const workspace = await tempWorkspace(t);
	const small = (n: number): Message[] => [{role: 'user', content: `步骤 ${n} é ${'y'.repeat(n)}`}];
	const path = join(workspace, 's.json');
	const writer = await openSession({path, workspace});
	for (let n = 1; n <= 3; n++) await writer.appendStep(small(n));
	await writer.close();
	const bytes = await readFile(path);
	const lastStart = lineStarts(bytes).at(-1)!;
	for (let cut = lastStart; cut < bytes.length; cut++) {
		await writeFile(path, bytes.subarray(0, cut));
		const session = await openSession({path, workspace});
		assert.deepEqual(session.messages, [...small(1), ...small(2)], `cut at ${cut}`);
		if (cut === lastStart) assert.equal(session.dropped, null);
		else {
			assert.equal(session.dropped?.bytes, cut - lastStart);
			assert.equal(session.dropped?.lines, 1);
			assert.match(session.dropped!.reason, /^line 4: incomplete/);
			await assertSavedTo(path, session.dropped?.savedTo, bytes.subarray(lastStart, cut), `cut at ${cut}`);
		}
		assert.equal((await stat(path)).size, lastStart, 'the torn line is cut from the file');
		await session.close();
	}
	const sideFiles = (await readdir(workspace)).filter(name => name.startsWith('s.json.dropped-'));
	assert.equal(sideFiles.length, bytes.length - lastStart - 1, 'every repair kept its own side file');
	// The repaired file takes new steps with the next number.
	await writeFile(path, bytes.subarray(0, bytes.length - 1));
	const repaired = await openSession({path, workspace});
	await repaired.appendStep(small(9));
	await repaired.close();
	const reopened = await openSession({path, workspace});
	assert.deepEqual(reopened.messages, [...small(1), ...small(2), ...small(9)]);
	assert.equal(reopened.dropped, null);
	await reopened.close();
});

test('a bad line in the middle cuts it and everything after it, keeping the cut bytes in a side file', async t => {
	const workspace = await tempWorkspace(t);
	const {path, bytes} = await sessionWithSteps(workspace, 4);
	const starts = lineStarts(bytes);
	const badLines: Array<[string, Buffer, RegExp]> = [
		['garbage', Buffer.from('garbage\n'), /^line 4: not valid JSON$/],
		['empty line', Buffer.from('\n'), /^line 4: not valid JSON$/],
		['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), /^line 4: not valid UTF-8$/],
		['unknown role', Buffer.from(stepLine(3, [{role: 'robot', content: 'x'} as unknown as Message])), /^line 4: not a valid step \(messages\.0\.role: /],
		['assistant content a number', Buffer.from(stepLine(3, [{role: 'assistant', content: 7} as unknown as Message])), /^line 4: not a valid step \(messages\.0\.content: /],
		['no messages', Buffer.from(stepLine(3, [])), /^line 4: not a valid step \(messages: /],
		['step number skipped', Buffer.from(stepLine(4, stepFor(3))), /^line 4: step number 4, expected 3$/],
		['a second header', bytes.subarray(0, starts[1]), /^line 4: not a valid step \(type: /],
	];
	for (const [name, bad, reason] of badLines) {
		const damaged = Buffer.concat([bytes.subarray(0, starts[3]), bad, bytes.subarray(starts[4])]);
		await writeFile(path, damaged);
		const session = await openSession({path, workspace});
		assert.deepEqual(session.messages, [...stepFor(1), ...stepFor(2)], name);
		assert.deepEqual({...session.dropped, reason: undefined, savedTo: undefined}, {bytes: damaged.length - starts[3]!, lines: 2, reason: undefined, savedTo: undefined}, name);
		assert.match(session.dropped!.reason, reason, name);
		assert.deepEqual(await readFile(path), bytes.subarray(0, starts[3]), name);
		await assertSavedTo(path, session.dropped?.savedTo, damaged.subarray(starts[3]), name);
		await session.close();
	}
});

test('when the cut bytes cannot be saved, the open is refused and the damaged file left as it is', async t => {
	const workspace = await tempWorkspace(t);
	// Short enough for a file name, too long once ".dropped-<time>" is added (names are at most 255 bytes), so the copy fails even for root.
	const path = join(workspace, `${'n'.repeat(230)}.json`);
	const header = JSON.stringify({type: 'i-session', version: 1, id: crypto.randomUUID(), workspace, created: new Date().toISOString()});
	const damaged = Buffer.from(`${header}\n${stepLine(1, stepFor(1))}garbage\n${stepLine(3, stepFor(3))}`);
	await writeFile(path, damaged);
	await assert.rejects(openSession({path, workspace}), (error: Error) => {
		assert.ok(error instanceof UsageError);
		assert.ok(error.message.startsWith(`session ${path} is damaged (line 3: not valid JSON); repairing it cuts its last `), error.message);
		assert.match(error.message, new RegExp(`must first be saved to ${path}\\.dropped-\\S+, but that failed: .*The session was left unchanged`));
		return true;
	});
	assert.deepEqual(await readFile(path), damaged);
	assert.deepEqual((await readdir(workspace)).sort(), [basename(path)], 'no side file, temp file or lock is left');
});

test('steps of several MiB, spanning read chunks, reopen whole', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const steps: Message[][] = [
		stepFor(1),
		[
			{role: 'assistant', content: null, tool_calls: [{id: 'big', type: 'function', function: {name: 'read', arguments: '{}'}}]},
			{role: 'tool', tool_call_id: 'big', content: '界'.repeat(1_500_000)},
		],
		stepFor(2),
		[{role: 'user', content: 'z'.repeat(3 * mib)}],
	];
	const session = await openSession({path, workspace});
	for (const step of steps) await session.appendStep(step);
	await session.close();
	const reopened = await openSession({path, workspace});
	assert.deepEqual(reopened.messages, steps.flat());
	assert.equal(reopened.dropped, null);
	await reopened.close();
});

test('metadata keys and unknown fields survive the round trip', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const step = [{role: 'user', content: 'hi', _origin: {via: 'paste'}, _tool_call_id: 'x'}] as unknown as Message[];
	const session = await openSession({path, workspace});
	await session.appendStep(step);
	await session.close();
	const reopened = await openSession({path, workspace});
	assert.deepEqual(reopened.messages, step);
	await reopened.close();
});

test('a file that is not a session is refused and left untouched', async t => {
	const workspace = await tempWorkspace(t);
	const header = (fields: object) => `${JSON.stringify({type: 'i-session', version: 1, id: crypto.randomUUID(), workspace, created: new Date().toISOString(), ...fields})}\n`;
	const cases: Array<[string, string | Buffer, RegExp]> = [
		['empty', '', /is not an i session file \(it is empty\)$/],
		['text', 'hello world\nsecond line\n', /is not an i session file \(its first line is not JSON\)$/],
		['other JSON', '{"name":"package"}\n{"type":"step","n":1,"messages":[]}\n', /is not an i session file \(its first line is not an i-session header: type: /],
		['no newline in 100 KB', Buffer.alloc(100 * 1024, 0x61), /is not an i session file \(its first line is not a complete i-session header\)$/],
		['header without newline', header({}).trimEnd(), /is not an i session file \(its first line is not a complete i-session header\)$/],
		['bad id', header({id: 'not-a-uuid'}), /is not an i session file \(its first line is not an i-session header: id: /],
	];
	for (const [name, content, message] of cases) {
		const path = join(workspace, `${name}.json`);
		await writeFile(path, content);
		await assert.rejects(openSession({path, workspace}), (error: Error) => {
			assert.ok(error instanceof UsageError, name);
			assert.ok(error.message.startsWith(`${path} is not an i session file (`), error.message);
			assert.match(error.message, message, name);
			return true;
		});
		assert.deepEqual(await readFile(path), Buffer.from(content), name);
		assert.equal(existsSync(`${path}.lock`), false, `${name}: the lock is released`);
	}
	const newer = join(workspace, 'newer.json');
	await writeFile(newer, header({version: 2}));
	await assert.rejects(openSession({path: newer, workspace}), {name: 'UsageError', message: `session ${newer} has format version 2, but this i reads version 1; use a newer i or another session`});
});

test('a session from another workspace is refused and left untouched', async t => {
	const workspace = await tempWorkspace(t);
	const other = join(workspace, 'other');
	const {path, bytes} = await sessionWithSteps(workspace, 2);
	await assert.rejects(openSession({path, workspace: other}), (error: Error) => {
		assert.ok(error instanceof UsageError);
		assert.equal(error.message, `session ${path} belongs to workspace ${workspace}; this run's workspace is ${other} (use -C ${workspace} or another session)`);
		return true;
	});
	assert.deepEqual(await readFile(path), bytes);
	assert.equal(existsSync(`${path}.lock`), false);
});

test('size limit: a file of exactly 256 MiB is read, one byte more is refused untouched', async t => {
	const workspace = await tempWorkspace(t);
	const {path, bytes} = await sessionWithSteps(workspace, 1);
	// Sparse zeros after the steps: a damaged tail that the open cuts.
	await truncate(path, 256 * mib);
	const atLimit = await openSession({path, workspace});
	assert.deepEqual(atLimit.messages, stepFor(1));
	assert.equal(atLimit.dropped?.bytes, 256 * mib - bytes.length);
	assert.equal(atLimit.dropped?.lines, 1);
	assert.match(atLimit.dropped!.reason, /^line 3: incomplete/);
	assert.equal((await stat(path)).size, bytes.length);
	assert.equal((await stat(atLimit.dropped!.savedTo)).size, 256 * mib - bytes.length, 'the whole cut is saved');
	await atLimit.close();

	await truncate(path, 256 * mib + 1);
	await assert.rejects(openSession({path, workspace}), {
		name: 'UsageError',
		message: `session ${path} is ${256 * mib + 1} bytes, over the limit of ${256 * mib} (256 MiB); start another session`,
	});
	assert.equal((await stat(path)).size, 256 * mib + 1);
});

test('concurrent appendStep calls are written in call order, one line each', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const session = await openSession({path, workspace});
	const steps = Array.from({length: 30}, (_, i) => stepFor(i + 1));
	await Promise.all(steps.map(step => session.appendStep(step)));
	assert.deepEqual(session.messages, steps.flat());
	await session.close();
	const lines = (await readFile(path, 'utf8')).trimEnd().split('\n').slice(1);
	assert.deepEqual(
		lines.map(line => JSON.parse(line).n),
		steps.map((_, i) => i + 1),
	);
	const reopened = await openSession({path, workspace});
	assert.deepEqual(reopened.messages, steps.flat());
	await reopened.close();
});

test('a step saved is the step at the time of the call, and invalid steps are refused unwritten', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const session = await openSession({path, workspace});
	const step: Message[] = [{role: 'user', content: 'first'}];
	const saving = session.appendStep(step);
	step.push({role: 'user', content: 'added later'});
	await saving;
	const size = (await stat(path)).size;
	await assert.rejects(session.appendStep([{role: 'robot'} as unknown as Message]), /cannot save step 2 to session .*: not a valid step \(messages\.0\.role: /);
	await assert.rejects(session.appendStep([]), /cannot save step 2 to session .*: not a valid step \(messages: /);
	assert.equal((await stat(path)).size, size);
	await session.appendStep([{role: 'user', content: 'second'}]);
	await session.close();
	const reopened = await openSession({path, workspace});
	assert.deepEqual(reopened.messages, [
		{role: 'user', content: 'first'},
		{role: 'user', content: 'second'},
	]);
	await reopened.close();
});

test('close is idempotent, waits for queued steps, and appendStep after it rejects', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const session = await openSession({path, workspace});
	const queued = session.appendStep(stepFor(1));
	await Promise.all([session.close(), session.close()]);
	await queued;
	await session.close();
	await assert.rejects(session.appendStep(stepFor(2)), {message: `session ${path} is closed; open it again to append`});
	assert.equal(existsSync(`${path}.lock`), false);
	const reopened = await openSession({path, workspace});
	assert.deepEqual(reopened.messages, stepFor(1));
	await reopened.close();
});

test('a session is known by its real path: through a symlinked folder, and through a symlink to the file', async t => {
	const workspace = await tempWorkspace(t);
	await mkdir(join(workspace, 'real'));
	await symlink(join(workspace, 'real'), join(workspace, 'linked'));
	const created = await openSession({path: join(workspace, 'linked', 'new.json'), workspace});
	const real = join(workspace, 'real', 'new.json');
	assert.equal(created.path, real);
	assert.ok(existsSync(`${real}.lock`));
	await created.appendStep(stepFor(1));
	await created.close();

	await symlink(real, join(workspace, 'alias.json'));
	const viaAlias = await openSession({path: join(workspace, 'alias.json'), workspace});
	assert.equal(viaAlias.path, real);
	assert.equal(viaAlias.id, created.id);
	assert.deepEqual(viaAlias.messages, stepFor(1));
	assert.ok(existsSync(`${real}.lock`));
	assert.equal(existsSync(join(workspace, 'alias.json.lock')), false);
	await viaAlias.close();

	// A link to nothing is refused rather than replaced, so its target can still be created under its own name.
	const dangling = join(workspace, 'dangling.json');
	await symlink(join(workspace, 'missing.json'), dangling);
	await assert.rejects(openSession({path: dangling, workspace}), {
		name: 'UsageError',
		message: `session ${dangling} is a symbolic link that led to no file when this open began; give the path of the file it points to`,
	});
	assert.equal((await lstat(dangling)).isSymbolicLink(), true);
	assert.equal(existsSync(`${dangling}.lock`), false);
});

test('new session files are private to their owner', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const session = await openSession({path, workspace});
	await session.close();
	const handle = await open(path);
	assert.equal((await handle.stat()).mode & 0o077, 0);
	await handle.close();
});

test('sessionPathForName: 1-64 characters of [A-Za-z0-9._-], not starting with a dot', () => {
	const workspace = '/work/space';
	assert.equal(sessionPathForName(workspace, 'a'), '/work/space/.i/sessions/a.json');
	assert.equal(sessionPathForName(workspace, 'Fix_bug-2.v1'), '/work/space/.i/sessions/Fix_bug-2.v1.json');
	assert.equal(sessionPathForName(workspace, 'n'.repeat(64)), `/work/space/.i/sessions/${'n'.repeat(64)}.json`);
	for (const bad of ['n'.repeat(65), '', '.hidden', '..', 'a/b', '../x', 'a b', 'ü', 'a\nb', 'a\\b']) {
		assert.throws(
			() => sessionPathForName(workspace, bad),
			(error: Error) => {
				assert.ok(error instanceof UsageError, bad);
				assert.equal(error.message, `session name ${JSON.stringify(bad)} is invalid: use 1–64 characters from A–Z, a–z, 0–9, '.', '_', '-', not starting with '.'`);
				return true;
			},
		);
	}
});

test('the session’s messages are frozen all the way down, as loaded and as appended, and known as such', async t => {
	const workspace = await tempWorkspace(t);
	const {path} = await sessionWithSteps(workspace, 2);
	const session = await openSession({path, workspace});
	await session.appendStep([
		{role: 'assistant', content: null, tool_calls: [{id: 'c', type: 'function', function: {name: 'read', arguments: '{}'}}]},
		{role: 'tool', tool_call_id: 'c', content: 'text'},
	]);
	assert.ok(session.messages.length >= 4);
	for (const message of session.messages) assert.ok(isDeepFrozen(message) && Object.isFrozen(message));
	const last = session.messages.at(-2) as {tool_calls: Array<{function: {name: string}}>};
	assert.throws(() => {
		last.tool_calls[0]!.function.name = 'write';
	}, TypeError);
	await session.close();
});

const readCall = (id: string) => ({id, type: 'function' as const, function: {name: 'read', arguments: '{}'}});

test('a step whose history a provider would refuse is cut with everything after it, like a damaged line', async t => {
	const workspace = await tempWorkspace(t);
	const {path, bytes} = await sessionWithSteps(workspace, 2);
	const refused: Array<[string, Message[], string]> = [
		[
			'an orphan tool result',
			[
				{role: 'user', content: 'u'},
				{role: 'tool', tool_call_id: 'nope', content: 'x'},
			],
			'line 4: message 1 (tool): the tool result for "nope" answers no tool call of the assistant message before it',
		],
		[
			'a call whose result comes a step later',
			[{role: 'assistant', content: null, tool_calls: [readCall('c')]}],
			'line 4: message 0 (assistant): tool call "c" (read) gets no result; every tool call needs exactly one',
		],
		['a second system prompt', [{role: 'system', content: 'again'}], 'line 4: message 0 (system): a system message may only come first in the history'],
	];
	for (const [name, step, reason] of refused) {
		const tail = stepLine(3, step) + stepLine(4, stepFor(4));
		await writeFile(path, Buffer.concat([bytes, Buffer.from(tail)]));
		const session = await openSession({path, workspace});
		assert.deepEqual(session.messages, [...stepFor(1), ...stepFor(2)], name);
		assert.deepEqual({...session.dropped, savedTo: undefined}, {bytes: Buffer.byteLength(tail), lines: 2, reason, savedTo: undefined}, name);
		assert.deepEqual(await readFile(path), bytes, name);
		await assertSavedTo(path, session.dropped?.savedTo, Buffer.from(tail), name);
		// The repaired file takes the next step under the next number.
		await session.appendStep(stepFor(3));
		await session.close();
		const reopened = await openSession({path, workspace});
		assert.equal(reopened.dropped, null, name);
		await reopened.close();
		await writeFile(path, bytes);
	}
});

test('a compaction step after a refused one replaces the history it belonged to: nothing is cut', async t => {
	const workspace = await tempWorkspace(t);
	const {path, bytes} = await sessionWithSteps(workspace, 1);
	const compacted: Message[] = [
		{role: 'system', content: 's'},
		{role: 'user', content: 'summary'},
		{role: 'assistant', content: null, tool_calls: [readCall('c')]},
		{role: 'tool', tool_call_id: 'c', content: 'r'},
	];
	const tail = stepLine(2, [{role: 'tool', tool_call_id: 'nope', content: 'x'}]) + `${JSON.stringify({type: 'step', n: 3, messages: compacted, replaces_history: true})}\n` + stepLine(4, stepFor(4));
	await writeFile(path, Buffer.concat([bytes, Buffer.from(tail)]));
	const session = await openSession({path, workspace});
	assert.equal(session.dropped, null);
	assert.deepEqual(session.messages, [...compacted, ...stepFor(4)]);
	await session.close();
});

test('appendStep refuses a step a provider would refuse, unwritten, and the session goes on', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	const session = await openSession({path, workspace});
	await session.appendStep([
		{role: 'user', content: 'u'},
		{role: 'assistant', content: null, tool_calls: [readCall('c')]},
		{role: 'tool', tool_call_id: 'c', content: 'r'},
	]);
	const size = (await stat(path)).size;
	await assert.rejects(session.appendStep([{role: 'tool', tool_call_id: 'nope', content: 'x'}]), {
		message: `cannot save step 2 to session ${path}: message 0 (tool): the tool result for "nope" answers no tool call of the assistant message before it; a provider would refuse that history`,
	});
	await assert.rejects(
		session.appendStep([
			{role: 'assistant', content: null, tool_calls: [readCall('e'), readCall('e')]},
			{role: 'tool', tool_call_id: 'e', content: 'r'},
		]),
		/message 0 \(assistant\): tool call ID "e" appears twice in this message/,
	);
	assert.equal((await stat(path)).size, size);
	await session.appendStep([
		{role: 'assistant', content: null, tool_calls: [readCall('d')]},
		{role: 'tool', tool_call_id: 'd', content: 'r'},
	]);
	await session.close();
	const reopened = await openSession({path, workspace});
	assert.equal(reopened.dropped, null);
	assert.equal(reopened.messages.length, 5);
	await reopened.close();
});
