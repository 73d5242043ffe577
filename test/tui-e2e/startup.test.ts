import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {runInTerminal} from '../helpers/pty.js';
import {lastUserText, MODEL} from './chat.js';

const lifecycle = fileURLToPath(new URL('../../../test/fixtures/workers/lifecycle.py', import.meta.url));
const STARTING = 'starting — Ctrl-C to leave';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** A workspace whose session_load hook never answers (or answers after `delay` seconds): the agent stays in setup behind a drawn screen. */
function slowStart(delay?: number) {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: [{events: ['session_load'], exec: ['python3', lifecycle, 'slow']}]}));
	writeFileSync(join(box.workspace, '.lifecycle.json'), JSON.stringify({slow: {session_load: delay === undefined ? {hang: true} : {delay}}}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, plugins: ['hooks.json']});
	return box;
}

test('the screen is drawn before the agent is set up, showing a new session; a message sent meanwhile leaves the editor to wait; Ctrl-C leaves with 130 and says it was not sent', async () => {
	const box = slowStart();
	const run = runInTerminal(['-C', box.workspace], {env: box.env, cwd: box.workspace});
	try {
		await run.waitFor(screen => screen.includes(STARTING) && screen.split('\n').some(row => row.endsWith('/help') && row.includes('new session')), 'the screen while starting, with the session');
		await run.waitUntil(() => run.terminal.modes.bracketedPasteMode, 'the editor listening');
		const requests = mock.requests.length;
		run.type('hello there\r');
		await run.waitFor(screen => screen.includes('your message is sent as soon as i is ready') && screen.includes('› Ask i anything'), 'the message waiting, the editor empty');
		run.type('a second one\r');
		await run.waitFor(screen => screen.includes('one message already waits') && screen.includes('› a second one'), 'a second message kept in the editor');
		assert.equal(mock.requests.length, requests, 'nothing went to the model');

		run.type('\u0003');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 130);
		assert.match(run.output(), /not sent \(the chat ended while it started\): hello there/);
	} finally {
		await run.close();
	}
});

test('keys typed before the first frame reach the editor, and a message sent while the agent starts goes to the model once it has started', async () => {
	const box = slowStart(2);
	const run = runInTerminal(['-C', box.workspace], {env: box.env, cwd: box.workspace});
	try {
		// Before node has even loaded i: the terminal holds them until the editor reads them.
		run.type('typed early');
		await run.waitFor(screen => screen.includes(STARTING) && screen.includes('› typed early'), 'the early keys in the editor while starting');
		await run.waitUntil(() => run.terminal.modes.bracketedPasteMode, 'the editor listening');
		mock.enqueue({text: 'answered after the start'});
		run.type(' and sent\r');
		await run.waitFor(screen => screen.includes('answered after the start'), 'the answer once the agent started', {timeoutMs: 30_000});
		assert.equal(lastUserText(mock.requests.at(-1)!.body), 'typed early and sent');
		await run.ready();
	} finally {
		await run.close();
	}
});

test('a broken config clears the live area and leaves its error as the last thing on the terminal, with code 2', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'config.json'), JSON.stringify({protocol: 'openai', model: MODEL, api_key_env: 'TEST_API_KEY', max_tokens: 'lots'}));
	const run = runInTerminal(['-C', box.workspace], {env: box.env, cwd: box.workspace});
	try {
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 2);
		await run.settled();
		const text = run.buffer().join('\n').trim();
		assert.match(text, /max_tokens/);
		assert.match(text, /config\.json/);
		// The welcome stays in the scrollback, as written; the live area (spinner, editor, status line) is gone.
		assert.ok(!text.includes(STARTING) && !text.includes('› ') && !text.includes(MODEL), `the chat screen is gone:\n${text}`);
		assert.match(text.split('\n').slice(-2).join(' '), /^i: config .*max_tokens/);
	} finally {
		await run.close();
	}
});

test("SIGTERM while the plugins start (the workspace registry's lock held elsewhere) leaves at once with 143, not after the 10 s wait", async () => {
	const box = makeSandbox();
	// A tool worker makes the pool wanted, and with it the workspace's ID, whose first registration waits for the lock.
	writeFileSync(join(box.configDir, 'tools.json'), JSON.stringify({tools: [{name: 't', description: 'd', parameters: {type: 'object'}, exec: ['sh']}]}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, plugins: ['tools.json']});
	mkdirSync(box.env.I_DATA_DIR!, {recursive: true});
	writeFileSync(join(box.env.I_DATA_DIR!, 'workspaces.json.lock'), `${JSON.stringify({pid: process.pid, hostname: hostname(), created: new Date().toISOString()})}\n`);
	const run = runInTerminal(['-C', box.workspace], {env: box.env, cwd: box.workspace});
	try {
		await run.waitFor(screen => screen.includes(STARTING), 'the screen while starting');
		process.kill(run.pid, 'SIGTERM');
		// A hang guard below the lock's 10 s wait, which the start used to sit out after the signal.
		const {exitCode} = await run.exit(5000);
		assert.equal(exitCode, 143);
	} finally {
		await run.close();
	}
});
