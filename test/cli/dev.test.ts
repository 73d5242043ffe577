// `i dev` and `i dev-local` through the built CLI against the mock provider:
// real package folders in temp dirs, built with their own build script (npm)
// or bundled with esbuild, staged under the workspace's .i/extensions/.dev/,
// and loaded into one -p turn, the headless way to see a build load
// (issue 14 item 7). The watcher is tested on the loop itself (test/extensions/dev-loop.test.ts).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const registerTool = (name: string, output: string) =>
	`export default function register(api) { api.registerTool({name: '${name}', description: 'A tool.', parameters: {type: 'object'}, execute: () => ({output: ${output}})}); }\n`;

function sandbox(): Sandbox {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	return box;
}

function writeFiles(folder: string, files: Record<string, string>): string {
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(join(folder, name, '..'), {recursive: true});
		writeFileSync(join(folder, name), text);
	}

	return folder;
}

/** A package built by its own script: build.mjs copies src/index.js to dist/index.js, or fails when asked to. */
function scriptPackage(folder: string, name: string, options: {tool?: string; fail?: boolean; source?: string} = {}): string {
	return writeFiles(folder, {
		'package.json': JSON.stringify({name, version: '1.0.0', type: 'module', main: 'dist/index.js', scripts: {build: 'node build.mjs'}}),
		'build.mjs': options.fail
			? `console.log('compiling src/index.js'); console.error('src/index.js(3,1): error: this build is broken on purpose'); process.exit(1);\n`
			: `import {mkdirSync, copyFileSync} from 'node:fs'; mkdirSync('dist', {recursive: true}); copyFileSync('src/index.js', 'dist/index.js');\n`,
		'src/index.js': options.source ?? registerTool(options.tool ?? 'hello', "'hello from the build script'"),
	});
}

/** One -p turn in which the model calls `tool`: the run, the tools the model was offered, and the tool's output. */
async function turnCalling(tool: string, args: string[], box: Sandbox, env: NodeJS.ProcessEnv = box.env) {
	mock.enqueue({toolCalls: [{id: 'call_1', name: tool, arguments: '{}'}]}, {text: 'Done.'});
	const first = mock.requests.length;
	const run = await runCli(args, {env, cwd: box.root, timeoutMs: 60_000});
	const offered: string[] = mock.requests[first]?.body.tools.map((entry: any) => entry.function.name) ?? [];
	const result = run.code === 0 ? jsonEvents(run.stdout).find(event => event.type === 'tool_result') : undefined;
	return {run, offered, output: result?.output as string | undefined};
}

/** A path or name as a regular expression matches it literally. */
const literal = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
const devFolder = (workspace: string) => join(workspace, '.i', 'extensions', '.dev');

test('i dev runs the package build script, stages the build under .i/extensions/.dev/ and loads it: its tool runs in a -p turn', async () => {
	const box = sandbox();
	const pkg = scriptPackage(join(box.root, 'hello-ext'), 'hello-ext');
	const {run, offered, output} = await turnCalling('hello', ['dev', 'hello-ext', '--', '-p', 'use the tool', '--json', '--yolo', '-C', box.workspace], box);
	assert.equal(run.code, 0, run.stderr);
	assert.ok(offered.includes('hello'), offered.join(', '));
	assert.equal(output, 'hello from the build script');
	const staged = join(devFolder(box.workspace), 'hello-ext-1');
	assert.match(run.stderr, new RegExp(`i: dev: building hello-ext with npm run build in ${literal(pkg)}\n`));
	assert.match(run.stderr, new RegExp(`i: dev: built hello-ext in \\d+ ms: ${literal(staged)}\n`));
	// The build ran in the package; the copy it loaded is removed when i dev ends.
	assert.ok(existsSync(join(pkg, 'dist', 'index.js')));
	assert.deepEqual(readdirSync(devFolder(box.workspace)), ['.gitignore']);
});

test('without a build script the TypeScript entry is bundled with esbuild (i’s own), its dependencies resolved from the package’s node_modules', async () => {
	const box = sandbox();
	writeFiles(join(box.root, 'ts-ext'), {
		'package.json': JSON.stringify({name: '@me/ts-ext', type: 'module', exports: './src/index.ts'}),
		'src/index.ts': `import {greeting} from './greeting.ts';\nimport {shout} from 'shouting';\ninterface Result { output: string }\nconst run = (): Result => ({output: shout(greeting)});\nexport default function register(api: any): void { api.registerTool({name: 'greet', description: 'Greets.', parameters: {type: 'object'}, execute: run}); }\n`,
		'src/greeting.ts': `export const greeting: string = 'hello from typescript';\n`,
		'node_modules/shouting/package.json': JSON.stringify({name: 'shouting', type: 'module', main: 'index.js'}),
		'node_modules/shouting/index.js': `export const shout = text => text.toUpperCase() + '!';\n`,
	});
	const {run, offered, output} = await turnCalling('greet', ['dev', 'ts-ext', '--', '-p', 'greet', '--json', '--yolo', '-C', box.workspace], box);
	assert.equal(run.code, 0, run.stderr);
	assert.ok(offered.includes('greet'));
	assert.equal(output, 'HELLO FROM TYPESCRIPT!');
	assert.match(run.stderr, /i: dev: building @me\/ts-ext: esbuild bundles .*src\/index\.ts\n/);
	assert.match(run.stderr, new RegExp(`built @me/ts-ext in \\d+ ms: ${literal(join(devFolder(box.workspace), 'me+ts-ext-1'))}\n`));
});

test('esbuild is taken from the extension package first, when it has one', async () => {
	const box = sandbox();
	// A stand-in esbuild that writes a module of its own: the tool it registers shows which esbuild ran.
	writeFiles(join(box.root, 'own-esbuild'), {
		'package.json': JSON.stringify({name: 'own-esbuild', type: 'module'}),
		'index.ts': registerTool('from_real_esbuild', "'wrong'"),
		'node_modules/esbuild/package.json': JSON.stringify({name: 'esbuild', main: 'main.js'}),
		'node_modules/esbuild/main.js': `const {writeFileSync} = require('node:fs');\nexports.build = async options => { writeFileSync(options.outfile, ${JSON.stringify(registerTool('from_package_esbuild', "'the package esbuild'"))}); return {errors: [], warnings: []}; };\n`,
	});
	const {run, offered, output} = await turnCalling('from_package_esbuild', ['dev', 'own-esbuild', '--', '-p', 'go', '--json', '--yolo', '-C', box.workspace], box);
	assert.equal(run.code, 0, run.stderr);
	assert.ok(!offered.includes('from_real_esbuild'));
	assert.equal(output, 'the package esbuild');
});

test('a workspace of two packages needs --package (-P); a name that is not there lists them', async () => {
	const box = sandbox();
	const root = writeFiles(join(box.root, 'mono'), {'package.json': JSON.stringify({name: 'mono', private: true, workspaces: ['packages/*']})});
	scriptPackage(join(root, 'packages', 'alpha'), 'alpha-ext', {tool: 'alpha'});
	// beta's dependencies: one hoisted to the workspace root, one of its own, and one in both (its own is the one Node finds first).
	const beta = scriptPackage(join(root, 'packages', 'beta'), 'beta-ext', {
		source: `import {value as hoisted} from 'hoisted-dep';\nimport {value as local} from 'local-dep';\nimport {value as shared} from 'shared-dep';\n${registerTool('beta', "[hoisted, local, shared].join(' ')")}`,
	});
	const dependency = (folder: string, name: string, value: string) =>
		writeFiles(join(folder, 'node_modules', name), {'package.json': JSON.stringify({name, type: 'module', main: 'index.js'}), 'index.js': `export const value = '${value}';\n`});
	dependency(root, 'hoisted-dep', 'hoisted');
	dependency(root, 'shared-dep', 'from the root');
	dependency(beta, 'local-dep', 'local');
	dependency(beta, 'shared-dep', 'its own');
	writeFiles(join(root, 'packages', 'notes'), {'README.md': 'no package here'});

	const ambiguous = await runCli(['dev', 'mono', '--', '-p', 'hi', '-C', box.workspace], {env: box.env, cwd: box.root});
	assert.equal(ambiguous.code, 2);
	assert.equal(ambiguous.stderr, `i: dev: ${root} is an npm workspace of 2 packages; choose one with --package NAME (-P NAME): alpha-ext (packages/alpha), beta-ext (packages/beta)\n`);
	const unknown = await runCli(['dev', 'mono', '--package', 'gamma-ext', '--', '-p', 'hi', '-C', box.workspace], {env: box.env, cwd: box.root});
	assert.equal(unknown.code, 2);
	assert.equal(unknown.stderr, `i: dev: the npm workspace ${root} has no package gamma-ext; its packages: alpha-ext (packages/alpha), beta-ext (packages/beta)\n`);

	const {run, offered, output} = await turnCalling('beta', ['dev', 'mono', '-P', 'beta-ext', '--', '-p', 'use beta', '--json', '--yolo', '-C', box.workspace], box);
	assert.equal(run.code, 0, run.stderr);
	assert.ok(offered.includes('beta') && !offered.includes('alpha'), offered.join(', '));
	assert.equal(output, 'hoisted local its own');
});

test('a first build that fails shows the build output and exits 1 before any model request', async () => {
	const box = sandbox();
	const pkg = scriptPackage(join(box.root, 'broken'), 'broken-ext', {fail: true});
	const requests = mock.requests.length;
	const run = await runCli(['dev', 'broken', '--', '-p', 'hi', '-C', box.workspace], {env: box.env, cwd: box.root, timeoutMs: 60_000});
	assert.equal(run.code, 1);
	assert.match(
		run.stderr,
		new RegExp(`i: dev: npm run build failed \\(exit code 1\\) in ${literal(pkg)}; its output:\n  compiling src/index.js\n  src/index.js\\(3,1\\): error: this build is broken on purpose\n`),
	);
	assert.equal(mock.requests.length, requests);
	assert.deepEqual(readdirSync(devFolder(box.workspace)), ['.gitignore']);
});

test('i dev wants the chat screen: without a terminal and without -p it refuses; nothing to build is an error, and other usage errors exit 2', async () => {
	const box = sandbox();
	scriptPackage(join(box.root, 'hello-ext'), 'hello-ext');
	const noTerminal = await runCli(['dev', 'hello-ext', '--', '-C', box.workspace], {env: box.env, cwd: box.root});
	assert.equal(noTerminal.code, 2);
	assert.equal(noTerminal.stderr, 'i: dev: i dev opens the chat screen, and stdout is not a terminal; to try a build without one, run one turn: i dev DIR -- -p "use the tool"\n');

	mkdirSync(join(box.root, 'empty'));
	const nothing = await runCli(['dev', 'empty', '--', '-p', 'hi', '-C', box.workspace], {env: box.env, cwd: box.root});
	assert.equal(nothing.code, 2);
	assert.match(nothing.stderr, new RegExp(`^i: dev: nothing to build: ${literal(join(box.root, 'empty'))} has no package\\.json; .*i dev-local opens the chat without one`));

	const twoFolders = await runCli(['dev', 'a', 'b'], {env: box.env, cwd: box.root});
	assert.equal(twoFolders.code, 2);
	assert.match(twoFolders.stderr, /^i: dev: i dev builds one package folder, not 2 \(a b\); i's own flags go after --/);
	const unknownFlag = await runCli(['dev', '--watchh'], {env: box.env, cwd: box.root});
	assert.equal(unknownFlag.code, 2);
	assert.match(unknownFlag.stderr, /unknown flag --watchh \(did you mean --watch\?\)/);
	const noExtensions = await runCli(['dev', 'hello-ext', '--', '-p', 'hi', '--no-extensions'], {env: box.env, cwd: box.root});
	assert.equal(noExtensions.code, 2);
	assert.match(noExtensions.stderr, /--no-extensions would keep the build of i dev from loading/);
});

test('i dev-local loads only the built extension: not I_EXTENSIONS_DIR, the project .i/extensions or the global settings, which i dev loads', async () => {
	const box = sandbox();
	scriptPackage(join(box.root, 'hello-ext'), 'hello-ext');
	const envDir = writeFiles(join(box.root, 'env-extensions'), {'from-env.mjs': registerTool('from_env', "'env'")});
	writeFiles(join(box.workspace, '.i', 'extensions'), {'from-project.mjs': registerTool('from_project', "'project'")});
	writeFiles(box.configDir, {'settings.json': JSON.stringify({extensionDirs: ['global-extensions']}), 'global-extensions/from-global.mjs': registerTool('from_global', "'global'")});
	const env = {...box.env, I_EXTENSIONS_DIR: envDir};
	const args = (command: string) => [command, 'hello-ext', '--', '-p', 'use the tool', '--json', '--yolo', '--trust-project', '-C', box.workspace];

	const dev = await turnCalling('hello', args('dev'), box, env);
	assert.equal(dev.run.code, 0, dev.run.stderr);
	for (const name of ['hello', 'from_env', 'from_project', 'from_global']) assert.ok(dev.offered.includes(name), `i dev offers ${name}: ${dev.offered.join(', ')}`);

	for (const command of [['dev-local'], ['dev', '--local-only']]) {
		const local = await turnCalling('hello', [...command, ...args('x').slice(1)], box, env);
		assert.equal(local.run.code, 0, local.run.stderr);
		assert.equal(local.output, 'hello from the build script');
		assert.ok(local.offered.includes('hello'));
		for (const name of ['from_env', 'from_project', 'from_global']) assert.ok(!local.offered.includes(name), `${command.join(' ')} does not offer ${name}`);
	}
});

test("i dev's build stands in for the other copies of its package: no warning that they, or the build, were not loaded", async () => {
	const box = sandbox();
	const pkg = scriptPackage(join(box.root, 'hello-ext'), 'hello-ext');
	// The package is also installed for the project (a folder listed by path, as i install links it), and in a folder of extensions.
	writeFiles(join(box.workspace, '.i'), {'settings.json': JSON.stringify({packages: [pkg]})});
	const envDir = writeFiles(join(box.root, 'env-extensions'), {'hello-ext.mjs': registerTool('hello', "'the copy in I_EXTENSIONS_DIR'")});
	for (const trust of [[], ['--trust-project']]) {
		const {run, offered, output} = await turnCalling('hello', ['dev', 'hello-ext', '--', '-p', 'use the tool', '--json', '--yolo', '-C', box.workspace, ...trust], box, {...box.env, I_EXTENSIONS_DIR: envDir});
		assert.equal(run.code, 0, run.stderr);
		assert.ok(offered.includes('hello'), offered.join(', '));
		assert.equal(output, 'hello from the build script');
		// With --json a warning is an event on stdout.
		const warnings = jsonEvents(run.stdout).filter(event => event.type === 'warning');
		assert.deepEqual(warnings, [], trust.join(' '));
		assert.doesNotMatch(run.stderr, /was not loaded|skipped|warning/, `${trust.join(' ')}: ${run.stderr}`);
	}
});

test('i dev-local with nothing to build says so and runs without an extension', async () => {
	const box = sandbox();
	mkdirSync(join(box.root, 'skills-only'));
	mock.enqueue({text: 'No tools.'});
	const run = await runCli(['dev-local', 'skills-only', '--', '-p', 'hi', '-C', box.workspace], {env: box.env, cwd: box.root});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'No tools.\n');
	assert.match(
		run.stderr,
		new RegExp(`^i: dev-local: nothing to build \\(${literal(join(box.root, 'skills-only'))} has no package\\.json\\): no extension is loaded, only the project's own skills and prompts\n`),
	);
});

test('.i/extensions/.dev is never loaded by a normal run, nor listed by i extensions', async () => {
	const box = sandbox();
	// What a running i dev leaves there: a staged package folder.
	writeFiles(join(devFolder(box.workspace), 'staged-ext-1'), {
		'package.json': JSON.stringify({name: 'staged-ext', type: 'module', main: 'index.js'}),
		'index.js': registerTool('staged', "'staged'"),
	});
	writeFiles(join(box.workspace, '.i', 'extensions'), {'visible.mjs': registerTool('visible', "'visible'")});
	mock.enqueue({text: 'Hi.'});
	const first = mock.requests.length;
	const run = await runCli(['-p', 'hi', '--trust-project', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const offered = mock.requests[first]!.body.tools.map((entry: any) => entry.function.name);
	assert.ok(offered.includes('visible') && !offered.includes('staged'), offered.join(', '));
	const listed = await runCli(['extensions', '--json', '--trust-project', '-C', box.workspace], {env: box.env});
	assert.equal(listed.code, 0, listed.stderr);
	assert.deepEqual(
		JSON.parse(listed.stdout).loaded.map((extension: any) => extension.name),
		// The provider package that ships with i loads last, like in every run.
		['visible', 'i-providers'],
	);
});
