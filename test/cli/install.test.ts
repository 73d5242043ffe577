// `i install` / `i uninstall` through the built CLI with the real npm:
// packages from local tarballs (`npm pack` of a temp extension package) and
// folders, never from the registry (issue 14 item 8).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {importRecorder} from '../helpers/import-log.js';
import {jsonEvents, makeSandbox, runCli, unbundledCliPath, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** The repository, above the compiled tree (dist/test/cli/ → ../../..). */
const repository = fileURLToPath(new URL('../../../', import.meta.url));

/** npm takes a second or more per run on a busy machine. */
const npmTimeout = {timeoutMs: 90_000};

/** An extension whose tool `name` answers `reply`. */
const toolSource = (name: string, reply: string) => `export default function register(api) {
	api.registerTool({name: ${JSON.stringify(name)}, description: 'A test tool.', parameters: {type: 'object', properties: {}}, async execute() { return {output: ${JSON.stringify(reply)}}; }});
}
`;

/** A package folder: package.json and its files. */
function writePackage(dir: string, manifest: Record<string, unknown>, files: Record<string, string>): string {
	mkdirSync(dir, {recursive: true});
	writeFileSync(join(dir, 'package.json'), JSON.stringify({version: '1.0.0', type: 'module', main: 'index.js', ...manifest}));
	for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
	return dir;
}

/** `npm pack` of a package folder into `into`: the tarball's path. */
function pack(folder: string, into: string): string {
	const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', into], {cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']})) as [
		{filename: string},
	];
	return join(into, packed.filename);
}

function sandbox(): Sandbox {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	return box;
}

/** A tarball of the extension package `name` with the tool `tool`. */
function extensionTarball(box: Sandbox, name: string, tool: string, version = '1.0.0'): string {
	const folder = writePackage(join(box.root, 'src', `${name}-${version}`), {name, version}, {'index.js': toolSource(tool, `${tool} ran`)});
	return pack(folder, box.root);
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

/** The names of the tools the model was offered in the last request. */
const offered = () => (mock.requests.at(-1)!.body.tools as any[]).map(tool => tool.function.name as string);

test('i install TARBALL installs into .i/npm, lists the name once in .i/settings.json keeping every other key, and a trusted -p run is offered its tool', async () => {
	const box = sandbox();
	const tarball = extensionTarball(box, 'todo-ext', 'todo');
	const settings = join(box.workspace, '.i', 'settings.json');
	mkdirSync(join(box.workspace, '.i'));
	// Two-space indentation and keys of other features: all kept.
	writeFileSync(settings, `${JSON.stringify({mcpServers: {docs: {command: 'docs-server'}}, skills: ['./team-skills']}, null, 2)}\n`);
	const run = await runCli(['install', tarball, '-C', box.workspace], {env: box.env, ...npmTimeout});
	assert.equal(run.code, 0, run.stderr);
	const path = join(box.workspace, '.i', 'npm', 'node_modules', 'todo-ext');
	assert.equal(
		run.stdout,
		[
			`installed todo-ext 1.0.0 from ${tarball} into ${path}`,
			`listed "todo-ext" in "packages" of ${settings} (for this project)`,
			`found its entry ${join(path, 'index.js')}; its code was not run to check it, since the workspace is not trusted (--trust-project checks it)`,
			'it is project code: it loads only in a trusted workspace (one trusted before, or a run with --trust-project)',
			'',
		].join('\n'),
	);
	const text = readFileSync(settings, 'utf8');
	assert.deepEqual(JSON.parse(text), {mcpServers: {docs: {command: 'docs-server'}}, skills: ['./team-skills'], packages: ['todo-ext']});
	assert.match(text, /^\{\n {2}"mcpServers"/);
	assert.ok(existsSync(join(path, 'index.js')));

	mock.enqueue({text: 'Untrusted.'});
	const untrusted = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(untrusted.code, 0, untrusted.stderr);
	assert.match(untrusted.stderr, new RegExp(`its own extension was skipped: ${path}`));
	assert.ok(!offered().includes('todo'));
	mock.enqueue({toolCalls: [{id: 'call_1', name: 'todo', arguments: '{}'}]}, {text: 'Done.'});
	const trusted = await runCli(['-p', 'add a todo', '--trust-project', '--yolo', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(trusted.code, 0, trusted.stderr);
	assert.ok(offered().includes('todo'), offered().join(', '));
	assert.equal(jsonEvents(trusted.stdout).find(event => event.type === 'tool_result')!.output, 'todo ran');
});

test('i install --global TARBALL lists it in <config_dir>/settings.json; every run loads it without trust; --trust-project on a project install checks its register', async () => {
	const box = sandbox();
	const tarball = extensionTarball(box, '@me/global-ext', 'stamp');
	const run = await runCli(['install', tarball, '--global', '--json'], {env: box.env, cwd: box.root, ...npmTimeout});
	assert.equal(run.code, 0, run.stderr);
	const path = join(box.configDir, 'npm', 'node_modules', '@me', 'global-ext');
	assert.deepEqual(JSON.parse(run.stdout), {
		name: '@me/global-ext',
		version: '1.0.0',
		spec: tarball,
		linked: false,
		path,
		entry: join(path, 'index.js'),
		added: true,
		updated: false,
		imported: true,
		scope: 'global',
		settings: join(box.configDir, 'settings.json'),
		prefix: join(box.configDir, 'npm'),
		loads: 'always',
		build: null,
	});
	assert.deepEqual(readJson(join(box.configDir, 'settings.json')), {packages: ['@me/global-ext']});
	assert.equal(existsSync(join(box.workspace, '.i')), false, 'the project is untouched');
	mock.enqueue({text: 'Hi.'});
	const turn = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(turn.code, 0, turn.stderr);
	assert.equal(turn.stderr, '');
	assert.ok(offered().includes('stamp'), offered().join(', '));

	// A relative tarball path is the current folder's; --trust-project lets the check import it.
	const project = await runCli(['install', `./${tarball.slice(box.root.length + 1)}`, '--trust-project', '-C', box.workspace], {env: box.env, cwd: box.root, ...npmTimeout});
	assert.equal(project.code, 0, project.stderr);
	assert.match(project.stdout, new RegExp(`^installed @me/global-ext 1\\.0\\.0 from ${tarball} into `));
	assert.match(project.stdout, /\nchecked: .*index\.js loads and exports register\n/);
});

test('i install FOLDER links the folder: a change to it loads at the next start', async () => {
	const box = sandbox();
	const folder = writePackage(join(box.root, 'dev-ext'), {name: 'dev-ext'}, {'index.js': toolSource('first', 'one')});
	const run = await runCli(['install', folder, '--global'], {env: box.env, ...npmTimeout});
	assert.equal(run.code, 0, run.stderr);
	const path = join(box.configDir, 'npm', 'node_modules', 'dev-ext');
	assert.match(run.stdout, new RegExp(`^linked dev-ext 1\\.0\\.0 into ${path} → ${folder} \\(a link: changes to that folder load at the next start\\)\n`));
	assert.ok(lstatSync(path).isSymbolicLink());
	writeFileSync(join(folder, 'index.js'), toolSource('second', 'two'));
	const listing = await runCli(['extensions', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(listing.code, 0, listing.stderr);
	assert.deepEqual(
		JSON.parse(listing.stdout).loaded.map((extension: any) => [extension.name, extension.tools]),
		[
			['dev-ext', ['second']],
			['i-providers', []],
		],
	);
});

/** A package built from source: its build script writes the entry dist/index.js from src/tool.js, printing a line; with `fail`, it prints an error and exits 3 instead. */
function sourcePackage(box: Sandbox, name: string, options: {fail?: boolean} = {}): string {
	const build = options.fail
		? `console.log('compiling src/tool.js'); console.error('src/tool.js(1,1): error: broken on purpose'); process.exit(3);\n`
		: `import {mkdirSync, copyFileSync} from 'node:fs'; console.log('compiling src/tool.js'); mkdirSync('dist', {recursive: true}); copyFileSync('src/tool.js', 'dist/index.js');\n`;
	const folder = writePackage(join(box.root, 'source', name), {name, main: 'dist/index.js', scripts: {build: 'node build.mjs'}}, {'build.mjs': build});
	mkdirSync(join(folder, 'src'));
	writeFileSync(join(folder, 'src', 'tool.js'), toolSource('built_tool', 'built from source'));
	return folder;
}

test('i install --path DIR --build runs the package build script first, then installs what it built; a trusted run is offered its tool', async () => {
	const box = sandbox();
	const folder = sourcePackage(box, 'from-source');
	const run = await runCli(['install', '--path', folder, '--build', '--json', '-C', box.workspace], {env: box.env, ...npmTimeout});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, new RegExp(`^i: install: building from-source with npm run build in ${folder}\ni: install: built from-source in \\d+ ms\n`));
	const report = JSON.parse(run.stdout);
	assert.equal(report.name, 'from-source');
	assert.equal(report.build.folder, folder);
	assert.equal(typeof report.build.ms, 'number');
	assert.equal(report.entry, join(box.workspace, '.i', 'npm', 'node_modules', 'from-source', 'dist', 'index.js'));
	assert.ok(existsSync(join(folder, 'dist', 'index.js')), 'the build wrote the entry in the package folder');
	mock.enqueue({text: 'Done.'});
	const used = await runCli(['-p', 'hi', '--trust-project', '-C', box.workspace], {env: box.env});
	assert.equal(used.code, 0, used.stderr);
	assert.ok(offered().includes('built_tool'), offered().join(', '));
	// Without --build the same folder installs as it is: its entry is there now. The text form says nothing of a build then.
	const plain = await runCli(['install', folder, '-C', box.workspace], {env: box.env, ...npmTimeout});
	assert.equal(plain.code, 0, plain.stderr);
	assert.doesNotMatch(plain.stdout + plain.stderr, /built|building/);
	const rebuilt = await runCli(['install', '--build', folder, '-C', box.workspace], {env: box.env, ...npmTimeout});
	assert.equal(rebuilt.code, 0, rebuilt.stderr);
	assert.match(rebuilt.stdout, new RegExp(`^built it with npm run build in ${folder} \\(\\d+ ms\\)\nlinked from-source 1\\.0\\.0 into `));
});

test('a build that fails installs nothing: exit 1 naming the package, the exit code and the end of its output; --build wants a folder with a build script', async () => {
	const box = sandbox();
	const folder = sourcePackage(box, 'broken-build', {fail: true});
	const run = await runCli(['install', '--path', folder, '--build', '-C', box.workspace], {env: box.env, ...npmTimeout});
	assert.equal(run.code, 1);
	assert.match(
		run.stderr,
		new RegExp(
			`i: install: the build of broken-build failed, so nothing was installed: npm run build failed \\(exit code 3\\) in ${folder}; its output:\n {2}compiling src/tool\\.js\n {2}src/tool\\.js\\(1,1\\): error: broken on purpose\n$`,
		),
	);
	assert.equal(existsSync(join(box.workspace, '.i')), false, 'no prefix, no settings file');

	const tarball = extensionTarball(box, 'packed', 'packed_tool');
	const noScript = writePackage(join(box.root, 'no-script'), {name: 'no-script'}, {'index.js': toolSource('plain', 'plain')});
	for (const [args, message] of [
		[['install', tarball, '--build'], /^i: install: --build builds a package from its source folder, and \S+\.tgz is a tarball; give the folder \(--path DIR\), or leave --build out\n$/],
		[['install', '--path', noScript, '--build'], /^i: install: \S+package\.json has no "build" script, so --build has nothing to run; leave --build out to install no-script as it is\n$/],
		[['install', '--path', folder, 'other'], /^i: install: --path \S+ names the package already; leave out other/],
	] as const) {
		const refused = await runCli([...args, '-C', box.workspace], {env: box.env});
		assert.equal(refused.code, 2, `${args.join(' ')}: ${refused.stderr}`);
		assert.match(refused.stderr, message);
		assert.equal(existsSync(join(box.workspace, '.i')), false);
	}
});

test('installing again updates the package and never lists it twice', async () => {
	const box = sandbox();
	const first = extensionTarball(box, 'twice', 'twice_tool', '1.0.0');
	const second = extensionTarball(box, 'twice', 'twice_tool', '1.1.0');
	const settings = join(box.configDir, 'settings.json');
	const runs = [];
	for (const tarball of [first, first, second]) {
		const run = await runCli(['install', tarball, '--global', '--json'], {env: box.env, ...npmTimeout});
		assert.equal(run.code, 0, run.stderr);
		runs.push(JSON.parse(run.stdout));
	}

	assert.deepEqual(
		runs.map(run => [run.version, run.added, run.updated]),
		[
			['1.0.0', true, false],
			['1.0.0', false, true],
			['1.1.0', false, true],
		],
	);
	assert.deepEqual(readJson(settings), {packages: ['twice']});
	assert.equal(readJson(join(box.configDir, 'npm', 'node_modules', 'twice', 'package.json')).version, '1.1.0');
	// The short form counts too: a name listed under "extensions" is not added again.
	writeFileSync(settings, JSON.stringify({extensions: ['twice']}));
	const again = await runCli(['install', second, '--global'], {env: box.env, ...npmTimeout});
	assert.equal(again.code, 0, again.stderr);
	assert.match(again.stdout, new RegExp(`\n"twice" was listed in ${settings} already \\(for every workspace\\)\n`));
	assert.deepEqual(readJson(settings), {extensions: ['twice']});
});

test('a spec that is no extension is refused: exit 2, the settings file and the npm prefix as they were', async () => {
	const box = sandbox();
	const settings = join(box.configDir, 'settings.json');
	writeFileSync(settings, '{"packages": ["kept"], "theme": "dark"}\n');
	const good = extensionTarball(box, 'good-ext', 'good');
	assert.equal((await runCli(['install', good, '--global'], {env: box.env, ...npmTimeout})).code, 0);
	const settingsBefore = readFileSync(settings, 'utf8');
	const manifestBefore = readFileSync(join(box.configDir, 'npm', 'package.json'), 'utf8');
	// Imported for the check (--global): no register export.
	const noRegister = pack(writePackage(join(box.root, 'src', 'no-register'), {name: 'no-register'}, {'index.js': 'export const x = 1;\n'}), box.root);
	const refused = await runCli(['install', noRegister, '--global'], {env: box.env, ...npmTimeout});
	assert.equal(refused.code, 2, refused.stderr);
	assert.equal(refused.stdout, '');
	assert.equal(
		refused.stderr,
		`i: install: ${noRegister} (the package no-register) is not an extension i can load: exports no register function (export default function register(api) { … }); nothing was installed\n`,
	);
	assert.equal(readFileSync(settings, 'utf8'), settingsBefore);
	assert.equal(readFileSync(join(box.configDir, 'npm', 'package.json'), 'utf8'), manifestBefore);
	assert.equal(existsSync(join(box.configDir, 'npm', 'node_modules', 'no-register')), false);
	assert.ok(existsSync(join(box.configDir, 'npm', 'node_modules', 'good-ext')), 'what was installed before stays');

	// Not imported (an untrusted project): a TypeScript entry fails the loader's entry check; nothing of the project is left.
	const typescript = pack(writePackage(join(box.root, 'src', 'ts-ext'), {name: 'ts-ext', main: 'index.ts'}, {'index.ts': 'export default () => {};\n'}), box.root);
	const source = await runCli(['install', typescript, '-C', box.workspace], {env: box.env, ...npmTimeout});
	assert.equal(source.code, 2, source.stderr);
	assert.match(source.stderr, /\(the package ts-ext\) is not an extension i can load: index\.ts is source code; i loads built JavaScript only: build it first/);
	assert.equal(existsSync(join(box.workspace, '.i')), false);

	// A folder is checked before npm runs.
	const plain = join(box.root, 'plain');
	mkdirSync(plain);
	writeFileSync(join(plain, 'index.js'), toolSource('plain', 'p'));
	const folder = await runCli(['install', plain, '-C', box.workspace], {env: box.env});
	assert.equal(folder.code, 2);
	assert.match(folder.stderr, /has no package\.json, so npm cannot install it; to load a plain folder, list its path in settings\.json "packages" or pass --extension/);
	assert.equal(existsSync(join(box.workspace, '.i')), false);
});

test('i uninstall NAME removes it from the settings (other entries kept) and from the prefix; an unknown name is an error listing what is installed', async () => {
	const box = sandbox();
	const tarball = extensionTarball(box, 'gone-ext', 'gone');
	const settings = join(box.workspace, '.i', 'settings.json');
	const prefix = join(box.workspace, '.i', 'npm');
	assert.equal((await runCli(['install', tarball, '-C', box.workspace], {env: box.env, ...npmTimeout})).code, 0);
	// A path entry whose package is named too, and a name listed under the short form.
	const local = writePackage(join(box.workspace, 'tools', 'local-ext'), {name: 'local-ext'}, {'index.js': toolSource('local', 'l')});
	const listed = readJson(settings);
	writeFileSync(settings, JSON.stringify({...listed, extensions: ['../tools/local-ext', 'gone-ext'], skills: ['s']}, null, '\t'));

	const unknown = await runCli(['uninstall', 'nope', '-C', box.workspace], {env: box.env});
	assert.equal(unknown.code, 2);
	assert.equal(unknown.stderr, `i: uninstall: no extension package "nope" is listed in ${settings} or installed in ${prefix}; installed there: gone-ext, local-ext\n`);
	const elsewhere = await runCli(['uninstall', 'gone-ext', '--global', '-C', box.workspace], {env: box.env});
	assert.equal(elsewhere.code, 2);
	assert.match(elsewhere.stderr, /nothing is installed there; "gone-ext" is installed for this project: leave out --global\n$/);

	const run = await runCli(['uninstall', 'gone-ext', '--json', '-C', box.workspace], {env: box.env, ...npmTimeout});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(JSON.parse(run.stdout), {
		name: 'gone-ext',
		removedEntries: [
			{key: 'packages', entry: 'gone-ext'},
			{key: 'extensions', entry: 'gone-ext'},
		],
		removedFromPrefix: true,
		scope: 'project',
		settings,
		prefix,
	});
	assert.deepEqual(readJson(settings), {packages: [], extensions: ['../tools/local-ext'], skills: ['s']});
	assert.equal(existsSync(join(prefix, 'node_modules', 'gone-ext')), false);
	assert.deepEqual(readJson(join(prefix, 'package.json')).dependencies ?? {}, {});

	const byPath = await runCli(['uninstall', 'local-ext', '-C', box.workspace], {env: box.env});
	assert.equal(byPath.code, 0, byPath.stderr);
	assert.equal(byPath.stdout, `uninstalled local-ext: removed "../tools/local-ext" from "extensions" of ${settings} (for this project)\nthe folder ../tools/local-ext is left as it is\n`);
	assert.ok(existsSync(join(local, 'index.js')));
	const none = await runCli(['uninstall', 'local-ext', '-C', box.workspace], {env: box.env});
	assert.equal(none.code, 2);
	assert.match(none.stderr, /nothing is installed there\n$/);
});

test('i uninstall of the provider package that ships inside i explains "providerPackage": false (exit 2, nothing written); a package of yours of that name is uninstalled as any', async () => {
	const box = sandbox();
	const name = readJson(join(repository, 'providers', 'package.json')).name as string;
	const project = join(box.workspace, '.i', 'settings.json');
	const global = join(box.configDir, 'settings.json');
	const how = `to turn it off, set "providerPackage": false in ${project} (for this project) or ${global} (for every workspace), or run with --no-extensions for one run (docs/providers.md, "The provider package")\n`;
	for (const flags of [[], ['--global'], ['--json']]) {
		const run = await runCli(['uninstall', name, ...flags, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 2, run.stderr);
		assert.equal(run.stdout, '');
		assert.equal(run.stderr, `i: uninstall: "${name}" is the provider package that ships inside i (${join(repository, 'providers')}), not an installed one, so it cannot be uninstalled; ${how}`);
	}

	assert.equal(existsSync(join(box.workspace, '.i')), false);
	assert.equal(existsSync(global), false);
	// Turned off as it says: the package's providers are gone from the catalogue.
	mkdirSync(join(box.workspace, '.i'));
	writeFileSync(project, JSON.stringify({providerPackage: false}));
	const listed = await runCli(['--list-models', '-C', box.workspace], {env: box.env});
	assert.equal(listed.code, 0, listed.stderr);
	assert.doesNotMatch(listed.stdout, /deepseek/);
	// A folder package of the person's own with that name is theirs to uninstall.
	writePackage(join(box.workspace, 'tools', 'mine'), {name}, {'index.js': toolSource('mine', 'm')});
	writeFileSync(project, JSON.stringify({providerPackage: false, extensions: ['../tools/mine']}));
	const own = await runCli(['uninstall', name, '-C', box.workspace], {env: box.env});
	assert.equal(own.code, 0, own.stderr);
	assert.match(own.stdout, new RegExp(`^uninstalled ${name}: removed "../tools/mine" from "extensions"`));
});

test('a broken settings file is an error naming it; the file is untouched and npm never runs', async () => {
	const box = sandbox();
	const tarball = extensionTarball(box, 'any-ext', 'any');
	const settings = join(box.workspace, '.i', 'settings.json');
	mkdirSync(join(box.workspace, '.i'));
	for (const broken of ['{"packages": ["a",', '{"packages": "any-ext"}']) {
		writeFileSync(settings, broken);
		for (const args of [
			['install', tarball],
			['uninstall', 'any-ext'],
		]) {
			const run = await runCli([...args, '-C', box.workspace], {env: box.env});
			assert.equal(run.code, 2, run.stderr);
			assert.match(run.stderr, new RegExp(`^i: ${args[0]}: settings ${settings}: (not valid JSON|field "packages": )`));
			assert.equal(readFileSync(settings, 'utf8'), broken);
			assert.equal(existsSync(join(box.workspace, '.i', 'npm')), false);
		}
	}
});

test('npm missing, npm failing, and usage errors: clear messages and the exit codes of the command line', async () => {
	const box = sandbox();
	const tarball = extensionTarball(box, 'fine-ext', 'fine');
	const missing = await runCli(['install', tarball, '-C', box.workspace], {env: {...box.env, PATH: join(box.root, 'no-bin')}});
	assert.equal(missing.code, 2);
	assert.equal(missing.stderr, 'i: install: npm was not found on PATH, and i installs extension packages with it; install Node.js with npm (or put npm on PATH) and try again\n');
	assert.equal(existsSync(join(box.workspace, '.i')), false);

	const broken = join(box.root, 'broken-1.0.0.tgz');
	writeFileSync(broken, 'not a tarball');
	const failed = await runCli(['install', broken, '-C', box.workspace], {env: box.env, ...npmTimeout});
	assert.equal(failed.code, 1);
	assert.match(failed.stderr, new RegExp(`^i: install: npm install ${broken} failed \\(exit code \\d+\\) in ${join(box.workspace, '.i', 'npm')}; npm said:\n {2}npm `));
	assert.match(failed.stderr, /TAR_BAD_ARCHIVE/);
	assert.equal(existsSync(join(box.workspace, '.i')), false, 'the prefix made for it is gone again');

	for (const [args, message] of [
		[['install'], /^i: install: name the package to install: i install SPEC \(an npm package name, name@version, a tarball or a folder\), or i install --path DIR \[--build\]\n$/],
		[['install', 'a', 'b'], /^i: install: takes one package at a time, not 2 \(a b\)/],
		[['install', join(box.root, 'absent.tgz')], /^i: install: .*absent\.tgz: no such file or folder/],
		[['uninstall'], /^i: uninstall: name the package to uninstall/],
		[['install', tarball, '--bogus'], /^i: install: unknown flag --bogus/],
		[['uninstall', 'x', '--trust-project'], /^i: uninstall: unknown flag --trust-project/],
	] as const) {
		const run = await runCli([...args], {env: box.env});
		assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
		assert.match(run.stderr, message);
	}
});

test('a -p run loads none of the install code (nor execa)', async () => {
	const box = sandbox();
	const log = join(box.root, 'imports.log');
	mock.enqueue({text: 'ok'});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: {...box.env, NODE_OPTIONS: `--import=${importRecorder}`, I_TEST_IMPORT_LOG: log}, entry: unbundledCliPath});
	assert.equal(run.code, 0, run.stderr);
	const urls = readFileSync(log, 'utf8').split('\n');
	assert.ok(
		urls.some(url => url.includes('/core/agent/run-turn.js')),
		'the recorder saw the run',
	);
	const installCode =
		/\/source\/(?:runtime\/(?:install|uninstall|package)-command|core\/extensions\/(?:install-package|uninstall-package|run-npm|npm-prefix|package-spec|settings-packages|check-package))\.js$|\/node_modules\/execa\//;
	assert.deepEqual(
		urls.filter(url => installCode.test(url)),
		[],
	);
});
