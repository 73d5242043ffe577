// Runs every compiled test file under dist/test with node:test (or under
// DIR/test with --dist DIR, for a private build), and the examples' own
// tests, which each example's build writes to examples/NAME/dist/test; other
// arguments filter the files by name. Node 20's --test takes no globs, so
// they are listed here.
import {existsSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {spawnSync} from 'node:child_process';

function find(dir) {
	return readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : find(path);
		return entry.name.endsWith('.test.js') ? [path] : [];
	});
}

const args = process.argv.slice(2);
const distFlag = args.indexOf('--dist');
const dist = distFlag === -1 ? 'dist' : args.splice(distFlag, 2)[1];
const filter = args;
// Filters match the path below the test folder, so a private build's own name never matches; a compiled test's whole path (dist/test/cli/budget.test.js) names that file.
const root = join(dist, 'test');
const matches = (file, below) => filter.length === 0 || filter.some(f => f === file || file.slice(below.length).includes(f));
const files = find(root).filter(file => matches(file, root));
// An example is a package of its own, built by its own build script (which `npm run build` runs): its tests are matched by the path below examples/.
for (const example of existsSync('examples') ? readdirSync('examples', {withFileTypes: true}) : []) {
	const tests = join('examples', example.name, 'dist', 'test');
	if (example.isDirectory() && existsSync(tests)) files.push(...find(tests).filter(file => matches(file, 'examples')));
}

// The provider package that ships with i is built the same way (providers/dist/test), matched by the path below providers/.
const providerTests = join('providers', 'dist', 'test');
if (existsSync(providerTests)) files.push(...find(providerTests).filter(file => matches(file, 'providers')));

if (files.length === 0) {
	// node --test with no files would go looking for tests of its own.
	process.stderr.write(`run-tests: no test file under ${root} or examples/*/dist/test matches ${filter.join(', ')}\n`);
	process.exit(1);
}

/** Files side by side: the suite is mostly CPU, and on 2 cores a third file made timed tests fail under load; TEST_CONCURRENCY overrides. */
const DEFAULT_CONCURRENCY = 2;
const concurrency = Number(process.env.TEST_CONCURRENCY) || DEFAULT_CONCURRENCY;
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...files], {stdio: 'inherit'});
process.exit(result.status ?? 1);
