// `i extensions` tells the truth about a run (issue 47 point 10): for each
// case the listing and a real `-p` run in the same workspace agree on which
// extension tools exist, and each extension the listing says was not loaded
// is one the run warned about, for the same reason.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';
import {nativeToolNames} from '../../source/core/tools/native-tool-names.js';
import {workspaceId, workspaceStateDir} from '../../source/core/config/workspace-registry.js';
import {writeTrust} from '../../source/core/extensions/project-trust.js';

/** The provider package that ships with i: this checkout's. */
const shippedProviders = fileURLToPath(new URL('../../../providers', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const toolExtension = (tool: string) => `export default api => api.registerTool({name: '${tool}', description: 'd', parameters: {type: 'object'}, execute: () => ({output: 'ok'})});\n`;

interface Place {
	box: Sandbox;
	env: NodeJS.ProcessEnv;
	/** The project's `.i/extensions/proj.mjs`, registering `proj_tool`. */
	project: string;
	/** The person's own extensions (I_EXTENSIONS_DIR): need no trust. */
	userDir: string;
}

function place(): Place {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	// The provider package that ships with i adds no tool, but its absence keeps the listing to what the test wrote.
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({providerPackage: false}));
	const projectDir = join(box.workspace, '.i', 'extensions');
	mkdirSync(projectDir, {recursive: true});
	const project = join(projectDir, 'proj.mjs');
	writeFileSync(project, toolExtension('proj_tool'));
	const userDir = join(box.root, 'user');
	mkdirSync(userDir);
	return {box, env: {...box.env, I_EXTENSIONS_DIR: userDir}, project, userDir};
}

interface Listed {
	loaded: Array<{name: string; path: string; tools: string[]}>;
	notLoaded: Array<{path: string; from: string; why: string; reason: string}>;
	notes: string[];
}

/** The listing and a -p run with the same flags: what each says; the provider package turned off in the settings is left out of the listing's refusals. */
async function both(at: Place, flags: string[] = []) {
	const listing = await runCli(['extensions', '--json', '-C', at.box.workspace, ...flags], {env: at.env});
	assert.equal(listing.code, 0, listing.stderr);
	mock.enqueue({text: 'Done.'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', at.box.workspace, ...flags], {env: at.env});
	assert.equal(run.code, 0, run.stderr);
	const offered: string[] = mock.requests[sent]!.body.tools.map((tool: any) => tool.function.name);
	const listed = JSON.parse(listing.stdout) as Listed;
	listed.notLoaded = listed.notLoaded.filter(item => !item.from.startsWith('i itself'));
	return {listed, run, extensionTools: offered.filter(name => !(nativeToolNames as readonly string[]).includes(name)).sort()};
}

/** The agreement itself: the same extension tools, and every extension not loaded is named in the run's warnings with the listing's reason. */
function assertAgree({listed, run, extensionTools}: Awaited<ReturnType<typeof both>>) {
	assert.deepEqual(listed.loaded.flatMap(extension => extension.tools).sort(), extensionTools, 'the tools a run offers are those of the extensions listed as loaded');
	// A package turned off in the settings is no problem a run warns about.
	for (const item of listed.notLoaded.filter(entry => entry.why !== 'disabled')) {
		assert.ok(run.stderr.includes(item.path), `the run names ${item.path}:\n${run.stderr}`);
		// The listing's reason, less its opening clause, is the run's own wording.
		const words = item.why === 'untrusted' ? item.reason.slice(item.reason.indexOf(': ') + 2) : item.reason;
		assert.ok(run.stderr.includes(words), `the run says "${words}":\n${run.stderr}`);
	}
}

test('an untrusted workspace: the project extension is refused by both, naming the untrusted workspace', async () => {
	const at = place();
	const seen = await both(at);
	assertAgree(seen);
	assert.deepEqual(seen.extensionTools, []);
	assert.deepEqual(seen.listed.notLoaded, [
		{path: at.project, from: join(at.box.workspace, '.i', 'extensions'), why: 'untrusted', reason: `project code, and the workspace ${at.box.workspace} is not trusted: pass --trust-project to load it`},
	]);
});

test('a trusted workspace (--trust-project): loaded by both', async () => {
	const at = place();
	const seen = await both(at, ['--trust-project']);
	assertAgree(seen);
	assert.deepEqual(seen.extensionTools, ['proj_tool']);
	assert.deepEqual(seen.listed.notLoaded, []);
});

test("a workspace trusted by an earlier answer (the chat screen's, remembered): loaded by both; a remembered no refuses in both, naming the file", async () => {
	for (const trusted of [true, false]) {
		const at = place();
		const dirs = {config_dir: at.box.configDir, data_dir: at.box.env.I_DATA_DIR!, cache_dir: at.box.env.I_CACHE_DIR!, runtime_dir: at.box.env.I_RUNTIME_DIR!};
		const stateDir = workspaceStateDir(dirs, await workspaceId(at.box.workspace, dirs));
		await writeTrust(stateDir, trusted, 'user');
		const seen = await both(at);
		assertAgree(seen);
		assert.deepEqual(seen.extensionTools, trusted ? ['proj_tool'] : []);
		if (!trusted) assert.match(seen.listed.notLoaded[0]!.reason, new RegExp(`it was not trusted when asked; pass --trust-project to load it, or delete ${stateDir}/trust\\.json to be asked again$`));
	}
});

test("a ProjectTrust handler's refusal wins over --trust-project in the listing as in the run; its yes trusts an undecided workspace in both", async () => {
	const refusing = place();
	writeFileSync(join(refusing.userDir, 'policy.mjs'), `export default api => api.registerEventHandler('ProjectTrust', () => ({trusted: false, reason: 'not on the list'}));\n`);
	const refused = await both(refusing, ['--trust-project']);
	assertAgree(refused);
	assert.deepEqual(refused.extensionTools, []);
	assert.deepEqual(
		refused.listed.notLoaded.map(item => [item.path, item.why]),
		[[refusing.project, 'untrusted']],
	);
	assert.match(refused.listed.notLoaded[0]!.reason, /extension policy refused it \(ProjectTrust: not on the list\), which neither --trust-project nor an earlier yes overrides$/);

	const allowing = place();
	writeFileSync(join(allowing.userDir, 'policy.mjs'), `export default api => api.registerEventHandler('ProjectTrust', () => ({trusted: true, reason: 'known'}));\n`);
	const allowed = await both(allowing);
	assertAgree(allowed);
	assert.deepEqual(allowed.extensionTools, ['proj_tool']);
	assert.deepEqual(allowed.listed.notes, [`extension policy trusted the workspace ${allowing.box.workspace} for this run (ProjectTrust: known), so its own extensions load: ${allowing.project}`]);
});

test('an extension that fails to load is listed with its error, as the run reports it; the others load in both', async () => {
	const at = place();
	writeFileSync(join(at.userDir, 'broken.mjs'), 'export default function register() { throw new Error("boom at register"); }\n');
	writeFileSync(join(at.userDir, 'fine.mjs'), toolExtension('fine_tool'));
	const seen = await both(at, ['--trust-project']);
	assertAgree(seen);
	assert.deepEqual(seen.extensionTools, ['fine_tool', 'proj_tool']);
	assert.deepEqual(seen.listed.notLoaded, [{path: join(at.userDir, 'broken.mjs'), from: 'I_EXTENSIONS_DIR', why: 'failed', reason: 'register failed: boom at register'}]);
});

test("load order as a run's: an extension of the global settings takes a tool name before the trusted project's own, which then fails in both", async () => {
	const at = place();
	const globalDir = join(at.box.root, 'global-extensions');
	mkdirSync(globalDir);
	writeFileSync(join(globalDir, 'mine.mjs'), toolExtension('proj_tool'));
	writeFileSync(join(at.box.configDir, 'settings.json'), JSON.stringify({providerPackage: false, extensionDirs: [globalDir]}));
	const seen = await both(at, ['--trust-project']);
	assertAgree(seen);
	assert.deepEqual(
		seen.listed.loaded.map(extension => extension.path),
		[join(globalDir, 'mine.mjs')],
	);
	assert.deepEqual(
		seen.listed.notLoaded.map(item => [item.path, item.why]),
		[[at.project, 'failed']],
	);
	assert.match(seen.listed.notLoaded[0]!.reason, /proj_tool/);
});

test('--no-extensions: nothing loads in either, and the listing names each extension as disabled', async () => {
	const at = place();
	writeFileSync(join(at.userDir, 'fine.mjs'), toolExtension('fine_tool'));
	const seen = await both(at, ['--no-extensions']);
	assert.deepEqual(seen.extensionTools, []);
	assert.deepEqual(seen.listed.loaded, []);
	assert.deepEqual(
		seen.listed.notLoaded.map(item => [item.path, item.why, item.reason]),
		[
			[join(at.userDir, 'fine.mjs'), 'disabled', '--no-extensions: no extension loads'],
			[at.project, 'disabled', '--no-extensions: no extension loads'],
		],
	);
});

test('a worker tool takes its name before any extension, in the listing as in the run', async () => {
	const at = place();
	const manifest = join(at.box.configDir, 'tools.json');
	writeFileSync(manifest, JSON.stringify({tools: [{name: 'worker_tool', description: 'd', parameters: {type: 'object'}, exec: [process.execPath, 'never-started.mjs']}]}));
	at.box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: [manifest]});
	writeFileSync(join(at.userDir, 'clash.mjs'), toolExtension('worker_tool'));
	const seen = await both(at);
	assertAgree({...seen, extensionTools: seen.extensionTools.filter(name => name !== 'worker_tool')});
	assert.deepEqual(
		seen.listed.notLoaded.map(item => [item.path, item.why]),
		[
			[join(at.userDir, 'clash.mjs'), 'failed'],
			[at.project, 'untrusted'],
		],
	);
	assert.match(seen.listed.notLoaded[0]!.reason, /worker_tool/);
});

test('the text form says loaded, or refused and why', async () => {
	const at = place();
	writeFileSync(join(at.userDir, 'fine.mjs'), toolExtension('fine_tool'));
	const listing = await runCli(['extensions', '-C', at.box.workspace], {env: at.env});
	assert.equal(listing.code, 0, listing.stderr);
	assert.equal(
		listing.stdout,
		[
			`fine  ${join(at.userDir, 'fine.mjs')}`,
			'  loaded from I_EXTENSIONS_DIR; priority 0',
			'  tools: fine_tool',
			'  events: none',
			'',
			'not loaded:',
			`  ${at.project} (from ${join(at.box.workspace, '.i', 'extensions')})`,
			`    refused, untrusted workspace: project code, and the workspace ${at.box.workspace} is not trusted: pass --trust-project to load it`,
			`  ${shippedProviders} (from i itself (the provider package; "providerPackage": false in settings.json removes it))`,
			`    refused, disabled: "providerPackage": false in ${join(at.box.configDir, 'settings.json')}`,
			'',
		].join('\n'),
	);
});
