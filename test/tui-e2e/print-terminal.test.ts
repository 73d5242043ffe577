// The model's text never steers the terminal it is printed on (issue 12):
// `i -p` and line mode at a terminal show control characters as the chat
// screen does; to a pipe the answer stays byte for byte.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {binPath, makeSandbox, runCli} from '../helpers/cli.js';
import {runInTerminal, spawnInTerminal, type TerminalRun} from '../helpers/pty.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

// A title change, a colour, an OSC 52 clipboard write, a C1 CSI, a bell and a CRLF, around plain words.
const hostile = 'safe\u001B]0;pwned\u0007 red:\u001B[31mRED\u001B[0m clip:\u001B]52;c;ZXZpbA==\u0007 c1:\u009B2J tab:\tend\r\nnext line';

function sandbox() {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	return box;
}

/** What `run` wrote once it exited, checked to hold no control character of the answer; then closed. */
async function finished(run: TerminalRun): Promise<string> {
	try {
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 0, run.output());
		await run.settled();
		const output = run.output();
		assert.doesNotMatch(output, /[\u001B\u0007\u009B]/, JSON.stringify(output));
		return output;
	} finally {
		await run.close();
	}
}

test('-p at a terminal: no control character of the answer reaches the screen, tab and newlines stay', async () => {
	const box = sandbox();
	mock.enqueue({text: hostile});
	const run = runInTerminal(['-p', 'hi', '-C', box.workspace], {env: box.env, cwd: box.workspace});
	const output = await finished(run);
	assert.match(output, /safe\uFFFD\]0;pwned\uFFFD red:\uFFFD\[31mRED\uFFFD\[0m clip:\uFFFD\]52;c;ZXZpbA==\uFFFD c1:\uFFFD2J tab:\tend\r?\nnext line/);
	assert.equal(run.terminal.buffer.active.getLine(0)?.translateToString(true).startsWith('safe'), true);
});

test('line mode with its answers at a terminal shows them the same way', async () => {
	const box = sandbox();
	mock.enqueue({text: hostile});
	// Input piped, output at the terminal: line mode, as `printf … | i` at a prompt.
	const command = `printf 'hi\\n' | '${process.execPath}' '${binPath}' -C '${box.workspace}'`;
	const output = await finished(spawnInTerminal('/bin/sh', ['-c', command], {env: box.env, cwd: box.workspace}));
	assert.match(output, /safe\uFFFD\]0;pwned/);
});

test('-p to a pipe: the answer is byte for byte what the model sent', async () => {
	const box = sandbox();
	mock.enqueue({text: hostile});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, `${hostile}\n`);
});
