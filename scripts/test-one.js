// Runs some test files in seconds, without the whole build: every TypeScript
// file newer than its compiled JavaScript is transpiled again with esbuild
// (no type-check: `npm run build` and `npm test` do that), the bundles and
// declarations are rebuilt when the product's sources are newer than them,
// then run-tests.js runs the files the arguments name. An argument is a test's
// source path (test/cli/budget.test.ts) or run-tests.js's substring of a
// compiled path (cli/budget).
import {existsSync, readdirSync, statSync} from 'node:fs';
import {dirname, join, relative, sep} from 'node:path';
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import ts from 'typescript';

/** Each TypeScript project of the repository: its tsconfig and the folder it compiles into (what `npm run build` builds); those present. */
const projects = [
	{config: 'tsconfig.json', out: 'dist'},
	{config: 'providers/tsconfig.json', out: 'providers/dist'},
	{config: 'examples/extension-todo/tsconfig.json', out: 'examples/extension-todo/dist'},
	{config: 'examples/extension-provider/tsconfig.json', out: 'examples/extension-provider/dist'},
].filter(project => existsSync(project.config));

/** The product's sources, which the bundles and declarations are made of (the provider package is bundled into the CLI too). */
const productFolders = ['source', 'workers', 'brand', 'components', join('providers', 'src')];

const mtime = path => (existsSync(path) ? statSync(path).mtimeMs : 0);

/** The project's TypeScript files, as tsc lists them from the tsconfig's include and exclude. */
function sourcesOf(config) {
	const read = ts.readConfigFile(config, ts.sys.readFile);
	if (read.error) throw new Error(`${config}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
	return ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(config)).fileNames.map(file => relative('.', file));
}

/** Where tsc writes the JavaScript of `file` of the project: its path below the project's folder, under `out`, ending in .js. */
const compiledPath = (project, file) => join(project.out, relative(dirname(project.config), file)).replace(/\.tsx?$/, '.js');

/** Transpiles the project's files whose JavaScript is missing or older than them; returns them. */
async function transpileStale(project) {
	const stale = sourcesOf(project.config).filter(file => mtime(compiledPath(project, file)) < mtime(file));
	if (stale.length === 0) return stale;
	await build({
		entryPoints: stale,
		outdir: project.out,
		outbase: dirname(project.config),
		format: 'esm',
		platform: 'node',
		target: 'es2023',
		sourcemap: true,
		logLevel: 'warning',
		// What the tsconfigs say that changes the JavaScript: React's automatic runtime, and class fields defined as ES2023 does.
		tsconfigRaw: {compilerOptions: {jsx: 'react-jsx', useDefineForClassFields: true}},
	});
	return stale;
}

/** The newest modification time of a TypeScript file under the product's folders. */
function newestProductSource() {
	let newest = 0;
	const walk = dir => {
		for (const entry of readdirSync(dir, {withFileTypes: true})) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, mtime(path));
		}
	};
	for (const folder of productFolders) if (existsSync(folder)) walk(folder);
	return newest;
}

/** Runs one of the scripts beside this one with node, in the working folder. */
function runScript(name, args = []) {
	const result = spawnSync(process.execPath, [fileURLToPath(new URL(name, import.meta.url)), ...args], {stdio: 'inherit'});
	return result.status ?? 1;
}

/** A test's source path becomes its compiled path, which run-tests.js takes as it is; anything else is passed on as a pattern. */
function toRunTestsArgument(arg) {
	if (!/\.test\.tsx?$/.test(arg) || !existsSync(arg)) return arg;
	const file = relative('.', arg);
	const project = projects.find(candidate => {
		const base = dirname(candidate.config);
		return base === '.' ? !file.startsWith(`providers${sep}`) && !file.startsWith(`examples${sep}`) : file.startsWith(base + sep);
	});
	return project ? compiledPath(project, file) : arg;
}

const args = process.argv.slice(2);
if (args.length === 0) {
	process.stderr.write('test-one: name the test files to run, e.g. `npm run test:one -- test/cli/budget.test.ts` (`npm test` runs them all)\n');
	process.exit(1);
}

const started = Date.now();
let transpiled = 0;
for (const project of projects) transpiled += (await transpileStale(project)).length;
// bundle.js writes dist/host/official.cjs last: older than a product source, or missing, the bundles and declarations are stale.
const bundled = mtime('dist/host/official.cjs') < newestProductSource();
if (bundled) {
	const status = runScript('declarations.js') || runScript('bundle.js');
	if (status !== 0) process.exit(status);
}
process.stderr.write(`test-one: ${transpiled} file(s) transpiled${bundled ? ', bundles rebuilt' : ''} in ${Date.now() - started} ms\n`);

process.exit(runScript('run-tests.js', args.map(toRunTestsArgument)));
