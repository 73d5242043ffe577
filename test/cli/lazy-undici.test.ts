// undici (about 1 MB of bundle) is loaded at the first model request only:
// the built program's commands that make none never load it. Both bundles:
// the ES module chunks (the chat screen's; a chunk of its own, seen by an
// import recorder) and the one-file headless bundle every run here takes
// through bin/i.js (where undici's modules are functions inside the file,
// run or not, as V8's coverage of the run tells).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {importRecorder as recorder, undiciChunk} from '../helpers/import-log.js';
import {cliPath, makeSandbox, runCli} from '../helpers/cli.js';
import {ranInHeadless} from '../helpers/coverage.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** The module URLs the ES module bundle resolved while running `args`. */
async function imports(args: string[], expectCode = 0): Promise<string[]> {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const log = join(box.root, 'imports.log');
	const run = await runCli(
		args.map(arg => arg.replace('WORKSPACE', box.workspace)),
		{
			entry: cliPath,
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

/** How many times the headless bundle ran the module that loads undici (the transport) while running `args` through bin/i.js. */
async function transportRuns(args: string[]): Promise<number> {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const coverage = join(box.root, 'coverage');
	const run = await runCli(
		args.map(arg => arg.replace('WORKSPACE', box.workspace)),
		{env: {...box.env, NODE_V8_COVERAGE: coverage}},
	);
	assert.equal(run.code, 0, run.stderr);
	const ran = ranInHeadless(coverage);
	assert.ok(ran.size > 0, 'the coverage saw the headless bundle');
	return ran.get('dist/source/core/providers/undici-transport.js') ?? 0;
}

for (const args of [['--version'], ['--help'], ['--runtime', 'paths', '-C', 'WORKSPACE'], ['--runtime', 'logo', '--plain']]) {
	test(`i ${args.join(' ').replace('WORKSPACE', 'DIR')} never loads undici: neither its chunk nor, headless, its module`, async () => {
		assert.deepEqual(
			(await imports(args)).filter(url => undiciChunk.test(url)),
			[],
		);
		// `--version` alone is bin/i.js's own answer: no bundle runs at all.
		if (args[0] !== '--version') assert.equal(await transportRuns(args), 0);
	});
}

test('a one-shot turn loads undici, once, in either bundle', async () => {
	mock.enqueue({text: 'ok'});
	assert.equal((await imports(['-p', 'hi', '-C', 'WORKSPACE'])).filter(url => undiciChunk.test(url)).length, 1);
	mock.enqueue({text: 'ok'});
	assert.equal(await transportRuns(['-p', 'hi', '-C', 'WORKSPACE']), 1);
});
