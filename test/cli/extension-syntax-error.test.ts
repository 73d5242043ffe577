// A syntax error in an extension is reported with its file, line and column
// (issue 47 point 12): the built CLI loading an ES module (.mjs), a
// CommonJS module (.cjs), a .js file node takes for an ES module, and a
// package whose entry imports the module with the error; the run goes on.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, writeExtensionFile} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

test('each syntax error names its file, line and column, in an ES module, a CommonJS module, a .js file and a module a package imports', async () => {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const esm = writeExtensionFile(sandbox, 'esm.mjs', 'export default function register(api) {\n  const x = ;\n}\n');
	const cjs = writeExtensionFile(sandbox, 'cjs.cjs', 'module.exports = function register(api) {\n  let y = {;\n};\n');
	// A tab before the error: the column counts it as one character.
	const plain = writeExtensionFile(sandbox, 'plain.js', 'export default function register(api) {\n\tapi.registerTool(;\n}\n');
	const pkg = join(sandbox.root, 'extensions', 'pkg');
	mkdirSync(join(pkg, 'lib'), {recursive: true});
	writeFileSync(join(pkg, 'package.json'), JSON.stringify({name: 'pkg', type: 'module', main: 'index.js'}));
	writeFileSync(join(pkg, 'index.js'), "import {helper} from './lib/helper.js';\nexport default function register(api) {\n  helper(api);\n}\n");
	writeFileSync(join(pkg, 'lib', 'helper.js'), 'export function helper(api) {\n  return 1;\n}\n\nexport const broken = 1 +* 2;\n');
	mock.enqueue({text: 'Still answered.'});
	const args = ['-p', 'hello', '-C', sandbox.workspace];
	for (const path of [esm, cjs, plain, pkg]) args.push('--extension', path);
	const run = await runCli(args, {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Still answered.\n');
	const warning = (path: string, at: string, message: string) => `i: warning: extension ${path} (from --extension) was not loaded: cannot be loaded: a syntax error at ${at}: ${message}\n`;
	for (const expected of [
		warning(esm, `${esm}:2:13`, "Unexpected token ';'"),
		warning(cjs, `${cjs}:2:12`, "Unexpected token ';'"),
		warning(plain, `${plain}:2:19`, "Unexpected token ';'"),
		warning(pkg, `${join(pkg, 'lib', 'helper.js')}:5:26`, "Unexpected token '*'"),
	]) {
		assert.ok(run.stderr.includes(expected), `${expected}\nin:\n${run.stderr}`);
	}
});
