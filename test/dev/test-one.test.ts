import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const testOne = fileURLToPath(new URL('../../../scripts/test-one.js', import.meta.url));

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** `node scripts/test-one.js ...args` in `cwd`, as `npm run test:one` runs it. */
function runTestOne(cwd: string, args: string[]): Promise<Run> {
	return new Promise((resolve, reject) => {
		// Without NODE_TEST_CONTEXT, which node --test sets for this file: with it a nested node --test reports to us in its own protocol.
		const {NODE_TEST_CONTEXT: _, ...env} = process.env;
		const child = spawn(process.execPath, [testOne, ...args], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', chunk => (stdout += chunk));
		child.stderr.on('data', chunk => (stderr += chunk));
		child.on('error', reject);
		child.on('close', code => resolve({code, stdout, stderr}));
	});
}

/** A project of one module and its test, never built: a tsconfig as the repository's writes dist/, and nothing in it. */
function makeProject(): string {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-test-one-')));
	mkdirSync(join(root, 'test'));
	writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({compilerOptions: {rootDir: '.', outDir: 'dist', module: 'NodeNext'}, include: ['test']}));
	writeAdd(root, 'a + b');
	writeFileSync(
		join(root, 'test', 'add.test.ts'),
		"import {test} from 'node:test';\nimport assert from 'node:assert/strict';\nimport {add} from './add.js';\n\ntest('add sums', () => assert.equal(add(1, 2), 3));\n",
	);
	return root;
}

/** The module under test, with `body` as what add returns. */
function writeAdd(root: string, body: string): void {
	writeFileSync(join(root, 'test', 'add.ts'), `export const add = (a: number, b: number): number => ${body};\n`);
}

test('a test file named by its source runs without a build, and a changed module is transpiled again before the next run', async () => {
	const root = makeProject();

	const first = await runTestOne(root, ['test/add.test.ts']);
	assert.equal(first.code, 0, first.stderr + first.stdout);
	assert.match(first.stderr, /test-one: 2 file\(s\) transpiled in \d+ ms/);
	assert.match(first.stdout, /✔ add sums/);
	assert.ok(existsSync(join(root, 'dist', 'test', 'add.test.js')), 'the test is compiled where tsc writes it');

	const again = await runTestOne(root, ['test/add.test.ts']);
	assert.equal(again.code, 0, again.stderr);
	assert.match(again.stderr, /test-one: 0 file\(s\) transpiled/, 'nothing changed, nothing is transpiled');

	// A change to the module, one second newer than its compiled file whatever the clock's resolution: the test now fails.
	writeAdd(root, 'a - b');
	const later = new Date(Date.now() + 1000);
	utimesSync(join(root, 'test', 'add.ts'), later, later);
	const changed = await runTestOne(root, ['test/add.test.ts']);
	assert.equal(changed.code, 1, changed.stdout);
	assert.match(changed.stderr, /test-one: 1 file\(s\) transpiled/);
	assert.match(changed.stdout, /✖ add sums/);
});

test('no argument is refused with the command to use; a pattern that matches no test fails, not an empty run', async () => {
	const root = makeProject();
	const none = await runTestOne(root, []);
	assert.equal(none.code, 1);
	assert.match(none.stderr, /test-one: name the test files to run, e.g. `npm run test:one -- test\/cli\/budget\.test\.ts`/);

	const nothing = await runTestOne(root, ['no-such-test']);
	assert.equal(nothing.code, 1);
	assert.match(nothing.stderr, /run-tests: no test file under dist\/test or examples\/\*\/dist\/test matches no-such-test/);
});
