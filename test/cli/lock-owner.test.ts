// Issue 48, point 5: a lock's owner is its PID and its start time, so a PID
// reused by an unrelated process after a kill no longer holds the lock for
// good (sessions, the workspace registry, every writer's lock).
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {hasProc, otherStart, unrelatedProcess} from '../helpers/live-process.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const skip = !hasProc && 'needs /proc';

function sandbox() {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	return box;
}

/** A lock file as another process on this host would have written it. */
function lockOf(pid: number, started: string): string {
	return `${JSON.stringify({pid, hostname: hostname(), started, created: new Date().toISOString()})}\n`;
}

test("a session whose lock names a live process that started at another time resumes; at that process's own start time it is in use", {skip}, async t => {
	const box = sandbox();
	const session = join(box.root, 'reused.json');
	mock.enqueue({text: 'one'});
	assert.equal((await runCli(['-p', 'one', '--session', session, '-C', box.workspace], {env: box.env})).code, 0);
	const {pid, started} = await unrelatedProcess(t);

	writeFileSync(`${session}.lock`, lockOf(pid, otherStart(started)));
	mock.enqueue({text: 'two'});
	const resumed = await runCli(['-p', 'two', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(resumed.code, 0, resumed.stderr);
	assert.equal(resumed.stdout, 'two\n');
	assert.equal(existsSync(`${session}.lock`), false, 'the run released the lock it took over');

	writeFileSync(`${session}.lock`, lockOf(pid, started));
	const refused = await runCli(['-p', 'three', '--session', session, '-C', box.workspace], {env: box.env});
	assert.equal(refused.code, 2);
	assert.match(refused.stderr, new RegExp(`^i: session ${session} is in use by process ${pid} \\(lock ${session}\\.lock\\)`));
});

test("a first run in a new workspace takes over the registry's lock left by a process whose PID is now another's", {skip}, async t => {
	const box = sandbox();
	const {pid, started} = await unrelatedProcess(t);
	mkdirSync(join(box.root, 'data'), {recursive: true});
	const lock = join(box.root, 'data', 'workspaces.json.lock');
	writeFileSync(lock, lockOf(pid, otherStart(started)));
	mock.enqueue({text: 'hello'});
	// Taken for a live holder's, the registry's lock would be waited for 10 s and the start would fail.
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.ok(existsSync(join(box.root, 'data', 'workspaces.json')), 'the workspace was registered');
	assert.equal(existsSync(lock), false);
});
