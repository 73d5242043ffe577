import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {makeSandbox, runCli} from '../helpers/cli.js';
import {runInTerminal} from '../helpers/pty.js';

const prompt = 'API key for deepseek (typing is not shown; Enter ends, Ctrl-C cancels):';

test('login at a terminal: nothing typed is echoed, Backspace and Ctrl-U edit, the key is stored 0600', async () => {
	const box = makeSandbox();
	const run = runInTerminal(['auth', 'login', 'deepseek'], {env: box.env});
	try {
		await run.waitFor(screen => screen.includes(prompt), 'the prompt');
		// A wrong start cleared with Ctrl-U, a typo removed with Backspace, an arrow key ignored, pasted in two chunks.
		run.type('wrong-start\u0015');
		run.type('sk-typed-SECRET-4242x\u007F');
		run.type('\u001B[D');
		run.type('-ok\r');
		// Read before the exit: a pseudo-terminal may drop what comes after its program ended.
		await run.waitUntil(() => /stored the API key for deepseek in .*auth\.json \(mode 0600\)/.test(run.lines().join('\n')), 'the stored line');
		const {exitCode} = await run.exit();
		const output = run.output();
		assert.equal(exitCode, 0, output);
		for (const typed of ['SECRET', 'wrong-start', 'sk-typed', '4242']) assert.ok(!output.includes(typed), `"${typed}" appeared in the terminal:\n${output}`);
		const path = join(box.configDir, 'auth.json');
		assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {deepseek: {type: 'api_key', key: 'sk-typed-SECRET-4242-ok'}});
		assert.equal(statSync(path).mode & 0o777, 0o600);
	} finally {
		await run.close();
	}

	// The stored key is what a check now finds.
	const check = await runCli(['auth', 'check', 'deepseek'], {env: box.env});
	assert.equal(check.stdout, 'deepseek: ready, the key comes from auth.json (API key)\n');
});

test('login at a terminal: Ctrl-C cancels and writes nothing, an existing file untouched', async () => {
	const box = makeSandbox();
	const path = join(box.configDir, 'auth.json');
	const before = `${JSON.stringify({openai: {type: 'api_key', key: 'sk-kept'}})}\n`;
	writeFileSync(path, before, {mode: 0o600});
	const run = runInTerminal(['auth', 'login', 'deepseek'], {env: box.env});
	try {
		await run.waitFor(screen => screen.includes(prompt), 'the prompt');
		run.type('sk-half-typed');
		run.type('\u0003');
		await run.waitUntil(() => run.lines().join('\n').includes('cancelled; nothing was stored'), 'the cancel line');
		const {exitCode} = await run.exit();
		assert.equal(exitCode, 130);
		assert.ok(!run.output().includes('sk-half'));
		assert.equal(readFileSync(path, 'utf8'), before);
	} finally {
		await run.close();
	}
});

test('login from a pipe: the first line, trimmed; an empty one is refused; the entry is replaced and said', async () => {
	const box = makeSandbox();
	const path = join(box.configDir, 'auth.json');
	const empty = await runCli(['auth', 'login', 'deepseek'], {env: box.env, input: '\n'});
	assert.equal(empty.code, 2);
	assert.equal(empty.stderr, 'i: auth login: no key was given (the input was empty); nothing was stored\n');
	assert.ok(!existsSync(path));
	const spaced = await runCli(['auth', 'login', 'deepseek'], {env: box.env, input: 'sk-one two\n'});
	assert.equal(spaced.code, 2);
	assert.match(spaced.stderr, /holds spaces or control characters/);
	assert.doesNotMatch(spaced.stderr, /sk-one/);
	const first = await runCli(['auth', 'login', 'deepseek'], {env: box.env, input: '  sk-piped-111\r\nsecond line is not read\n'});
	assert.equal(first.code, 0, first.stderr);
	assert.equal(first.stdout, `stored the API key for deepseek in ${path} (mode 0600); runs that select deepseek use it unless --api-key is given\n`);
	assert.equal(first.stderr, '', 'no prompt for a pipe');
	const second = await runCli(['auth', 'login', 'deepseek', '--json'], {env: box.env, input: 'sk-piped-222'});
	assert.equal(second.code, 0, second.stderr);
	assert.deepEqual(JSON.parse(second.stdout), {provider: 'deepseek', stored: path, replaced: 'api_key'});
	assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {deepseek: {type: 'api_key', key: 'sk-piped-222'}});
	const tooLong = await runCli(['auth', 'login', 'deepseek'], {env: box.env, input: `${'k'.repeat(16 * 1024 + 1)}\n`});
	assert.equal(tooLong.code, 2);
	assert.match(tooLong.stderr, /longer than 16384 bytes/);
	const atCap = await runCli(['auth', 'login', 'openai'], {env: box.env, input: `${'k'.repeat(16 * 1024)}\n`});
	assert.equal(atCap.code, 0, atCap.stderr);
});

test('login refuses an unknown provider, a missing one, and a broken auth.json before reading any key', async () => {
	const box = makeSandbox();
	const unknown = await runCli(['auth', 'login', 'deepsek'], {env: box.env, input: 'sk-x\n'});
	assert.equal(unknown.code, 2);
	assert.match(unknown.stderr, /unknown provider "deepsek" \(did you mean deepseek\?\)/);
	const missing = await runCli(['auth', 'login'], {env: box.env, input: 'sk-x\n'});
	assert.equal(missing.code, 2);
	assert.match(missing.stderr, /name the provider: i auth login PROVIDER/);
	const path = join(box.configDir, 'auth.json');
	writeFileSync(path, '{"openai": {"type": "api_key", "key": "sk-kept"', {mode: 0o600});
	const broken = await runCli(['auth', 'login', 'deepseek'], {env: box.env, input: 'sk-new\n'});
	assert.equal(broken.code, 2);
	assert.match(broken.stderr, /not valid JSON.*i never writes over a broken file/);
	assert.equal(readFileSync(path, 'utf8'), '{"openai": {"type": "api_key", "key": "sk-kept"');
});

test('login refuses an anonymous provider (nothing to store) and two providers at once; nothing is written', async () => {
	const box = makeSandbox();
	const path = join(box.configDir, 'auth.json');
	const anonymous = await runCli(['auth', 'login', 'llama-cpp'], {env: box.env, input: 'sk-x\n'});
	assert.equal(anonymous.code, 2);
	assert.match(anonymous.stderr, /llama-cpp allows requests without a key \(requiresAuth is false\): its client never sends one, so there is nothing to store/);
	const two = await runCli(['auth', 'logout', 'openai', 'deepseek'], {env: box.env});
	assert.equal(two.code, 2);
	assert.match(two.stderr, /takes one provider, not 2 \(openai deepseek\)/);
	assert.equal(existsSync(path), false);
});

test('logout removes the entry and says what still supplies a key; variables and other entries are untouched', async () => {
	const box = makeSandbox();
	const path = join(box.configDir, 'auth.json');
	writeFileSync(path, JSON.stringify({deepseek: {type: 'api_key', key: 'sk-a'}, openai: {type: 'api_key', key: 'sk-b'}}), {mode: 0o600});
	const withVariable = await runCli(['auth', 'logout', 'deepseek'], {env: {...box.env, DEEPSEEK_API_KEY: 'sk-env'}});
	assert.equal(withVariable.code, 0, withVariable.stderr);
	assert.equal(withVariable.stdout, `removed the API key for deepseek from ${path}; environment variables and models.json are untouched: DEEPSEEK_API_KEY still supplies a key for deepseek\n`);
	assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {openai: {type: 'api_key', key: 'sk-b'}});
	const again = await runCli(['auth', 'logout', 'deepseek'], {env: box.env});
	assert.equal(again.code, 0);
	assert.equal(again.stdout, `${path} has no entry for deepseek; nothing was removed; environment variables and models.json are untouched: deepseek now has no credentials\n`);
	const json = await runCli(['auth', 'logout', 'openai', '--json'], {env: box.env});
	assert.deepEqual(JSON.parse(json.stdout), {provider: 'openai', removed: 'api_key', file: path, stillReady: false});
	assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {});
	// An entry of a provider nothing knows any more can still be removed.
	writeFileSync(path, JSON.stringify({'gone-provider': {type: 'oauth', access: 'a', expires: 1}}), {mode: 0o600});
	const gone = await runCli(['auth', 'logout', 'gone-provider'], {env: box.env});
	assert.equal(gone.code, 0, gone.stderr);
	assert.match(gone.stdout, /^removed the OAuth token for gone-provider/);
	const never = await runCli(['auth', 'logout', 'never-known'], {env: box.env});
	assert.equal(never.code, 2);
});
