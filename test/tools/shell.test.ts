import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import {test} from 'node:test';
import {LIVE_TAIL_INTERVAL_MS, LIVE_TAIL_LINES} from '../../source/core/tools/live-tail.js';
import {createShellTool} from '../../source/core/tools/shell.js';
import {ToolInputError} from '../../source/core/tools/types.js';
import {run, tempDir, toolContext} from './helpers.js';

const shell = createShellTool();

/** Running, and not a zombie waiting for its new parent to reap it. */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}

	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
	} catch {
		// No /proc (macOS): the signal check is all there is.
		return true;
	}
}

async function waitUntilGone(pid: number, ms: number): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (Date.now() < deadline) {
		if (!isAlive(pid)) {
			return true;
		}

		await delay(50);
	}

	return !isAlive(pid);
}

function childPid(output: string): number {
	const match = /child (\d+)/.exec(output);
	assert.ok(match, output);
	return Number(match[1]);
}

test('shell always asks, showing the command and the folder, and reports the exit code', async t => {
	const dir = await tempDir(t);
	const planned = await shell.plan({command: 'echo hello\necho again'}, toolContext(dir));
	assert.deepEqual(planned.ask, {title: 'Run: echo hello…', detail: `echo hello\necho again\n\nin ${dir}`});
	const result = await planned.run();
	assert.equal(result.output, 'hello\nagain\nexit code 0');
	assert.equal(result.isError, false);
});

test('the title keeps at most 80 characters of the command', async t => {
	const dir = await tempDir(t);
	const planned = await shell.plan({command: `echo ${'x'.repeat(200)}`}, toolContext(dir));
	assert.equal(planned.ask!.title.length, 'Run: '.length + 80);
	assert.ok(planned.ask!.title.endsWith('…'));
});

test('a non-zero exit is an error result with stdout and stderr combined', async t => {
	const dir = await tempDir(t);
	const result = await run(shell, {command: 'echo out; echo err >&2; exit 3'}, toolContext(dir));
	assert.equal(result.isError, true);
	assert.match(result.output, /out\n/);
	assert.match(result.output, /err\n/);
	assert.ok(result.output.endsWith('\nexit code 3'));
});

test('cwd is relative to the workspace and must be a folder', async t => {
	const dir = await tempDir(t);
	await mkdir(join(dir, 'sub'));
	const result = await run(shell, {command: 'pwd', cwd: 'sub'}, toolContext(dir));
	assert.equal(result.output, `${join(dir, 'sub')}\nexit code 0`);
	await assert.rejects(shell.plan({command: 'pwd', cwd: 'missing'}, toolContext(dir)), ToolInputError);
});

test('the command never sees I_APPROVAL_TOKEN but sees the rest of the environment', async t => {
	const dir = await tempDir(t);
	process.env.I_APPROVAL_TOKEN = 'secret-token';
	process.env.I_TOOLS_TEST_VISIBLE = 'visible';
	t.after(() => {
		delete process.env.I_APPROVAL_TOKEN;
		delete process.env.I_TOOLS_TEST_VISIBLE;
	});
	const result = await run(shell, {command: 'echo "[$I_APPROVAL_TOKEN] [$I_TOOLS_TEST_VISIBLE]"; env | grep -c I_APPROVAL_TOKEN'}, toolContext(dir));
	assert.match(result.output, /^\[\] \[visible\]\n0\n/);
});

test("the command does not see the session's secrets: the API key variable by name, and its value under any name", async t => {
	const dir = await tempDir(t);
	process.env.I_TOOLS_TEST_KEY = 'sk-canary-1';
	process.env.I_TOOLS_TEST_COPY = 'sk-canary-1';
	process.env.I_TOOLS_TEST_OTHER = 'kept';
	t.after(() => {
		for (const name of ['I_TOOLS_TEST_KEY', 'I_TOOLS_TEST_COPY', 'I_TOOLS_TEST_OTHER']) delete process.env[name];
	});
	const guarded = createShellTool({names: ['i_tools_test_key'], values: ['sk-canary-1']});
	const result = await run(guarded, {command: 'env | grep I_TOOLS_TEST_ | sort'}, toolContext(dir));
	assert.match(result.output, /^I_TOOLS_TEST_OTHER=kept\n/);
	assert.doesNotMatch(result.output, /canary/);
});

test('output over 1 MiB keeps the first and last half MiB and says how much was dropped', async t => {
	const dir = await tempDir(t);
	const command = "printf 'BEGIN'; head -c 5242880 /dev/zero | tr '\\0' a; printf 'END'";
	const result = await run(shell, {command}, toolContext(dir, {outputLimit: 2_000_000}));
	const total = 5 + 5_242_880 + 3;
	assert.ok(result.output.startsWith('BEGIN'));
	assert.ok(result.output.endsWith('END\nexit code 0'));
	assert.ok(result.output.includes(`\n… ${total - 1024 * 1024} bytes omitted …\n`));
	assert.ok(result.output.length < 1024 * 1024 + 200);
});

test('output is fitted to the output limit, keeping head, tail and the exit code', async t => {
	const dir = await tempDir(t);
	const result = await run(shell, {command: 'echo FIRST; seq 1 5000; echo LAST'}, toolContext(dir, {outputLimit: 300}));
	assert.ok(result.output.length <= 300, `length ${result.output.length}`);
	assert.ok(result.output.startsWith('FIRST'));
	assert.match(result.output, /characters truncated/);
	assert.ok(result.output.endsWith('LAST\nexit code 0'));
});

test('a timeout kills the whole process group, grandchildren included', async t => {
	const dir = await tempDir(t);
	const started = Date.now();
	const result = await run(shell, {command: 'sleep 30 & echo "child $!"; wait', timeout: 1}, toolContext(dir));
	assert.ok(Date.now() - started < 5000);
	assert.equal(result.isError, true);
	assert.ok(result.output.endsWith('timed out after 1s; the command and everything it started were killed'));
	assert.ok(await waitUntilGone(childPid(result.output), 3000), 'the grandchild sleep is still running');
});

test('processes that ignore SIGTERM get SIGKILL two seconds later', async t => {
	const dir = await tempDir(t);
	const started = Date.now();
	const result = await run(shell, {command: 'trap \'\' TERM; sleep 30 & echo "child $!"; wait', timeout: 1}, toolContext(dir));
	const took = Date.now() - started;
	assert.ok(took >= 2500 && took < 6000, `took ${took} ms`);
	assert.match(result.output, /timed out after 1s/);
	assert.ok(await waitUntilGone(childPid(result.output), 3000));
});

test('a grandchild that ignores SIGTERM gets SIGKILL even though the shell itself died of SIGTERM', async t => {
	const dir = await tempDir(t);
	const result = await run(shell, {command: '(trap \'\' TERM; exec sleep 30) & echo "child $!"; wait', timeout: 1}, toolContext(dir));
	assert.match(result.output, /timed out after 1s/);
	assert.ok(await waitUntilGone(childPid(result.output), 3000), 'the grandchild sleep is still running');
});

test('once the process group is gone, no SIGKILL timer is left to hold the process open', async t => {
	const dir = await tempDir(t);
	// A fresh process that only runs the command: it exits as soon as nothing is pending.
	const script = `
		import {runCommand} from ${JSON.stringify(new URL('../../source/core/tools/run-command.js', import.meta.url).href)};
		const result = await runCommand('sleep 30 & wait', {cwd: ${JSON.stringify(dir)}, timeoutSeconds: 1, signal: new AbortController().signal});
		console.log(JSON.stringify(result.end));
	`;
	const child = spawn(process.execPath, ['--input-type=module', '-e', script], {stdio: ['ignore', 'pipe', 'inherit']});
	let end = '';
	let resultAt = 0;
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (text: string) => {
		end += text;
		resultAt ||= Date.now();
	});
	const code = await new Promise<number | null>(resolve => child.on('exit', resolve));
	const lingered = Date.now() - resultAt;
	assert.equal(code, 0);
	assert.deepEqual(JSON.parse(end), {kind: 'timeout', seconds: 1});
	assert.ok(lingered < 1000, `the process stayed ${lingered} ms after the result`);
});

test('aborting the signal kills the process group and reports it', async t => {
	const dir = await tempDir(t);
	const controller = new AbortController();
	const planned = await shell.plan({command: 'sleep 30 & echo "child $!"; wait'}, toolContext(dir, {signal: controller.signal}));
	setTimeout(() => {
		controller.abort();
	}, 300);
	const result = await planned.run();
	assert.equal(result.isError, true);
	assert.ok(result.output.endsWith('aborted; the command and everything it started were killed'));
	assert.ok(await waitUntilGone(childPid(result.output), 3000));
});

test('a background process holding the output open does not hold up the result', async t => {
	const dir = await tempDir(t);
	const started = Date.now();
	const result = await run(shell, {command: 'sleep 20 & echo "child $!"'}, toolContext(dir));
	assert.ok(Date.now() - started < 3000);
	assert.match(result.output, /still hold its output open/);
	assert.ok(result.output.endsWith('exit code 0'));
	const pid = childPid(result.output);
	assert.ok(isAlive(pid), 'background processes are left running');
	process.kill(pid);
});

test('a command killed by a signal says which', async t => {
	const dir = await tempDir(t);
	const result = await run(shell, {command: 'kill -9 $$'}, toolContext(dir));
	assert.equal(result.isError, true);
	assert.ok(result.output.endsWith('killed by signal SIGKILL'));
	assert.ok(result.output.startsWith('(no output)'));
});

test('a running command reports its last output lines as progress, throttled and bounded; the result is the same', async t => {
	const dir = await tempDir(t);
	const updates: Array<{text: string; at: number}> = [];
	const context = {...toolContext(dir), onUpdate: (text: string) => void updates.push({text, at: Date.now()})};
	const command = 'for i in 1 2 3 4 5 6 7 8; do echo line-$i; sleep 0.15; done';
	const result = await run(shell, {command}, context);
	const ended = Date.now();
	const count = updates.length;
	await delay(2 * LIVE_TAIL_INTERVAL_MS);
	assert.equal(updates.length, count, 'nothing comes after the result');
	assert.equal(result.output, `${Array.from({length: 8}, (_, index) => `line-${index + 1}`).join('\n')}\nexit code 0`);
	assert.ok(updates.length >= 4, `an update for most lines: ${updates.map(update => update.text).join(' | ')}`);
	for (const [index, update] of updates.entries()) {
		assert.ok(update.text.split('\n').length <= LIVE_TAIL_LINES, update.text);
		if (index > 0) assert.ok(update.at - updates[index - 1]!.at >= LIVE_TAIL_INTERVAL_MS - 5, 'at most one update an interval');
	}

	const third = updates.find(update => update.text.split('\n').at(-1) === 'line-3');
	assert.ok(third && third.at < ended - 300, 'line-3 was reported while the command still ran');
	assert.equal(updates.at(-1)!.text.split('\n').at(-1)!.startsWith('line-'), true);
	const quiet = await run(shell, {command: 'echo hi'}, toolContext(dir));
	assert.equal(quiet.output, 'hi\nexit code 0', 'without onUpdate nothing changes');
});
