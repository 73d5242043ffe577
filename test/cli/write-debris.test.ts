// Issue 48, point 7: a write killed half-way leaves its temp file
// (`.NAME.<pid>.<uuid>.tmp`) beside its target only until the next start in
// that workspace, which removes it once its writer is gone, as the
// workspace's write journal names it; a writer still running keeps its own.
import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {once} from 'node:events';
import {existsSync, readdirSync, watch} from 'node:fs';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {binPath, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** Large enough that writing and syncing it takes a while: the writer is stopped while its temp file exists. */
const CONTENT_BYTES = 8 * 1024 * 1024;
/** A stop that came after the rename proves nothing; the attempt is made again. */
const MAX_ATTEMPTS = 5;
const tempName = /^\.big\.txt\.\d+\.[0-9a-f-]{36}\.tmp$/;

/**
 * Runs `i -p` whose model writes big.txt and stops it (SIGSTOP) as soon as
 * the temp file appears: the writer is alive, its write unfinished.
 */
async function stoppedMidWrite(box: Sandbox): Promise<{child: ChildProcess; temp: string}> {
	const content = 'x'.repeat(CONTENT_BYTES);
	for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
		mock.enqueue({toolCalls: [{id: `w${attempt}`, name: 'write', arguments: JSON.stringify({files: [{path: 'big.txt', content}]})}]});
		const child = spawn(process.execPath, [binPath, '-p', 'write it', '--yolo', '-C', box.workspace], {env: box.env, stdio: 'ignore'});
		const ended = once(child, 'exit');
		const temp = await new Promise<string | undefined>(resolve => {
			const watcher = watch(box.workspace, (_event, name) => {
				if (name === null || !tempName.test(name)) return;
				child.kill('SIGSTOP');
				watcher.close();
				resolve(join(box.workspace, name));
			});
			void ended.then(() => {
				watcher.close();
				resolve(undefined);
			});
		});
		if (temp !== undefined && existsSync(temp)) return {child, temp};
		child.kill('SIGKILL');
		await ended;
	}

	throw new Error(`the write finished before it could be stopped, ${MAX_ATTEMPTS} times`);
}

test('a write killed half-way leaves its temp file until the next start; while its writer lives, a start keeps it', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const {child, temp} = await stoppedMidWrite(box);
	try {
		mock.enqueue({text: 'meanwhile'});
		const meanwhile = await runCli(['-p', 'hello', '-C', box.workspace], {env: box.env});
		assert.equal(meanwhile.code, 0, meanwhile.stderr);
		assert.ok(existsSync(temp), 'a start kept the temp file of a writer that is still running');
	} finally {
		child.kill('SIGKILL');
	}

	await once(child, 'exit');
	assert.ok(existsSync(temp), 'the killed write left its temp file');
	mock.enqueue({text: 'next'});
	const next = await runCli(['-p', 'hello again', '-C', box.workspace], {env: box.env});
	assert.equal(next.code, 0, next.stderr);
	assert.deepEqual(readdirSync(box.workspace), [], 'the next start removed the temp file, and nothing else was there');
});
