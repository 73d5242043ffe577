// `git diff | i -p "Review this change"` (issue 45, point 1): with the prompt
// on the command line, a pipe or a file on stdin is read and sent after the
// prompt, marked as piped input, up to MAX_PIPED_INPUT_BYTES; a stdin that
// stays open and silent is given up after PIPED_INPUT_WAIT_MS with a word on
// stderr; a device (`< /dev/null`) is not waited for at all.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {binPath, makeSandbox, runCli} from '../helpers/cli.js';
import {MAX_PIPED_INPUT_BYTES, PIPED_INPUT_WAIT_MS} from '../../source/modes/read-prompt.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function box() {
	const made = makeSandbox();
	made.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	return made;
}

/** `sh -c SCRIPT` with `$I` the command that runs i: the shell makes the pipes and redirections a person would. */
async function shell(script: string, env: NodeJS.ProcessEnv): Promise<{code: number; stdout: string; stderr: string}> {
	return new Promise(resolve => {
		execFile('/bin/sh', ['-c', script], {env: {...env, I: `${JSON.stringify(process.execPath)} ${JSON.stringify(binPath)}`}, timeout: 30_000}, (error, stdout, stderr) => {
			resolve({code: error ? ((error as {code?: number}).code ?? 1) : 0, stdout, stderr});
		});
	});
}

/** The user message of the last request the mock received. */
function lastPrompt(): string {
	const body = mock.requests.at(-1)!.body as {messages: Array<{role: string; content: string}>};
	return body.messages.filter(message => message.role === 'user').at(-1)!.content;
}

test('a pipe beside -p TEXT reaches the model after the prompt, marked as piped input', async () => {
	const made = box();
	mock.enqueue({text: 'looks fine'});
	const run = await shell(`printf 'diff --git a/x b/x\\n+one line\\n' | eval "$I" -p '"Review this change"' -C "$W"`, {...made.env, W: made.workspace});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'looks fine\n');
	assert.equal(lastPrompt(), 'Review this change\n\n<piped-input>\ndiff --git a/x b/x\n+one line\n</piped-input>');
	assert.equal(run.stderr, '');
});

test('a file on stdin is read the same way; exactly the limit is sent, one byte more is an error naming it and nothing is sent', async () => {
	const made = box();
	const file = join(made.root, 'input.txt');
	writeFileSync(file, 'a'.repeat(MAX_PIPED_INPUT_BYTES));
	mock.enqueue({text: 'read it'});
	const exact = await shell(`eval "$I" -p Summarise -C "$W" < "$F"`, {...made.env, W: made.workspace, F: file});
	assert.equal(exact.code, 0, exact.stderr);
	assert.equal(lastPrompt(), `Summarise\n\n<piped-input>\n${'a'.repeat(MAX_PIPED_INPUT_BYTES)}\n</piped-input>`);

	writeFileSync(file, 'a'.repeat(MAX_PIPED_INPUT_BYTES + 1));
	const before = mock.requests.length;
	const over = await shell(`eval "$I" -p Summarise -C "$W" < "$F"`, {...made.env, W: made.workspace, F: file});
	assert.equal(over.code, 2);
	assert.match(over.stderr, new RegExp(`the piped input on stdin is larger than ${MAX_PIPED_INPUT_BYTES} bytes, the most i reads; nothing was sent`));
	assert.equal(mock.requests.length, before);
});

test('binary input is refused naming the NUL byte; /dev/null is not waited for', async () => {
	const made = box();
	const before = mock.requests.length;
	const binary = await shell(`printf 'ab\\000cd' | eval "$I" -p Look -C "$W"`, {...made.env, W: made.workspace});
	assert.equal(binary.code, 2);
	assert.match(binary.stderr, /the piped input on stdin is binary \(a NUL byte at offset 2\); pipe text/);
	assert.equal(mock.requests.length, before);

	mock.enqueue({text: 'no input'});
	const empty = await shell(`eval "$I" -p Hello -C "$W" < /dev/null`, {...made.env, W: made.workspace});
	assert.equal(empty.code, 0, empty.stderr);
	assert.equal(lastPrompt(), 'Hello');
	// The warning comes only when the wait ran out: none, so a device was not waited for.
	assert.equal(empty.stderr, '');
});

test('a stdin that stays open and silent is given up after the wait: the prompt goes alone and stderr says so', async () => {
	const made = box();
	mock.enqueue({text: 'fine'});
	const run = await runCli(['-p', 'hello', '-C', made.workspace], {env: made.env, input: null});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'fine\n');
	assert.equal(lastPrompt(), 'hello');
	assert.match(run.stderr, new RegExp(`nothing arrived on standard input within ${PIPED_INPUT_WAIT_MS / 1000} s, so the prompt goes without piped input; run with < /dev/null to skip the wait`));
});
