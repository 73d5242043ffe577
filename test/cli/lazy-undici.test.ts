// undici (about 1 MB of bundle) is loaded at the first model request only:
// the built program's commands that make none never load its chunk.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {importRecorder as recorder, undiciChunk} from '../helpers/import-log.js';
import {cliPath, makeSandbox, runCli} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** The module URLs the built `i` resolved while running `args`. */
async function imports(args: string[], expectCode = 0): Promise<string[]> {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const log = join(box.root, 'imports.log');
	const run = await runCli(
		args.map(arg => arg.replace('WORKSPACE', box.workspace)),
		{
			env: {...box.env, NODE_OPTIONS: `--import=${recorder}`, I_TEST_IMPORT_LOG: log},
		},
	);
	assert.equal(run.code, expectCode, run.stderr);
	const urls = readFileSync(log, 'utf8').split('\n');
	assert.ok(
		urls.some(url => url.endsWith('/bundle/cli.js')),
		'the recorder saw the bundle',
	);
	return urls;
}

for (const args of [['--version'], ['--help'], ['--runtime', 'paths', '-C', 'WORKSPACE'], ['--runtime', 'logo', '--plain']]) {
	test(`i ${args.join(' ').replace('WORKSPACE', 'DIR')} never loads undici`, async () => {
		assert.deepEqual(
			(await imports(args)).filter(url => undiciChunk.test(url)),
			[],
		);
	});
}

test('a one-shot turn loads undici, once', async () => {
	mock.enqueue({text: 'ok'});
	assert.equal((await imports(['-p', 'hi', '-C', 'WORKSPACE'])).filter(url => undiciChunk.test(url)).length, 1);
});

test("the bundle's undici is its dispatchers and request API, without fetch's client, WebSocket, EventSource, caches or mocks", () => {
	const bundle = join(cliPath, '..');
	const chunks = readdirSync(bundle).filter(name => undiciChunk.test(`/bundle/${name}`));
	assert.equal(chunks.length, 1);
	// esbuild names each bundled module in a comment.
	const modules = [...readFileSync(join(bundle, chunks[0]!), 'utf8').matchAll(/^\/\/ node_modules\/undici\/(\S+)$/gm)].map(match => match[1]!);
	for (const used of ['lib/dispatcher/agent.js', 'lib/dispatcher/env-http-proxy-agent.js', 'lib/api/api-request.js', 'lib/dispatcher/client-h1.js']) assert.ok(modules.includes(used), used);
	const unused = modules.filter(path => /^index\.js$|^lib\/(web\/(fetch\/index|websocket|eventsource|cache)|mock|cache|interceptor)\//.test(path));
	assert.deepEqual(unused, []);
});

/** The node built-in modules the built `i` loaded while running `args`, as `process.moduleLoadList` names them at exit. */
async function builtins(args: string[]): Promise<string[]> {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const log = join(box.root, 'builtins.log');
	const recorder = `import {writeFileSync} from 'node:fs'; process.on('exit', () => writeFileSync(${JSON.stringify(log)}, process.moduleLoadList.join('\\n')));`;
	const run = await runCli(
		args.map(arg => arg.replace('WORKSPACE', box.workspace)),
		{env: {...box.env, NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(recorder)}`}},
	);
	assert.equal(run.code, 0, run.stderr);
	return readFileSync(log, 'utf8').split('\n');
}

test('a one-shot turn over http:// loads neither node:http2 nor node:tls (undici never offers HTTP/2)', async () => {
	mock.enqueue({text: 'ok'});
	const loaded = await builtins(['-p', 'hi', '-C', 'WORKSPACE']);
	assert.ok(loaded.includes('NativeModule net'), 'the recorder saw the request');
	assert.deepEqual(
		loaded.filter(name => /^NativeModule (http2|tls|internal\/http2\/)/.test(name)),
		[],
	);
});
