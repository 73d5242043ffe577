import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, unbundledCliPath} from '../helpers/cli.js';

const recorder = fileURLToPath(new URL('../fixtures/import-recorder.js', import.meta.url));
let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

for (const [mode, args, input] of [
	['print mode', ['-p', 'hi'], ''],
	['print mode with --json', ['-p', 'hi', '--json'], ''],
	['line mode', [], 'hi\n'],
] as const) {
	test(`${mode} never loads ink or react`, async () => {
		const box = makeSandbox();
		box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
		const log = join(box.root, 'imports.log');
		mock.enqueue({text: 'ok'});
		const run = await runCli([...args, '-C', box.workspace], {
			env: {...box.env, NODE_OPTIONS: `--import=${recorder}`, I_TEST_IMPORT_LOG: log},
			input,
			// The module graph is only visible before bundling; the bundle is built from it.
			entry: unbundledCliPath,
		});
		assert.equal(run.code, 0, run.stderr);
		const urls = readFileSync(log, 'utf8').split('\n');
		// The recorder works: it saw the core's own modules and its dependencies.
		assert.ok(urls.some(url => url.includes('/core/agent/run-turn.js')));
		assert.ok(urls.some(url => url.includes('/node_modules/zod/')));
		const ui = urls.filter(url => /\/node_modules\/(ink|react|ink-[^/]+|react-[^/]+)\/|\/components\//.test(url));
		assert.deepEqual(ui, []);
	});
}
