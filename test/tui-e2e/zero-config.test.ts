// Zero-config on the chat screen (issue 46 point 5), the built `i` in a real
// pseudo-terminal: with no config.json and DEEPSEEK_API_KEY set, the chat
// starts with DeepSeek's first model and says so, no setup; with no key of
// the order the setup opens (first-run.test.ts goes through it); a saved
// config whose key is gone opens the setup too, which stores a typed key
// and keeps the config, and the chat then answers with it.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, type Sandbox} from '../helpers/cli.js';
import {runInTerminal, type TerminalRun} from '../helpers/pty.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** No config.json; models.json sends deepseek and openai to the mock, so a key of either reaches it. */
function box(): Sandbox {
	const sandbox = makeSandbox();
	writeFileSync(join(sandbox.configDir, 'models.json'), JSON.stringify({providers: {deepseek: {baseUrl: mock.baseUrl('deepseek')}, openai: {baseUrl: mock.baseUrl('openai')}}}));
	return sandbox;
}

function start(sandbox: Sandbox, env: NodeJS.ProcessEnv = {}): TerminalRun {
	return runInTerminal(['-C', sandbox.workspace], {env: {...sandbox.env, ...env}, cwd: sandbox.workspace, cols: 200, rows: 40});
}

const flat = (rows: string[]) => rows.join('\n').replaceAll(/\s+/g, ' ');

/** A prompt reaches the mock with `key` and the answer shows; the model it asked for. */
async function answers(run: TerminalRun, key: string): Promise<string> {
	await run.ready();
	mock.enqueue({text: 'answered without a config'});
	const from = mock.requests.length;
	run.type('hello\r');
	await run.waitFor(screen => screen.includes('answered without a config'), 'the answer');
	const [request] = mock.requests.slice(from);
	assert.equal(request!.headers.authorization, `Bearer ${key}`);
	return String(request!.body.model);
}

test('no config.json and DEEPSEEK_API_KEY set: the chat starts with DeepSeek at once, says so, and writes no config', async () => {
	const sandbox = box();
	const run = start(sandbox, {DEEPSEEK_API_KEY: 'sk-zero-chat-1'});
	try {
		const model = await answers(run, 'sk-zero-chat-1');
		const text = flat(run.buffer());
		assert.match(text, new RegExp(`so this run uses deepseek/${model}, the first of anthropic, openai, deepseek, openrouter, gemini, xai, mistral, groq whose key is set \\(key from DEEPSEEK_API_KEY\\)`));
		assert.ok(!text.includes('1 of 3: a provider'), 'no setup');
		assert.equal(existsSync(join(sandbox.configDir, 'config.json')), false);
		assert.ok(!run.output().includes('sk-zero-chat-1'));
	} finally {
		await run.close();
	}
});

test('a saved config whose key is gone opens the setup; a typed key is stored, the config keeps its choice, and the chat answers', async () => {
	const sandbox = box();
	const path = join(sandbox.configDir, 'config.json');
	const saved = {provider: 'deepseek', max_steps: 7};
	writeFileSync(path, JSON.stringify(saved));
	// Another provider's key is set: a saved choice is never swapped for it without asking.
	const run = start(sandbox, {OPENAI_API_KEY: 'sk-other-provider'});
	try {
		await run.waitFor(screen => screen.includes('1 of 3: a provider') && screen.includes('filter ›'), 'the setup');
		const shown = flat(run.buffer());
		assert.match(shown, /the key for deepseek, which .*config\.json chooses, is gone/);
		assert.match(shown, /no API key for deepseek: .*DEEPSEEK_API_KEY is not set/);
		run.type('deepseek\r');
		await run.waitFor(screen => screen.includes('2 of 3: a model of deepseek'), 'the model list');
		run.type('\r');
		await run.waitFor(screen => screen.includes('3 of 3: the key for deepseek'), 'the key sources');
		run.type('\r');
		await run.waitFor(screen => screen.includes('typing is not shown'), 'the key field');
		run.type('sk-typed-again-77\r');
		const model = await answers(run, 'sk-typed-again-77');
		assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {provider: 'deepseek', max_steps: 7, model});
		assert.deepEqual(JSON.parse(readFileSync(join(sandbox.configDir, 'auth.json'), 'utf8')), {deepseek: {type: 'api_key', key: 'sk-typed-again-77'}});
		assert.equal(existsSync(join(sandbox.configDir, 'plugins.json')), false, 'no plugin file added to a config that has its own');
		assert.ok(!run.output().includes('sk-typed-again-77'));
	} finally {
		await run.close();
	}
});

test('a saved config whose key is gone: leaving the setup says the fix, exit 2, the config unchanged', async () => {
	const sandbox = box();
	const path = join(sandbox.configDir, 'config.json');
	writeFileSync(path, JSON.stringify({provider: 'deepseek'}));
	const run = start(sandbox);
	try {
		await run.waitFor(screen => screen.includes('1 of 3: a provider') && screen.includes('filter ›'), 'the setup');
		run.type('\u001B');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 2);
		assert.match(flat(run.lines()), /i: the setup was left; nothing was written i: no API key for deepseek: .*export DEEPSEEK_API_KEY with your API key or run i auth login deepseek/);
		assert.equal(readFileSync(path, 'utf8'), JSON.stringify({provider: 'deepseek'}));
	} finally {
		await run.close();
	}
});

test('with an extension listed: the zero-config model is found before the screen, and the extension hears BeforeTuiStart once', async () => {
	const sandbox = box();
	const log = join(sandbox.root, 'before-tui.log');
	writeFileSync(log, '');
	const extension = join(sandbox.root, 'watch.mjs');
	writeFileSync(
		extension,
		`import {appendFileSync} from 'node:fs';\nexport default function register(api) { api.registerEventHandler('BeforeTuiStart', () => { appendFileSync(${JSON.stringify(log)}, 'start\\n'); }); }\n`,
	);
	const run = runInTerminal(['-C', sandbox.workspace, '--extension', extension], {env: {...sandbox.env, OPENAI_API_KEY: 'sk-zero-ext-2'}, cwd: sandbox.workspace, cols: 200, rows: 40});
	try {
		await run.ready();
		mock.enqueue({text: 'answered without a config'});
		const from = mock.requests.length;
		run.type('hello\r');
		await run.waitFor(screen => screen.includes('answered without a config'), 'the answer');
		assert.equal(mock.requests[from]!.headers.authorization, 'Bearer sk-zero-ext-2');
		assert.match(flat(run.buffer()), /so this run uses openai\//);
		assert.equal(readFileSync(log, 'utf8'), 'start\n');
	} finally {
		await run.close();
	}
});
