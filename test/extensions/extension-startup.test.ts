// An extension start in its steps (source/core/session/start-extensions.ts):
// the extensions that need no trust first, their ProjectTrust gate, then the
// project's code; against real modules and real trust files in temp folders
// (spec/extensions.md §8, §5).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {findWorkspaceId, workspaceStateDir} from '../../source/core/config/workspace-registry.js';
import {readTrust, writeTrust} from '../../source/core/extensions/project-trust.js';
import {nativeToolNames} from '../../source/core/tools/native-tool-names.js';
import type {TrustQuestion} from '../../source/core/session/decide-trust.js';
import {ExtensionStartup, type ExtensionOptions} from '../../source/core/session/start-extensions.js';

interface Place {
	workspace: string;
	dirs: PlatformDirs;
	/** Extensions the person listed (needs no trust), by `--extensions-dir`. */
	userDir: string;
	projectDir: string;
}

function place(): Place {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-ext-start-')));
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	const workspace = join(root, 'workspace');
	const userDir = join(root, 'user');
	const projectDir = join(workspace, '.i', 'extensions');
	for (const dir of [dirs.config_dir, userDir, projectDir]) mkdirSync(dir, {recursive: true});
	return {workspace, dirs, userDir, projectDir};
}

const tool = (name: string) => `{name: '${name}', description: 'd', parameters: {type: 'object'}, execute: () => ({output: 'ok'})}`;

/** A project extension registering the tool `project_tool`. */
function projectExtension(at: Place, name = 'project'): string {
	const path = join(at.projectDir, `${name}.mjs`);
	writeFileSync(path, `export default api => api.registerTool(${tool(`${name}_tool`)});`);
	return path;
}

/** A user extension whose ProjectTrust handler is `answer` (a JavaScript expression over `event`). */
function trustGate(at: Place, name: string, answer: string): void {
	writeFileSync(join(at.userDir, `${name}.mjs`), `export default api => api.registerEventHandler('ProjectTrust', event => ${answer});`);
}

async function start(at: Place, options: ExtensionOptions = {}) {
	const reports: string[] = [];
	const startup = await ExtensionStartup.find({extensionDirs: [at.userDir], ...options}, {workspace: at.workspace, dirs: at.dirs});
	const started = await startup.start({takenToolNames: new Map(nativeToolNames.map(name => [name, 'a native tool'])), report: message => reports.push(message)});
	return {...started, reports, toolNames: started.tools.map(item => item.name)};
}

async function remembered(at: Place) {
	const id = await findWorkspaceId(at.workspace, at.dirs);
	return id === undefined ? undefined : readTrust(workspaceStateDir(at.dirs, id));
}

async function remember(at: Place, trusted: boolean) {
	const {workspaceId} = await import('../../source/core/config/workspace-registry.js');
	await writeTrust(workspaceStateDir(at.dirs, await workspaceId(at.workspace, at.dirs)), trusted, 'user');
}

test('ProjectTrust is asked with what would run and what was decided before; a throwing gate decides nothing, so the person is asked', async () => {
	const at = place();
	const path = projectExtension(at);
	writeFileSync(join(at.userDir, 'seen.mjs'), `export default api => api.registerEventHandler('ProjectTrust', event => { globalThis.seenTrustEvent = event; });`);
	trustGate(at, 'throws', `{ throw new Error('policy bug'); }`);
	const questions: TrustQuestion[] = [];
	const result = await start(at, {
		askTrust: async question => {
			questions.push(question);
			return true;
		},
	});
	assert.deepEqual((globalThis as {seenTrustEvent?: unknown}).seenTrustEvent, {workspace: at.workspace, extensions: [path], remembered: null, trustProject: false});
	assert.deepEqual(result.reports, ['extension throws: ProjectTrust handler failed: policy bug; it decides nothing']);
	assert.equal(questions.length, 1);
	assert.deepEqual({...questions[0], rememberedIn: undefined}, {workspace: at.workspace, extensions: [path], mcpServers: [], allowRules: [], sandboxSettings: [], modelEndpoints: [], rememberedIn: undefined});
	assert.match(questions[0]!.rememberedIn, /trust\.json$/);
	assert.ok(result.toolNames.includes('project_tool'));
	assert.equal((await remembered(at))?.trusted, true);
	assert.equal((await remembered(at))?.by, 'user');
});

test('a gate that refuses wins over --trust-project, over an earlier yes and over another gate that trusts; the warning names it', async () => {
	for (const order of [
		['allows', 'refuses'],
		['refuses', 'allows'],
	]) {
		const at = place();
		projectExtension(at);
		// Load order is by file name: a-…, b-….
		trustGate(at, `a-${order[0]}`, order[0] === 'allows' ? '({trusted: true})' : `({trusted: false, reason: 'not on the company disk'})`);
		trustGate(at, `b-${order[1]}`, order[1] === 'allows' ? '({trusted: true})' : `({trusted: false, reason: 'not on the company disk'})`);
		await remember(at, true);
		const result = await start(at, {trustProject: true, askTrust: async () => assert.fail('a refusal by an extension is not asked about')});
		assert.ok(!result.toolNames.includes('project_tool'), order.join(' then '));
		const refuser = order[0] === 'refuses' ? 'a-refuses' : 'b-refuses';
		assert.match(result.warnings.join('\n'), new RegExp(`its own extension was skipped: .*project\\.mjs; extension ${refuser} refused it \\(ProjectTrust: not on the company disk\\)`));
	}
});

test('a gate that trusts a workspace nobody decided for loads its code for this run, without asking and without remembering', async () => {
	const at = place();
	projectExtension(at);
	trustGate(at, 'company', `({trusted: event.workspace.endsWith('/workspace'), reason: 'a company checkout'})`);
	const result = await start(at, {askTrust: async () => assert.fail('decided by the extension')});
	assert.ok(result.toolNames.includes('project_tool'));
	assert.match(result.warnings.join('\n'), /extension company trusted the workspace .* for this run \(ProjectTrust: a company checkout\), so its own extensions load: .*project\.mjs/);
	assert.equal(await remembered(at), undefined);
	// Headless the same.
	assert.ok((await start(at)).toolNames.includes('project_tool'));
});

test("a gate's yes never turns a person's remembered no into trust", async () => {
	const at = place();
	projectExtension(at);
	trustGate(at, 'trusts-all', '({trusted: true})');
	await remember(at, false);
	const result = await start(at, {askTrust: async () => assert.fail('remembered')});
	assert.ok(!result.toolNames.includes('project_tool'));
	assert.match(result.warnings.join('\n'), /it was not trusted when asked; pass --trust-project to load it, or delete .*trust\.json to be asked again/);
});

test('an answer of the wrong shape is a failing gate: undecided, and said', async () => {
	const at = place();
	projectExtension(at);
	trustGate(at, 'sloppy', `({trusted: 'yes'})`);
	const result = await start(at);
	assert.deepEqual(result.reports, ['extension sloppy: ProjectTrust handler answered "trusted" must be true or false; it decides nothing']);
	assert.match(result.warnings.join('\n'), /not trusted, so its own extension was skipped: .*; pass --trust-project to load it/);
});

test('the first step loads what needs no question; the project code waits for the answer, its handlers join the same bus', async () => {
	const at = place();
	writeFileSync(join(at.projectDir, 'late.mjs'), `export default api => api.registerEventHandler('UiPromptEnd', event => { globalThis.lateSaw = event; });`);
	writeFileSync(join(at.userDir, 'early.mjs'), `export default api => { api.registerEventHandler('BeforeTuiStart', () => {}); api.registerEventHandler('UiPromptEnd', () => {}); };`);
	let answer!: (trusted: boolean) => void;
	const startup = await ExtensionStartup.find({extensionDirs: [at.userDir], askTrust: async () => new Promise<boolean>(resolve => (answer = resolve))}, {workspace: at.workspace, dirs: at.dirs});
	const context = {takenToolNames: new Map<string, string>(), report: () => {}};
	await startup.loadFirst(context);
	const first = startup.events!;
	assert.ok(first.has('BeforeTuiStart'));
	const started = startup.start(context);
	await new Promise(resolve => setTimeout(resolve, 50));
	answer(true);
	const {events} = await started;
	assert.notEqual(events, first);
	events!.observe('UiPromptEnd', {id: 'x'});
	await events!.drained();
	assert.deepEqual((globalThis as {lateSaw?: unknown}).lateSaw, {id: 'x'});
});

test('a trusted project extension wins over a global one of its name, which loads when the project is not trusted; priority ties keep the listed order', async () => {
	for (const trusted of [true, false]) {
		const at = place();
		const globalDir = join(at.dirs.config_dir, 'global-extensions');
		mkdirSync(globalDir);
		writeFileSync(join(at.dirs.config_dir, 'settings.json'), JSON.stringify({extensionDirs: ['global-extensions']}));
		writeFileSync(join(globalDir, 'same.mjs'), `export default api => api.registerTool(${tool('global_same')});`);
		writeFileSync(join(globalDir, 'zz-global.mjs'), `export default api => api.registerTool(${tool('global_other')});`);
		writeFileSync(join(at.projectDir, 'same.mjs'), `export default api => api.registerTool(${tool('project_same')});`);
		writeFileSync(join(at.userDir, 'user.mjs'), `export default api => api.registerTool(${tool('user_tool')});`);
		const result = await start(at, {trustProject: trusted});
		assert.deepEqual(result.toolNames, trusted ? ['user_tool', 'project_same', 'global_other'] : ['user_tool', 'global_same', 'global_other']);
		if (trusted) assert.match(result.warnings.join('\n'), /same\.mjs \(from settings .*\) was not loaded: an extension named "same" loaded first from .*workspace\/\.i\/extensions\/same\.mjs/);
	}
});

test('a project extension loaded after the question cannot take a slash command of one loaded before it; the commands reach the result', async () => {
	const at = place();
	const command = (name: string) => `api.registerCommand('${name}', {description: 'd', handler: () => {}})`;
	writeFileSync(join(at.userDir, 'user.mjs'), `export default api => { ${command('deploy')}; };`);
	const project = join(at.projectDir, 'proj.mjs');
	writeFileSync(project, `export default api => { ${command('deploy')}; };`);
	writeFileSync(join(at.projectDir, 'other.mjs'), `export default api => { ${command('lint')}; };`);
	const result = await start(at, {trustProject: true});
	assert.deepEqual([...result.ui.commands.keys()].sort(), ['deploy', 'lint']);
	assert.equal(result.ui.commands.get('deploy')!.extension, 'user');
	assert.match(result.warnings.join('\n'), new RegExp(`${project} \\(from .*\\) was not loaded: register failed: registerCommand: /deploy is taken by extension user`));
});

test("i dev's build stands in for the other copies of its package, at the start and at each reload; a package of another name still loads", async () => {
	const at = place();
	const copy = (folder: string, name: string, output: string) => {
		mkdirSync(folder, {recursive: true});
		writeFileSync(join(folder, 'package.json'), JSON.stringify({name, type: 'module', main: 'index.js'}));
		writeFileSync(join(folder, 'index.js'), `export default api => api.registerTool({name: 'hello', description: 'd', parameters: {type: 'object'}, execute: () => ({output: '${output}'})});`);
		return folder;
	};
	const build = copy(join(at.projectDir, '.dev', 'hello-ext-1'), 'hello-ext', 'the build');
	copy(join(at.projectDir, 'hello-ext'), 'hello-ext', 'the project copy');
	copy(join(at.userDir, 'hello-ext'), 'hello-ext', 'the user copy');
	writeFileSync(join(at.userDir, 'other.mjs'), `export default api => api.registerTool(${tool('other_tool')});`);
	for (const generation of [0, 1]) {
		const startup = await ExtensionStartup.find({extensionDirs: [at.userDir], extensions: [build], trustProject: true, dev: {name: 'hello-ext'}}, {workspace: at.workspace, dirs: at.dirs}, generation);
		const started = await startup.start({takenToolNames: new Map(nativeToolNames.map(name => [name, 'a native tool'])), report: message => assert.fail(message)});
		assert.deepEqual(started.warnings, [], `generation ${generation}`);
		assert.deepEqual(
			startup.outcome.extensions.filter(extension => extension.candidate.origin !== 'bundled').map(extension => extension.candidate.path),
			[build, join(at.userDir, 'other.mjs')],
		);
	}

	// Without i dev the same copies are found, and all but the first are reported.
	const plain = await start(at, {extensions: [build], trustProject: true});
	assert.equal(plain.warnings.filter(warning => warning.includes('an extension named "hello-ext" loaded first')).length, 2, plain.warnings.join('\n'));
});
