// ProjectTrust in the headless modes (spec/extensions.md §8, §5): the
// extensions that need no trust are asked before the headless rule decides.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** A workspace with a project extension (tool `proj_tool`) and a user extension whose ProjectTrust handler returns `answer`. */
function setup(answer: string) {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const projectDir = join(sandbox.workspace, '.i', 'extensions');
	mkdirSync(projectDir, {recursive: true});
	writeFileSync(join(projectDir, 'proj.mjs'), `export default api => api.registerTool({name: 'proj_tool', description: 'd', parameters: {type: 'object'}, execute: () => ({output: 'ok'})});`);
	const userDir = join(sandbox.root, 'user');
	mkdirSync(userDir);
	writeFileSync(join(userDir, 'policy.mjs'), `export default api => api.registerEventHandler('ProjectTrust', event => ${answer});`);
	return {sandbox, env: {...sandbox.env, I_EXTENSIONS_DIR: userDir}};
}

async function run(answer: string, args: string[] = []) {
	const {sandbox, env} = setup(answer);
	mock.enqueue({text: 'Done.'});
	const sent = mock.requests.length;
	const result = await runCli(['-p', 'hi', '-C', sandbox.workspace, ...args], {env});
	assert.equal(result.code, 0, result.stderr);
	const tools: string[] = mock.requests[sent]!.body.tools.map((tool: any) => tool.function.name);
	return {result, tools, sandbox};
}

test("a user extension's ProjectTrust yes loads the project's code in -p for this run, says so, and remembers nothing", async () => {
	const {result, tools, sandbox} = await run(`(event.extensions.length === 1 ? {trusted: true, reason: 'one known file'} : undefined)`);
	assert.ok(tools.includes('proj_tool'));
	assert.match(result.stderr, /i: warning: extension policy trusted the workspace \S+ for this run \(ProjectTrust: one known file\), so its own extensions load: \S+proj\.mjs/);
	const dataDir = join(sandbox.root, 'data');
	const files = existsSync(dataDir) ? readdirSync(dataDir, {recursive: true}).map(String) : [];
	assert.ok(!files.some(file => file.endsWith('trust.json')), `no trust file: ${files.join(', ')}`);
});

test('its refusal wins over --trust-project; a throwing one decides nothing, and the headless rule skips', async () => {
	const refused = await run(`({trusted: false})`, ['--trust-project']);
	assert.ok(!refused.tools.includes('proj_tool'));
	assert.match(refused.result.stderr, /its own extension was skipped: \S+proj\.mjs; extension policy refused it \(ProjectTrust\), which neither --trust-project nor an earlier yes overrides/);
	const throwing = await run(`{ throw new Error('policy bug'); }`);
	assert.ok(!throwing.tools.includes('proj_tool'));
	assert.match(throwing.result.stderr, /extension policy: ProjectTrust handler failed: policy bug; it decides nothing/);
	assert.match(throwing.result.stderr, /its own extension was skipped: \S+proj\.mjs; pass --trust-project to load it/);
});
