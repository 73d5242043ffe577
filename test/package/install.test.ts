// The package as a user gets it: `npm pack` of the repository, installed
// into an empty prefix (`npm install -g --prefix`) and as a dependency of a
// script's folder, offline: it has no dependencies to fetch. The installed
// `i` runs a one-shot against the mock and the default profile's official
// host from its own copy; the script imports `i-agent/core`, type-checks
// against the published declarations and runs a turn; the example extension's
// sources type-check against the published `i-agent/extension`.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, delimiter, dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

/** The compiled tree this test runs in, and the repository it was built from. */
const tree = fileURLToPath(new URL('../../', import.meta.url));
const repository = dirname(tree);
const countSpawns = new URL('../../../test/fixtures/count-spawns.mjs', import.meta.url).href;
const tsc = join(repository, 'node_modules', 'typescript', 'bin', 'tsc');
const version = (JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')) as {version: string}).version;
/** The target for `du -sh` of the prefix (the peer CLIs take 100–424 MB). */
const MAX_INSTALLED_BYTES = 40 * 1024 * 1024;
const NPM_TIMEOUT_MS = 120_000;

// `npm pack` ships the repository's dist/; a private build's tree is not what it packs.
const skip = basename(tree.replace(/[\\/]$/, '')) === 'dist' ? false : `npm pack ships dist/, and this test runs in the private build ${tree}`;

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-package-')));
const prefix = join(root, 'prefix');
const consumer = join(root, 'consumer');
/** The installed program, as npm linked it on the prefix's PATH. */
const installedBin = join(prefix, 'bin', 'i');
/**
 * A clean environment for npm and the installed program: this node first on
 * PATH (the bin's `#!/usr/bin/env node`), an empty home and npm cache, and
 * none of the npm_config_* variables `npm test` passes down (one of them
 * would point npm at the repository).
 */
const cleanEnv: NodeJS.ProcessEnv = {PATH: [dirname(process.execPath), process.env.PATH].join(delimiter), HOME: join(root, 'home'), npm_config_cache: join(root, 'npm-cache')};
const npmFlags = ['--offline', '--no-audit', '--no-fund', '--update-notifier=false', '--loglevel=error'];

let mock: MockProvider;
let packed: {filename: string; files: Array<{path: string}>};

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

function run(command: string, args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number} = {}): Promise<Run> {
	return new Promise(resolve => {
		execFile(command, args, {cwd: options.cwd, env: options.env ?? cleanEnv, timeout: options.timeoutMs ?? 30_000, maxBuffer: 64 * 1024 * 1024}, (error, stdout, stderr) => {
			resolve({code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: error && typeof error.code !== 'number' ? `${stderr}\n${error.message}` : stderr});
		});
	});
}

/** npm as `npm test` runs it (npm_execpath), else the one on PATH. */
async function npm(args: string[], cwd: string): Promise<string> {
	const script = process.env.npm_execpath;
	const [command, ...prefixArgs] = script && /npm-cli\.c?js$/.test(script) ? [process.execPath, script] : ['npm'];
	const done = await run(command!, [...prefixArgs, ...args], {cwd, timeoutMs: NPM_TIMEOUT_MS});
	assert.equal(done.code, 0, `npm ${args.join(' ')} in ${cwd} failed:\n${done.stdout}\n${done.stderr}`);
	return done.stdout;
}

function bytesUnder(path: string): number {
	const stats = statSync(path, {throwIfNoEntry: false});
	if (!stats) return 0;
	if (!stats.isDirectory()) return stats.size;
	return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

before(
	async () => {
		if (skip) return;
		mock = await startMockProvider();
		mkdirSync(consumer, {recursive: true});
		writeFileSync(join(consumer, 'package.json'), `${JSON.stringify({name: 'consumer', private: true, type: 'module'})}\n`);
		// --ignore-scripts: the test build (`npm test` built dist just now) is what ships; `prepare`
		// would rebuild it, deleting the bundle under the tests running beside this one.
		const [pack] = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', root, ...npmFlags], repository)) as Array<typeof packed>;
		packed = pack!;
		const tarball = join(root, packed.filename);
		await Promise.all([npm(['install', '--global', '--prefix', prefix, ...npmFlags, tarball], root), npm(['install', ...npmFlags, tarball], consumer)]);
	},
	{timeout: 3 * NPM_TIMEOUT_MS},
);

after(async () => {
	await mock?.close();
	rmSync(root, {recursive: true, force: true});
});

/** A sandbox as `i --runtime init` leaves it (the default profile), with the mock's model filled in. */
async function initialised(): Promise<Sandbox> {
	const box = makeSandbox();
	const init = await run(installedBin, ['--runtime', 'init'], {env: {...box.env, PATH: cleanEnv.PATH}});
	assert.equal(init.code, 0, init.stderr);
	const config = JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as Record<string, unknown>;
	box.writeConfig({...config, protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', budget: {window: 100_000}});
	return box;
}

/** The official host's start in a spawn log: its argv after node. */
function hostStarts(log: string): string[][] {
	return readFileSync(log, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map(line => (JSON.parse(line) as {argv: string[]}).argv)
		.filter(argv => argv.slice(-3).join(' ') === '--runtime worker official');
}

test('the tarball holds the program and its core, built, and nothing the installed program does not load', {skip}, () => {
	const files = packed.files.map(file => file.path);
	for (const needed of [
		'bin/i.js',
		'bin/code-cache.js',
		'dist/bundle/cli.js',
		'dist/bundle/headless.cjs',
		'dist/bundle/search-worker.js',
		'dist/host/official.cjs',
		'dist/core/index.js',
		'dist/core/search-worker.js',
		'dist/types/api/index.d.ts',
		'dist/types/api/extension.d.ts',
		'docs/extensions/authoring.md',
		'docs/extensions/debugging.md',
		'docs/extensions/agent.md',
		// The README's links into the guide resolve in the installed copy too.
		'docs/configuration.md',
		'docs/spec/platform.md',
		'CHANGELOG.md',
		'README.md',
		'package.json',
		// The provider package that ships with i, built.
		'providers/package.json',
		'providers/dist/src/index.js',
		'providers/dist/src/modules/deepseek.js',
	]) {
		assert.ok(files.includes(needed), `${needed} is in the tarball`);
	}

	// The compiled tree, tests and sources stay home.
	const strays = files.filter(path => /^dist\/(source|test|bench|components|workers|brand)\/|\.map$|^source\/|^test\/|node_modules|^providers\/(?!package\.json$|dist\/src\/)/.test(path));
	assert.deepEqual(strays, []);
	const manifest = JSON.parse(readFileSync(join(prefix, 'lib', 'node_modules', 'i-agent', 'package.json'), 'utf8')) as Record<string, unknown>;
	assert.equal(manifest.dependencies, undefined, 'everything the program loads is bundled');
	// The core's bundle is headless: no UI package went into it.
	const core = join(prefix, 'lib', 'node_modules', 'i-agent', 'dist', 'core');
	const ui = readdirSync(core).filter(name => /node_modules\/(ink|react)\//.test(readFileSync(join(core, name), 'utf8')));
	assert.deepEqual(ui, []);
});

test('the installed size stays within 40 MB', {skip}, t => {
	const bytes = bytesUnder(prefix);
	t.diagnostic(`installed: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${prefix}; tarball ${(statSync(join(root, packed.filename)).size / 1024).toFixed(0)} kB`);
	assert.ok(bytes <= MAX_INSTALLED_BYTES, `${bytes} bytes installed`);
});

test('the installed i: --version, --help, --runtime logo', {skip}, async () => {
	const shown = await run(installedBin, ['--version']);
	assert.equal(shown.code, 0, shown.stderr);
	assert.equal(shown.stdout, `${version}\n`);
	const help = await run(installedBin, ['--help']);
	assert.equal(help.code, 0, help.stderr);
	assert.match(help.stdout, /Usage/);
	assert.match(help.stdout, /-p/);
	const logo = await run(installedBin, ['--runtime', 'logo', '--plain']);
	assert.equal(logo.code, 0, logo.stderr);
	assert.ok(logo.stdout.trim().length > 0, 'the logo printed');
});

test('the installed i answers a one-shot against the mock', {skip}, async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	mock.enqueue({text: 'Installed and answering.'});
	const answer = await runCli(['-p', 'hi', '-C', box.workspace], {env: {...box.env, PATH: cleanEnv.PATH}, entry: installedBin});
	assert.equal(answer.code, 0, answer.stderr);
	assert.equal(answer.stdout, 'Installed and answering.\n');
});

test('the installed i loads its provider package: --list-models lists its providers from the installed copy', {skip}, async () => {
	const box = makeSandbox();
	const listed = await runCli(['--list-models', '--json', '-C', box.workspace], {env: {...box.env, PATH: cleanEnv.PATH}, entry: installedBin});
	assert.equal(listed.code, 0, listed.stderr);
	const providers = [...new Set((JSON.parse(listed.stdout) as Array<{provider: string}>).map(row => row.provider))];
	assert.deepEqual(providers, ['openai', 'anthropic', 'deepseek', 'openrouter', 'gemini', 'groq', 'mistral', 'xai', 'ollama', 'llama-cpp']);
	const shown = await runCli(['extensions', '--json', '-C', box.workspace], {env: {...box.env, PATH: cleanEnv.PATH}, entry: installedBin});
	const [extension] = JSON.parse(shown.stdout).loaded;
	assert.equal(extension.path, realpathSync(join(prefix, 'lib', 'node_modules', 'i-agent', 'providers', 'dist', 'src', 'index.js')));
});

test('the installed docs tool reads the guides of the installed copy', {skip}, async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	mock.enqueue({toolCalls: [{id: 'd1', name: 'docs', arguments: JSON.stringify({topic: 'agent', section: 'The layout'})}]}, {text: 'Read.'});
	const answer = await runCli(['-p', 'how is an extension laid out?', '--json', '-C', box.workspace], {env: {...box.env, PATH: cleanEnv.PATH}, entry: installedBin});
	assert.equal(answer.code, 0, answer.stderr);
	const result = jsonEvents(answer.stdout).find(event => event.type === 'tool_result')!;
	const file = join(realpathSync(join(prefix, 'lib', 'node_modules', 'i-agent')), 'docs', 'extensions', 'agent.md');
	assert.equal(result.is_error, false, result.output);
	assert.ok(result.output.startsWith(`i ${version}, docs topic "agent", section "The layout" (${file})\n\n## The layout\n`), result.output.slice(0, 300));
});

test('the default profile: the official host runs from the installed copy and its hooks take effect', {skip}, async () => {
	const box = await initialised();
	const log = join(box.root, 'spawns.log');
	writeFileSync(log, '');
	mock.enqueue({text: 'hooked'});
	const answer = await runCli(['-p', 'hi', '--json', '-C', box.workspace], {
		env: {...box.env, PATH: cleanEnv.PATH, NODE_OPTIONS: `--import ${countSpawns}`, SPAWN_LOG: log},
		entry: installedBin,
	});
	assert.equal(answer.code, 0, answer.stderr);
	assert.ok(
		jsonEvents(answer.stdout).some(event => event.type === 'budget'),
		'the budget module measured the request',
	);
	const hosts = hostStarts(log);
	assert.equal(hosts.length, 1, JSON.stringify(hosts));
	// node, then the installed bin/i.js…
	const installedCli = realpathSync(join(prefix, 'lib', 'node_modules', 'i-agent', 'bin', 'i.js'));
	assert.deepEqual(hosts[0]!.slice(1, 2), [installedCli]);
	// Its bundle's compiled code is kept like the headless bundle's.
	assert.ok(
		readdirSync(join(box.root, 'cache', 'compile')).some(name => name.startsWith('official-') && name.endsWith('.v8')),
		'the host bundle has a code cache',
	);
});

/**
 * The script an editor integration might be: typed, with the default
 * profile, approving nothing. It is checked without @types/node: the
 * declarations need no package, only a global AbortSignal (here the DOM
 * lib's), and checking all of @types/node would double the test's time.
 */
const consumerScript = `declare const process: {env: Record<string, string | undefined>};

import {openSession, TurnFailedError, type CoreEvent, type TurnResult} from 'i-agent/core';

const events: CoreEvent[] = [];
const asked: string[] = [];
const session = await openSession({
	cwd: process.env.WORKSPACE,
	config: {protocol: 'openai', base_url: process.env.MOCK_BASE_URL!, model: 'm', api_key_env: 'TEST_API_KEY', plugins: ['builtin.json'], budget: {window: 100_000}},
	approve: async request => {
		asked.push(request.title);
		return false;
	},
});
let result: TurnResult;
try {
	result = await session.run('write a file', {onEvent: event => events.push(event)});
} catch (error) {
	if (error instanceof TurnFailedError) console.error(error.kind, error.steps);
	throw error;
} finally {
	await session.close();
}

const steps: number = result.steps;
console.log(JSON.stringify({resolved: import.meta.resolve('i-agent/core'), text: result.text, steps, asked, types: events.map(event => event.type)}));
`;

/** Strict, and every declaration file checked but TypeScript's own libs. */
const consumerCompilerOptions = {strict: true, module: 'nodenext', target: 'es2023', lib: ['es2023', 'dom'], types: [], skipDefaultLibCheck: true, outDir: 'out'};

test('a script imports i-agent/core from the installed tarball, type-checks against its declarations and runs a turn', {skip}, async () => {
	const box = await initialised();
	writeFileSync(join(consumer, 'turn.ts'), consumerScript);
	writeFileSync(join(consumer, 'tsconfig.json'), `${JSON.stringify({compilerOptions: consumerCompilerOptions, files: ['turn.ts']})}\n`);
	// The repository's tsc, as the script's author would have their own; the declarations come from the tarball.
	const checked = await run(process.execPath, [tsc, '-p', consumer], {cwd: consumer});
	assert.equal(checked.code, 0, `tsc:\n${checked.stdout}\n${checked.stderr}`);
	writeFileSync(join(consumer, 'out', 'package.json'), `${JSON.stringify({type: 'module'})}\n`);

	const log = join(box.root, 'spawns.log');
	writeFileSync(log, '');
	mock.enqueue({toolCalls: [{id: 'w1', name: 'write', arguments: JSON.stringify({files: [{path: 'x.txt', content: 'x'}]})}]}, {text: 'Not written.'});
	const turn = await run(process.execPath, [join(consumer, 'out', 'turn.js')], {
		cwd: consumer,
		env: {...box.env, PATH: cleanEnv.PATH, WORKSPACE: box.workspace, MOCK_BASE_URL: mock.baseUrl('openai'), NODE_OPTIONS: `--import ${countSpawns}`, SPAWN_LOG: log},
	});
	assert.equal(turn.code, 0, turn.stderr);
	const report = JSON.parse(turn.stdout) as {resolved: string; text: string; steps: number; asked: string[]; types: string[]};
	const installed = realpathSync(join(consumer, 'node_modules', 'i-agent'));
	assert.equal(realpathSync(fileURLToPath(report.resolved)), join(installed, 'dist', 'core', 'index.js'));
	assert.equal(report.text, 'Not written.');
	assert.equal(report.steps, 2);
	assert.deepEqual(report.asked, ['Write 1 file: x.txt']);
	for (const type of ['budget', 'tool_call', 'approval', 'tool_result', 'text_delta', 'usage', 'done']) assert.ok(report.types.includes(type), `a ${type} event in ${report.types.join(', ')}`);
	// The default profile's hooks ran in the official host, started by the installed package's own bin/i.js.
	const hosts = hostStarts(log);
	assert.equal(hosts.length, 1, JSON.stringify(hosts));
	assert.deepEqual(hosts[0]!.slice(1, 2), [join(installed, 'bin', 'i.js')]);
});

test('the example extensions type-check against the installed i-agent/extension', {skip}, async () => {
	for (const example of ['extension-todo', 'extension-provider']) {
		// Its sources as an author outside this repository has them: i-agent installed, no path mapping to the repository's build.
		const folder = join(consumer, example);
		cpSync(join(repository, 'examples', example, 'src'), join(folder, 'src'), {recursive: true});
		const compilerOptions = {
			strict: true,
			noUncheckedIndexedAccess: true,
			module: 'nodenext',
			target: 'es2023',
			lib: ['es2023'],
			noEmit: true,
			// Node's types from the repository (the consumer has none installed); unchecked themselves, which halves the time.
			types: ['node'],
			typeRoots: [join(repository, 'node_modules', '@types')],
			skipLibCheck: true,
		};
		writeFileSync(join(folder, 'tsconfig.json'), `${JSON.stringify({compilerOptions, include: ['src']})}\n`);
		const checked = await run(process.execPath, [tsc, '-p', folder, '--listFiles'], {cwd: folder});
		assert.equal(checked.code, 0, `${example}: tsc:\n${checked.stdout}\n${checked.stderr}`);
		// The types came from the tarball's declarations, through the package's exports.
		const installed = realpathSync(join(consumer, 'node_modules', 'i-agent'));
		assert.ok(checked.stdout.split('\n').includes(join(installed, 'dist', 'types', 'api', 'extension.d.ts')), checked.stdout);
	}
});
