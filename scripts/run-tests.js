// Runs every compiled test file under dist/test with node:test (or under
// DIR/test with --dist DIR, for a private build), and the examples' own
// tests, which each example's build writes to examples/NAME/dist/test; other
// arguments filter the files by name. Node 20's --test takes no globs, so
// the files are listed here and given to node:test's run(), the longest first.
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import {join, resolve} from 'node:path';
import {run} from 'node:test';
import {spec} from 'node:test/reporters';

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

/** How much longer a file that starts processes is taken to run than an in-process file of the same size. */
const PROCESS_WEIGHT = 10;

/**
 * A file's expected length, for the order: one that starts processes (i
 * itself, a pseudo-terminal, npm, a worker) spends seconds a test where an
 * in-process one spends milliseconds, and within each kind a larger file
 * holds more tests.
 */
function weight(file) {
	const text = readFileSync(file, 'utf8');
	const startsProcesses = /helpers\/(cli|pty)\.js|tui-e2e\/chat\.js|\.\/chat\.js|node:child_process/.test(text);
	return text.length * (startsProcesses ? PROCESS_WEIGHT : 1);
}

// The longest go first: a long file started last would run on alone while
// the other slots idle. node:test's run() starts the files in the order
// given (node --test sorts them by name).
const weights = new Map(files.map(file => [file, weight(file)]));
files.sort((a, b) => weights.get(b) - weights.get(a));

// Files side by side: one more than the cores, since many tests wait on real deadlines and sockets rather than the CPU; TEST_CONCURRENCY overrides.
const concurrency = Number(process.env.TEST_CONCURRENCY) || availableParallelism() + 1;
const stream = run({files: files.map(file => resolve(file)), concurrency});
stream.on('test:fail', () => {
	process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
