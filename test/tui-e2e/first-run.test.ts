// The first-run setup screen end to end (issue 16 item 5): the built `i` in
// a real pseudo-terminal with a temp HOME and I_CONFIG_DIR holding no
// config.json, only a models.json whose provider "mocky" points at the mock
// provider. The person chooses the provider, the model and the key's
// source; config.json, the init profile's files and (for a typed key)
// auth.json are checked on disk, and a prompt typed afterwards gets the
// mock's answer with that key, in the same process. Also: Esc back a step,
// Esc out and Ctrl-C out (exit 2 with the commands printed), and a config
// folder that cannot be written (the error on screen, nothing half-stored,
// "try again" once it is fixed).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {cliPath, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {importRecorder} from '../helpers/import-log.js';
import {runInTerminal, type TerminalRun} from '../helpers/pty.js';
import {makeUnwritable} from '../helpers/unwritable.js';
import {startChat, stripEscapes} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const MOCKY_KEY = 'sk-mocky-env-3131';
const TYPED_KEY = 'sk-mocky-typed-9292';

/** A sandbox without config.json: models.json adds "mocky" (key variable MOCKY_KEY) at the mock, with two models. */
function firstRunBox(): Sandbox {
	const box = makeSandbox();
	writeFileSync(
		join(box.configDir, 'models.json'),
		JSON.stringify({
			providers: {
				mocky: {baseUrl: mock.baseUrl('openai'), apiKey: 'MOCKY_KEY', models: [{id: 'mock-one', contextWindow: 64_000, cost: {input: 1, output: 2}}, {id: 'mock-two'}]},
			},
		}),
	);
	return box;
}

function start(box: Sandbox, env: NodeJS.ProcessEnv = {}): TerminalRun {
	return runInTerminal(['-C', box.workspace], {env: {...box.env, ...env}, cwd: box.workspace, cols: 160, rows: 40});
}

const flat = (screen: string) => screen.replaceAll(/\s+/g, ' ');

async function providerList(run: TerminalRun): Promise<void> {
	await run.waitFor(screen => screen.includes('1 of 3: a provider') && screen.includes('filter ›'), 'the provider list');
}

/** A prompt after the setup reaches the mock with `key` and shows its answer. */
async function answers(run: TerminalRun, key: string, model: string): Promise<void> {
	await run.ready();
	mock.enqueue({text: 'set up and answering'});
	const from = mock.requests.length;
	run.type('hello\r');
	await run.waitFor(screen => screen.includes('set up and answering'), 'the answer');
	const request = mock.requests.slice(from).find(entry => entry.body?.model === model);
	assert.ok(request, 'the request went to the chosen model');
	assert.equal(request.headers.authorization, `Bearer ${key}`);
}

function assertConfigured(box: Sandbox, model: string): void {
	const path = join(box.configDir, 'config.json');
	assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {provider: 'mocky', model, plugins: ['builtin.json']});
	assert.equal(statSync(path).mode & 0o777, 0o600);
	for (const file of ['plugins.json', 'bindings.json', 'builtin.json']) assert.ok(existsSync(join(box.configDir, file)), `the init profile's ${file}`);
}

test('the variable set: its provider is marked and first; provider, model and the variable chosen, the chat starts with that model', async () => {
	const box = firstRunBox();
	const run = start(box, {MOCKY_KEY});
	try {
		await providerList(run);
		const rows = run.screen();
		const first = rows.findIndex(row => row.includes('❯'));
		assert.match(rows[first]!, /❯ ● mocky 2 models · key from MOCKY_KEY/, rows.join('\n'));
		assert.ok(
			rows.some(row => /llama-cpp 1 model · no key needed/.test(row) && !row.includes('●')),
			'the anonymous local server says so, unmarked',
		);
		assert.ok(rows.some(row => /deepseek \d models? · no key yet: export DEEPSEEK_API_KEY/.test(row)));
		// The filter typed the moment the list shows, and Enter.
		run.type('mocky\r');
		await run.waitFor(screen => screen.includes('2 of 3: a model of mocky'), 'the model list');
		assert.match(flat(run.screen().join('\n')), /mock-one mock-one · 64k context · in \$1 out \$2 \/M/);
		run.type('\u001B[B\r');
		await run.waitFor(screen => screen.includes('3 of 3: the key for mocky'), 'the key sources');
		assert.match(flat(run.screen().join('\n')), /● the environment variable MOCKY_KEY set now; read at each start, nothing is stored/);
		run.type('\r');
		await answers(run, MOCKY_KEY, 'mock-two');
		assert.match(flat(run.buffer().join('\n')), /set up: saved mocky\/mock-two as the default in/);
		assertConfigured(box, 'mock-two');
		assert.equal(existsSync(join(box.configDir, 'auth.json')), false, 'nothing stored for a variable');
	} finally {
		await run.close();
	}
});

test('the key typed: stored in auth.json, never in config.json, never on the screen; the chat uses it', async () => {
	const box = firstRunBox();
	const run = start(box);
	try {
		await providerList(run);
		run.type('mocky');
		await run.waitFor(screen => screen.includes('filter › mocky'), 'the filter');
		assert.match(flat(run.screen().join('\n')), /mocky 2 models · no key yet: export MOCKY_KEY or type it in step 3/);
		run.type('\r');
		await run.waitFor(screen => screen.includes('2 of 3'), 'the model list');
		run.type('\r');
		await run.waitFor(screen => screen.includes('3 of 3'), 'the key sources');
		const sources = flat(run.screen().join('\n'));
		assert.ok(!sources.includes('the environment variable'), 'an unset variable is not offered');
		assert.match(sources, /or leave \(Ctrl-C\), export MOCKY_KEY=… and start i again/);
		run.type('\r');
		await run.waitFor(screen => screen.includes('typing is not shown'), 'the key field');
		run.type(TYPED_KEY);
		run.type('\r');
		await answers(run, TYPED_KEY, 'mock-one');
		assertConfigured(box, 'mock-one');
		assert.deepEqual(JSON.parse(readFileSync(join(box.configDir, 'auth.json'), 'utf8')), {mocky: {type: 'api_key', key: TYPED_KEY}});
		assert.equal(statSync(join(box.configDir, 'auth.json')).mode & 0o777, 0o600);
		assert.ok(!readFileSync(join(box.configDir, 'config.json'), 'utf8').includes(TYPED_KEY));
		assert.ok(!run.output().includes(TYPED_KEY), 'the key was never drawn');
		assert.ok(!stripEscapes(run.output()).includes('9292'));
	} finally {
		await run.close();
	}
});

test('Esc goes back a step; Esc on the first step leaves with the commands to configure by hand, exit 2, nothing written', async () => {
	const box = firstRunBox();
	const run = start(box, {MOCKY_KEY});
	try {
		await providerList(run);
		run.type('\r');
		await run.waitFor(screen => screen.includes('2 of 3: a model of mocky'), 'the model list');
		run.type('\u001B');
		await providerList(run);
		run.type('\u001B');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 2);
		const text = flat(run.lines().join('\n'));
		assert.match(text, /i: the setup was left; nothing was written/);
		assert.match(text, /no model config: .*config\.json does not exist\. Choose a model:/);
		assert.match(text, /i --list-models/);
		assert.match(text, /i --model mocky\/mock-one -p hello/);
		assert.equal(existsSync(join(box.configDir, 'config.json')), false);
		assert.equal(existsSync(join(box.configDir, 'plugins.json')), false);
	} finally {
		await run.close();
	}
});

test('Ctrl-C in the key field leaves the same way: exit 2, the commands printed, no key stored', async () => {
	const box = firstRunBox();
	const run = start(box);
	try {
		await providerList(run);
		run.type('mocky\r');
		await run.waitFor(screen => screen.includes('2 of 3'), 'the model list');
		run.type('\r');
		await run.waitFor(screen => screen.includes('3 of 3'), 'the key sources');
		run.type('\r');
		await run.waitFor(screen => screen.includes('typing is not shown'), 'the key field');
		run.type('sk-half-typed');
		run.type('\u0003');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 2);
		assert.match(flat(run.lines().join('\n')), /i: the setup was left; nothing was written .*Choose a model: .*i auth login [a-z]/);
		assert.equal(existsSync(join(box.configDir, 'auth.json')), false);
		assert.ok(!run.output().includes('sk-half-typed'));
	} finally {
		await run.close();
	}
});

test('a config folder that cannot be written: the screen names the file and the fix, no key is half-stored, and "try again" once fixed starts the chat', async t => {
	const box = firstRunBox();
	const undo = makeUnwritable(box.configDir);
	if (!undo) {
		t.skip('this machine lets every write through (root without chattr)');
		return;
	}

	let restore = undo;
	const run = start(box);
	try {
		await providerList(run);
		run.type('mocky\r');
		await run.waitFor(screen => screen.includes('2 of 3'), 'the model list');
		run.type('\r');
		await run.waitFor(screen => screen.includes('3 of 3'), 'the key sources');
		run.type('\r');
		await run.waitFor(screen => screen.includes('typing is not shown'), 'the key field');
		run.type(`${TYPED_KEY}\r`);
		await run.waitFor(screen => screen.includes('the choice could not be saved'), 'the error');
		const text = flat(run.buffer().join('\n'));
		assert.match(text, new RegExp(`the key could not be stored in ${join(box.configDir, 'auth.json')} .*make ${box.configDir} writable, or set I_CONFIG_DIR`));
		assert.equal(existsSync(join(box.configDir, 'auth.json')), false);
		assert.equal(existsSync(join(box.configDir, 'config.json')), false);
		restore();
		restore = () => {};
		run.type('\r');
		await answers(run, TYPED_KEY, 'mock-one');
		assertConfigured(box, 'mock-one');
		assert.ok(!run.output().includes(TYPED_KEY));
	} finally {
		restore();
		await run.close();
	}
});

test('with an extension listed: the setup comes first, then the extension loads and hears BeforeTuiStart once before the chat starts (a veto then still stops it, exit 3)', async () => {
	for (const veto of [false, true]) {
		const box = firstRunBox();
		const log = join(box.root, 'before-tui.log');
		writeFileSync(log, '');
		const extension = join(box.root, 'watch.mjs');
		writeFileSync(
			extension,
			`import {appendFileSync} from 'node:fs';\nexport default function register(api) { api.registerEventHandler('BeforeTuiStart', () => { appendFileSync(${JSON.stringify(log)}, 'start\\n'); return ${veto ? "{abort: true, reason: 'not today'}" : 'undefined'}; }); }\n`,
		);
		const run = runInTerminal(['-C', box.workspace, '--extension', extension], {env: {...box.env, MOCKY_KEY}, cwd: box.workspace, cols: 160, rows: 40});
		try {
			await providerList(run);
			assert.equal(readFileSync(log, 'utf8'), '', 'BeforeTuiStart waits for a config');
			run.type('mocky\r');
			await run.waitFor(screen => screen.includes('2 of 3'), 'the model list');
			run.type('\r');
			await run.waitFor(screen => screen.includes('3 of 3'), 'the key sources');
			run.type('\r');
			if (veto) {
				const {exitCode} = await run.exit();
				assert.equal(exitCode, 3);
				assert.match(flat(run.lines().join('\n')), /stopped the start before the chat screen \(BeforeTuiStart\): not today/);
				assertConfigured(box, 'mock-one');
			} else {
				await answers(run, MOCKY_KEY, 'mock-one');
			}

			assert.equal(readFileSync(log, 'utf8'), 'start\n');
		} finally {
			await run.close();
		}
	}
});

test('a configured run pays nothing for the setup: its code is a chunk of its own, outside what the first frame imports statically, and never loaded', async () => {
	const bundle = dirname(cliPath);
	const chunks = readdirSync(bundle);
	const setupChunk = chunks.find(name => /^first-run-setup-[A-Z0-9]+\.js$/.test(name));
	assert.ok(setupChunk, chunks.join(', '));
	const runTui = chunks.find(name => /^run-tui-[A-Z0-9]+\.js$/.test(name))!;
	const seen = new Set<string>();
	const visit = (name: string) => {
		if (seen.has(name)) return;
		seen.add(name);
		const code = readFileSync(join(bundle, name), 'utf8');
		for (const match of code.matchAll(/^import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+)["']/gm)) visit(match[1]!);
	};

	visit('cli.js');
	visit(runTui);
	assert.ok(!seen.has(setupChunk), [...seen].join(', '));
	for (const name of seen) assert.ok(!readFileSync(join(bundle, name), 'utf8').includes('1 of 3: a provider'), `${name} holds the setup's flow`);

	const box = makeSandbox();
	const log = join(box.root, 'imports.log');
	const {run} = await startChat(mock, {box, env: {NODE_OPTIONS: `--import=${importRecorder}`, I_TEST_IMPORT_LOG: log}});
	try {
		const loaded = readFileSync(log, 'utf8').split('\n');
		assert.ok(
			loaded.some(url => url.includes('/bundle/run-tui-')),
			'the log records the chat screen',
		);
		assert.ok(!loaded.some(url => url.includes('/bundle/first-run-setup-')), 'the setup chunk was loaded by a configured run');
	} finally {
		await run.close();
	}
});

test('a config.json written by someone else while the setup runs is kept, said so, and the chat starts with it', async () => {
	const box = firstRunBox();
	const run = start(box, {MOCKY_KEY});
	try {
		await providerList(run);
		const theirs = {protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'their-model', api_key_env: 'TEST_API_KEY', max_retries: 0};
		writeFileSync(join(box.configDir, 'config.json'), JSON.stringify(theirs));
		run.type('mocky\r');
		await run.waitFor(screen => screen.includes('2 of 3'), 'the model list');
		run.type('\r');
		await run.waitFor(screen => screen.includes('3 of 3'), 'the key sources');
		run.type('\r');
		await answers(run, box.env.TEST_API_KEY!, 'their-model');
		assert.match(flat(run.buffer().join('\n')), /config\.json appeared while the setup ran \(another i\?\); it is used as it is, and mocky\/mock-one was not saved in it/);
		assert.deepEqual(JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')), theirs);
	} finally {
		await run.close();
	}
});
