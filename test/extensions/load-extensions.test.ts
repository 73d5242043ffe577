// The extension loader against real modules written to temp folders
// (spec/extensions.md §3, §8).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {loadExtensions, type LoadOptions} from '../../source/core/extensions/load-extensions.js';
import {BUNDLED_LISTED_IN, findExtensionSources, type ExtensionCandidate} from '../../source/core/extensions/sources.js';
import {MAX_SETTINGS_ENTRIES} from '../../source/core/extensions/settings-file.js';
import {checkExtensionTool, MAX_TOOL_DESCRIPTION_CHARS} from '../../source/core/extensions/check-tool.js';
import {nativeToolNames} from '../../source/core/tools/native-tool-names.js';

function tempDir(): string {
	return realpathSync(mkdtempSync(join(tmpdir(), 'i-ext-')));
}

/** Writes `name.mjs` holding `source` and returns its path. */
function writeExtension(dir: string, name: string, source: string): string {
	const path = join(dir, `${name}.mjs`);
	writeFileSync(path, source);
	return path;
}

const tool = (name: string) => `{name: '${name}', description: 'd', parameters: {type: 'object', properties: {}}, execute: () => ({output: 'ok'})}`;

function candidate(path: string, project = false): ExtensionCandidate {
	return {path, origin: project ? 'project-dir' : 'flag', project, listedIn: project ? '.i/extensions' : '--extension'};
}

const native = new Map(nativeToolNames.map(name => [name, 'the native tools']));
/** The repository's own provider package: the one a run of this checkout loads by default. */
const bundledPackage = fileURLToPath(new URL('../../../providers', import.meta.url));

async function load(candidates: ExtensionCandidate[], options: Partial<LoadOptions> = {}) {
	return loadExtensions({candidates, trusted: true, takenToolNames: native, ...options});
}

test('an extension registers a tool; the api says its version and the slots this host has', async () => {
	const dir = tempDir();
	const path = writeExtension(dir, 'hello', `export let seen; export default function register(api) { seen = {version: api.apiVersion, slots: Object.keys(api).sort()}; api.registerTool(${tool('hello')}); }`);
	const {extensions, reports} = await load([candidate(path)]);
	assert.deepEqual(reports, []);
	assert.equal(extensions.length, 1);
	assert.equal(extensions[0]!.name, 'hello');
	assert.deepEqual(
		extensions[0]!.tools.map(t => t.name),
		['hello'],
	);
	const module = (await import(path)) as {seen: {version: string; slots: string[]}};
	assert.equal(module.seen.version, '1.0');
	assert.deepEqual(module.seen.slots, [
		'ABORT',
		'apiVersion',
		'declare',
		'registerBeforeAgentStart',
		'registerCommand',
		'registerEntryRenderer',
		'registerEventHandler',
		'registerFlag',
		'registerMarkdownTransformer',
		'registerMessageRenderer',
		'registerOAuthProvider',
		'registerProvider',
		'registerResourcesDiscover',
		'registerStreamingProvider',
		'registerTool',
		'runtime',
	]);
});

test('a slot this host lacks is undefined: the extension degrades with its own message', async () => {
	const dir = tempDir();
	// A slot of a later contract this host does not have.
	const path = writeExtension(dir, 'needs-shortcuts', `export default function register(api) { if (!api.registerShortcut) throw new Error('this i cannot register shortcuts: upgrade i'); }`);
	const {extensions, reports} = await load([candidate(path)]);
	assert.deepEqual(extensions, []);
	assert.equal(reports.length, 1);
	assert.equal(reports[0]!.kind, 'failed');
	assert.match((reports[0] as {message: string}).message, /register failed: this i cannot register shortcuts: upgrade i/);
});

test('another API major is refused at load; the same major with another minor loads', async () => {
	const dir = tempDir();
	const old = writeExtension(dir, 'old', `export const apiVersion = '2'; export default function register(api) { api.registerTool(${tool('old_tool')}); }`);
	const minor = writeExtension(dir, 'minor', `export const apiVersion = '1.7'; export default function register(api) {}`);
	const {extensions, reports} = await load([candidate(old), candidate(minor)]);
	assert.deepEqual(
		extensions.map(e => e.name),
		['minor'],
	);
	assert.deepEqual(reports, [{kind: 'failed', path: old, listedIn: '--extension', message: 'is written for extension API 2; this i has API 1.0'}]);
});

test('a throwing register fails only its extension and withdraws what it registered', async () => {
	const dir = tempDir();
	const bad = writeExtension(dir, 'bad', `export default function register(api) { api.registerTool(${tool('half')}); throw new Error('boom'); }`);
	const good = writeExtension(dir, 'good', `export default async function register(api) { api.registerTool(${tool('half')}); }`);
	const {extensions, reports} = await load([candidate(bad), candidate(good)]);
	// The withdrawn tool's name is free again for the next extension.
	assert.deepEqual(
		extensions.map(e => [e.name, e.tools.map(t => t.name)]),
		[['good', ['half']]],
	);
	assert.deepEqual(reports, [{kind: 'failed', path: bad, listedIn: '--extension', message: 'register failed: boom'}]);
});

test('a register that never settles fails after its time, and a late registration is refused', async () => {
	const dir = tempDir();
	const path = writeExtension(
		dir,
		'slow',
		`export let late; export default function register(api) { setTimeout(() => { try { api.registerTool(${tool('late')}); late = 'accepted'; } catch (error) { late = error.message; } }, 150); return new Promise(() => {}); }`,
	);
	const {extensions, reports} = await load([candidate(path)], {registerTimeoutMs: 50});
	assert.deepEqual(extensions, []);
	assert.deepEqual(reports, [{kind: 'failed', path, listedIn: '--extension', message: 'register did not finish within 0.05 s'}]);
	await new Promise(resolve => setTimeout(resolve, 250));
	const module = (await import(path)) as {late: string};
	assert.match(module.late, /registerTool was called after register ended/);
});

test('a module that does not load, or exports no register, is reported with its path', async () => {
	const dir = tempDir();
	const broken = writeExtension(dir, 'broken', 'export default function register(api) {');
	const empty = writeExtension(dir, 'empty', 'export const nothing = 1;');
	const {reports} = await load([candidate(broken), candidate(empty), candidate(join(dir, 'missing.mjs'))]);
	assert.equal(reports.length, 3);
	assert.match((reports[0] as {message: string}).message, /^cannot be loaded: /);
	assert.match((reports[1] as {message: string}).message, /exports no register function/);
	assert.deepEqual(reports[2], {kind: 'failed', path: join(dir, 'missing.mjs'), listedIn: '--extension', message: 'no such file or folder'});
});

test('declare: larger priority first, ties keep load order; bad declarations fail the extension', async () => {
	const dir = tempDir();
	const paths = [
		writeExtension(dir, 'a', `export default api => api.declare({priority: 1})`),
		writeExtension(dir, 'b', `export default api => api.declare({priority: 60, platforms: ['linux', 'macos']})`),
		writeExtension(dir, 'c', `export default api => api.declare({priority: 1})`),
		writeExtension(dir, 'd', `export default api => {}`),
		writeExtension(dir, 'e', `export default api => api.declare({platforms: ['beos']})`),
		writeExtension(dir, 'f', `export default api => api.declare({priority: '9'})`),
	];
	const {extensions, reports} = await load(paths.map(path => candidate(path)));
	assert.deepEqual(
		extensions.map(e => [e.name, e.priority]),
		[
			['b', 60],
			['a', 1],
			['c', 1],
			['d', 0],
		],
	);
	assert.deepEqual(extensions[0]!.platforms, ['linux', 'macos']);
	assert.equal(extensions[1]!.platforms, undefined);
	assert.match((reports[0] as {message: string}).message, /platforms must be a list of "linux", "macos", "windows" \(got \["beos"\]\)/);
	assert.match((reports[1] as {message: string}).message, /priority must be a finite number \(got "9"\)/);
});

test("tool names: never a native tool, another extension's tool or an invalid name; the clash names both", async () => {
	const dir = tempDir();
	const first = writeExtension(dir, 'first', `export default api => api.registerTool(${tool('todo')})`);
	const second = writeExtension(dir, 'second', `export default api => api.registerTool(${tool('todo')})`);
	const shadow = writeExtension(dir, 'shadow', `export default api => api.registerTool(${tool('read')})`);
	const invalid = writeExtension(dir, 'invalid', `export default api => api.registerTool(${tool('no spaces')})`);
	const twice = writeExtension(dir, 'twice', `export default api => { api.registerTool(${tool('same')}); api.registerTool(${tool('same')}); }`);
	const {extensions, reports} = await load([first, second, shadow, invalid, twice].map(path => candidate(path)));
	assert.deepEqual(
		extensions.map(e => e.name),
		['first'],
	);
	const messages = reports.map(report => (report as {message: string}).message);
	assert.match(messages[0]!, new RegExp(`"todo" is taken by extension first \\(${first}\\)`));
	assert.match(messages[1]!, /"read" is taken by the native tools/);
	assert.match(messages[2]!, /name must be 1–64 ASCII letters, digits, "_" or "-" \(got "no spaces"\)/);
	assert.match(messages[3]!, /"same" is taken by extension twice/);
});

test('first found wins for a name; project code is skipped without trust', async () => {
	const dir = tempDir();
	mkdirSync(join(dir, 'one'));
	mkdirSync(join(dir, 'two'));
	const a = writeExtension(join(dir, 'one'), 'same', 'export default api => {}');
	const b = writeExtension(join(dir, 'two'), 'same', 'export default api => {}');
	const project = writeExtension(dir, 'project', 'export default api => {}');
	const {extensions, reports} = await load([candidate(a), candidate(b), candidate(project, true)], {trusted: false});
	assert.deepEqual(
		extensions.map(e => e.file),
		[a],
	);
	assert.deepEqual(reports, [
		{kind: 'shadowed', path: b, listedIn: '--extension', name: 'same', by: a},
		{kind: 'skipped-untrusted', path: project, listedIn: '.i/extensions'},
	]);
});

test('a package folder loads its exports entry; TypeScript entries are refused with the fix', async () => {
	const dir = tempDir();
	const pkg = join(dir, 'pkg');
	mkdirSync(join(pkg, 'dist'), {recursive: true});
	writeFileSync(join(pkg, 'package.json'), JSON.stringify({name: 'my-ext', type: 'module', exports: {'.': {import: './dist/index.js'}}}));
	writeFileSync(join(pkg, 'dist', 'index.js'), `export default api => api.registerTool(${tool('pkg_tool')})`);
	const ts = join(dir, 'ts');
	mkdirSync(ts);
	writeFileSync(join(ts, 'package.json'), JSON.stringify({name: 'ts-ext', main: 'index.ts'}));
	writeFileSync(join(ts, 'index.ts'), 'export default () => {}');
	const unbuilt = join(dir, 'unbuilt');
	mkdirSync(unbuilt);
	writeFileSync(join(unbuilt, 'package.json'), JSON.stringify({name: 'unbuilt', main: 'dist/index.js'}));
	const {extensions, reports} = await load([candidate(pkg), candidate(ts), candidate(unbuilt)]);
	assert.deepEqual(
		extensions.map(e => [e.name, e.file]),
		[['my-ext', join(pkg, 'dist', 'index.js')]],
	);
	assert.match((reports[0] as {message: string}).message, /index\.ts is source code; i loads built JavaScript only: build it first/);
	assert.match((reports[1] as {message: string}).message, /names dist\/index\.js as its entry, which does not exist; build the package first/);
});

test('sources in the documented order; settings paths against their own folder; hidden entries skipped', async () => {
	const root = tempDir();
	const workspace = join(root, 'ws');
	const configDir = join(root, 'config');
	for (const dir of ['flagdir', 'envdir', 'ws/.i/extensions/.dev', 'ws/.i/more', 'config/global-dir']) mkdirSync(join(root, dir), {recursive: true});
	const flag = writeExtension(root, 'flag', '');
	const inFlagDir = writeExtension(join(root, 'flagdir'), 'x', '');
	const inEnvDir = writeExtension(join(root, 'envdir'), 'y', '');
	const projectMore = writeExtension(join(workspace, '.i', 'more'), 'z', '');
	const projectPackage = writeExtension(join(workspace, '.i'), 'single', '');
	const projectDir = writeExtension(join(workspace, '.i', 'extensions'), 'w', '');
	writeExtension(join(workspace, '.i', 'extensions', '.dev'), 'hidden', '');
	writeFileSync(join(workspace, '.i', 'extensions', 'README.md'), 'not an extension');
	const globalDir = writeExtension(join(configDir, 'global-dir'), 'v', '');
	writeFileSync(join(workspace, '.i', 'settings.json'), JSON.stringify({extensionDirs: ['more'], extensions: ['./single.mjs'], mcpServers: {}}));
	writeFileSync(join(configDir, 'settings.json'), JSON.stringify({extensionDirs: ['global-dir'], packages: ['some-package']}));
	const {candidates, settings} = await findExtensionSources({
		extensions: ['flag.mjs'],
		extensionDirs: ['flagdir'],
		workspace,
		configDir,
		cwd: root,
		env: {I_EXTENSIONS_DIR: `${join(root, 'envdir')}:${join(root, 'absent')}`},
	});
	assert.deepEqual(
		candidates.map(c => [c.path, c.origin, c.project]),
		[
			[flag, 'flag', false],
			[inFlagDir, 'flag-dir', false],
			[inEnvDir, 'env', false],
			[projectMore, 'project-settings', true],
			[projectPackage, 'project-settings', true],
			[projectDir, 'project-dir', true],
			[globalDir, 'global-settings', false],
			[join(configDir, 'npm', 'node_modules', 'some-package'), 'global-settings', false],
			// Last, after every source the person names: the provider package that ships with i.
			[bundledPackage, 'bundled', false],
		],
	);
	assert.deepEqual([settings.project?.path, settings.global?.path], [join(workspace, '.i', 'settings.json'), join(configDir, 'settings.json')]);
});

test('the provider package: found inside i, listed last without trust; "providerPackage": false in either settings file removes it, the project’s word first', async () => {
	const root = tempDir();
	const workspace = join(root, 'ws');
	const configDir = join(root, 'config');
	mkdirSync(join(workspace, '.i'), {recursive: true});
	mkdirSync(configDir);
	const sources = async () => (await findExtensionSources({workspace, configDir})).candidates.map(c => [c.path, c.origin, c.project, c.listedIn]);
	assert.deepEqual(await sources(), [[bundledPackage, 'bundled', false, BUNDLED_LISTED_IN]]);
	writeFileSync(join(configDir, 'settings.json'), JSON.stringify({providerPackage: false}));
	assert.deepEqual(await sources(), []);
	writeFileSync(join(workspace, '.i', 'settings.json'), JSON.stringify({providerPackage: true}));
	assert.deepEqual((await sources()).length, 1);
	// i dev-local loads no other extension, this one neither.
	assert.deepEqual((await findExtensionSources({workspace, configDir: join(root, 'other'), localOnly: true, extensions: []})).candidates, []);
	writeFileSync(join(workspace, '.i', 'settings.json'), JSON.stringify({providerPackage: 'no'}));
	await assert.rejects(findExtensionSources({workspace, configDir}), /field "providerPackage": Invalid input: expected boolean/);
});

test('localOnly (i dev-local): only --extension paths, and of the settings only the project file', async () => {
	const root = tempDir();
	const workspace = join(root, 'ws');
	const configDir = join(root, 'config');
	for (const dir of ['flagdir', 'envdir', 'ws/.i/extensions', 'ws/.i/more', 'config/global-dir']) mkdirSync(join(root, dir), {recursive: true});
	const flag = writeExtension(root, 'flag', '');
	writeExtension(join(root, 'flagdir'), 'x', '');
	writeExtension(join(root, 'envdir'), 'y', '');
	writeExtension(join(workspace, '.i', 'more'), 'z', '');
	writeExtension(join(workspace, '.i', 'extensions'), 'w', '');
	writeExtension(join(configDir, 'global-dir'), 'v', '');
	writeFileSync(join(workspace, '.i', 'settings.json'), JSON.stringify({extensionDirs: ['more'], packages: ['some-package'], skillDirs: ['team-skills']}));
	writeFileSync(join(configDir, 'settings.json'), JSON.stringify({extensionDirs: ['global-dir']}));
	const options = {extensions: ['flag.mjs'], extensionDirs: ['flagdir'], workspace, configDir, cwd: root, env: {I_EXTENSIONS_DIR: join(root, 'envdir')}, bundled: null};
	const everything = await findExtensionSources(options);
	assert.equal(everything.candidates.length, 7, 'without localOnly every source is listed');
	const local = await findExtensionSources({...options, localOnly: true});
	assert.deepEqual(
		local.candidates.map(c => [c.path, c.origin]),
		[[flag, 'flag']],
	);
	assert.deepEqual([local.settings.project?.path, local.settings.project?.skillDirs], [join(workspace, '.i', 'settings.json'), [join(workspace, '.i', 'team-skills')]]);
	assert.equal(local.settings.global, undefined);
	// A broken global settings file is not even read.
	writeFileSync(join(configDir, 'settings.json'), '{');
	assert.equal((await findExtensionSources({...options, localOnly: true})).candidates.length, 1);
	await assert.rejects(findExtensionSources(options), /not valid JSON/);
});

test('a broken settings file is an error naming the file and the field', async () => {
	const root = tempDir();
	mkdirSync(join(root, '.i'));
	writeFileSync(join(root, '.i', 'settings.json'), JSON.stringify({extensionDirs: 'not-a-list'}));
	await assert.rejects(findExtensionSources({workspace: root, configDir: join(root, 'config')}), (error: Error) => {
		assert.match(error.message, new RegExp(`settings ${join(root, '.i', 'settings.json')}: field "extensionDirs": `));
		return true;
	});
	writeFileSync(join(root, '.i', 'settings.json'), '{"extensions": [');
	await assert.rejects(findExtensionSources({workspace: root, configDir: join(root, 'config')}), /not valid JSON/);
});

test('a settings list holds 256 entries; one more is refused naming the field', async () => {
	const root = tempDir();
	mkdirSync(join(root, '.i'));
	const settings = join(root, '.i', 'settings.json');
	const entries = (count: number) => Array.from({length: count}, (_value, index) => `./missing-${index}`);
	writeFileSync(settings, JSON.stringify({extensionDirs: entries(MAX_SETTINGS_ENTRIES)}));
	// Folders that do not exist are skipped: the list itself was taken.
	assert.deepEqual((await findExtensionSources({workspace: root, configDir: join(root, 'config'), bundled: null})).candidates, []);
	writeFileSync(settings, JSON.stringify({extensionDirs: entries(MAX_SETTINGS_ENTRIES + 1)}));
	await assert.rejects(findExtensionSources({workspace: root, configDir: join(root, 'config')}), /field "extensionDirs": at most 256 entries/);
});

test('a tool description of 8192 characters is taken; one more is refused', () => {
	const base = {name: 'long', parameters: {type: 'object'}, execute: () => ({output: ''})};
	assert.equal(checkExtensionTool({...base, description: 'd'.repeat(MAX_TOOL_DESCRIPTION_CHARS)}).description.length, MAX_TOOL_DESCRIPTION_CHARS);
	assert.throws(() => checkExtensionTool({...base, description: 'd'.repeat(MAX_TOOL_DESCRIPTION_CHARS + 1)}), /registerTool "long": description is over 8192 characters/);
});

test('without a command line (the core API) an extension flag has its default, and a flag another extension registered reads the same', async () => {
	const dir = tempDir();
	const first = writeExtension(dir, 'first', `export let seen; export default api => { api.registerFlag('mode', {type: 'string', default: 'slow', description: 'm'}); seen = api.runtime.getCliFlag('mode'); };`);
	const second = writeExtension(dir, 'second', `export let seen; export default api => { seen = [api.runtime.getCliFlag('mode'), api.runtime.getCliFlag('nobody')]; };`);
	const {extensions, reports} = await load([candidate(first), candidate(second)]);
	assert.deepEqual(reports, []);
	assert.deepEqual([...extensions[0]!.flags], [['mode', {type: 'string', default: 'slow', description: 'm'}]]);
	assert.equal(((await import(first)) as {seen: unknown}).seen, 'slow');
	assert.deepEqual(((await import(second)) as {seen: unknown}).seen, ['slow', undefined]);
});

test("registerCommand: a chat-screen command per name, never a built-in's or another extension's; a bad name or spec fails the extension", async () => {
	const dir = tempDir();
	const good = writeExtension(dir, 'good', `export default api => { api.registerCommand('todo', {description: 'the list', handler: () => 'x'}); api.registerMarkdownTransformer(({text}) => ({text})); };`);
	const again = writeExtension(dir, 'again', `export default api => api.registerCommand('todo', {description: 'mine', handler: () => 'y'});`);
	const builtin = writeExtension(dir, 'builtin', `export default api => api.registerCommand('help', {description: 'mine', handler: () => 'y'});`);
	const slashed = writeExtension(dir, 'slashed', `export default api => api.registerCommand('/go', {description: 'go', handler: () => 'y'});`);
	const twoLines = writeExtension(dir, 'twolines', `export default api => api.registerCommand('go', {description: 'a\\nb', handler: () => 'y'});`);
	const noHandler = writeExtension(dir, 'nohandler', `export default api => api.registerCommand('go', {description: 'go'});`);
	const {extensions, reports} = await load([good, again, builtin, slashed, twoLines, noHandler].map(path => candidate(path)));
	assert.deepEqual(
		extensions.map(extension => [extension.name, [...extension.commands.keys()], extension.markdownTransformers.length]),
		[['good', ['todo'], 1]],
	);
	const messages = reports.map(report => (report.kind === 'failed' ? report.message : report.kind));
	assert.match(messages[0]!, /\/todo is taken by extension good/);
	assert.match(messages[1]!, /\/help is taken by the chat screen/);
	assert.match(messages[2]!, /without the leading \//);
	assert.match(messages[3]!, /description must be one line/);
	assert.match(messages[4]!, /handler must be a function/);
});

test('settings short form "extensions": a folder of extensions is read as extensionDirs; a file, a package folder and an npm name as single extensions', async () => {
	const root = tempDir();
	const workspace = join(root, 'ws');
	const configDir = join(root, 'config');
	for (const dir of ['ws/.i/team', 'ws/.i/pkg']) mkdirSync(join(root, dir), {recursive: true});
	const inFolder = writeExtension(join(workspace, '.i', 'team'), 'a', '');
	const single = writeExtension(join(workspace, '.i'), 'single', '');
	writeFileSync(join(workspace, '.i', 'pkg', 'package.json'), JSON.stringify({name: 'pkg', main: 'index.mjs'}));
	writeFileSync(join(workspace, '.i', 'pkg', 'index.mjs'), '');
	writeFileSync(join(workspace, '.i', 'settings.json'), JSON.stringify({extensions: ['team', './single.mjs', './pkg', 'an-npm-name']}));
	mkdirSync(configDir);
	const {candidates, settings} = await findExtensionSources({workspace, configDir, cwd: root, env: {}});
	assert.deepEqual(settings.project?.extensionDirs, [join(workspace, '.i', 'team')]);
	assert.deepEqual(settings.project?.packages, [single, join(workspace, '.i', 'pkg'), join(workspace, '.i', 'npm', 'node_modules', 'an-npm-name')]);
	const paths = candidates.filter(c => c.project).map(c => c.path);
	assert.ok(paths.includes(inFolder) && paths.includes(single), paths.join(', '));
});
