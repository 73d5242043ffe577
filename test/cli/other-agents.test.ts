// A project set up for other agents (issue 45 point 12), end to end through
// the built CLI against the mock provider, in a workspace never trusted:
// CLAUDE.md stands in for a folder's missing AGENTS.md, .claude/skills is a
// skill root, and pi's .pi/skills, .pi/prompts and .pi/settings.json's
// `skills` / `prompts` are found after .i's; pi's extensions are not loaded.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function writeSkill(root: string, name: string): void {
	mkdirSync(join(root, name), {recursive: true});
	writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBODY OF ${name}\n`);
}

/** The skill names of the request's skills index (sorted by name). */
function skillNames(body: any): string[] {
	const message = body.messages.find((entry: any) => typeof entry.content === 'string' && entry.content.includes('<context source="skills"'));
	assert.ok(message, 'the request has a skills index');
	const json = /<context source="skills" kind="full" trust="untrusted">\n(.*)\n<\/context>$/s.exec(message.content)![1]!;
	return Object.keys(JSON.parse(json).entries);
}

/** The standard profile down to the prompts and skills modules (as resources.test.ts). */
function box(): Sandbox {
	const sandbox = makeSandbox();
	writeFileSync(join(sandbox.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(sandbox.configDir, 'plugins.json'), JSON.stringify({profile: 'standard', disabled: ['approval', 'budget', 'compact', 'cache', 'memory', 'web', 'search']}));
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['builtin.json']});
	return sandbox;
}

test("CLAUDE.md, .claude/skills and .pi's skills, prompts and settings reach the model of a -p run in an untrusted workspace", async () => {
	const sandbox = box();
	const repo = join(sandbox.root, 'repo');
	const workspace = join(repo, 'app');
	mkdirSync(join(repo, '.git'), {recursive: true});
	mkdirSync(workspace);
	writeFileSync(join(repo, 'AGENTS.md'), 'ROOT AGENTS: npm test.\n');
	writeFileSync(join(repo, 'CLAUDE.md'), 'ROOT CLAUDE: never sent, AGENTS.md wins.\n');
	writeFileSync(join(workspace, 'CLAUDE.md'), 'APP CLAUDE: the API uses zod.\n');
	writeSkill(join(workspace, '.claude', 'skills'), 'claude-only');
	// The same skill linked from .claude/skills into .agents/skills is one skill, not a repeated name.
	writeSkill(join(workspace, '.agents', 'skills'), 'shared');
	symlinkSync(join(workspace, '.agents', 'skills', 'shared'), join(workspace, '.claude', 'skills', 'shared'));
	writeSkill(join(workspace, '.pi', 'skills'), 'pi-own');
	writeSkill(join(workspace, 'pi-team'), 'pi-team-skill');
	mkdirSync(join(workspace, '.pi', 'prompts'));
	writeFileSync(join(workspace, '.pi', 'prompts', 'ship.md'), 'Ship $ARGUMENTS from pi.');
	mkdirSync(join(workspace, 'pi-shared-prompts'));
	writeFileSync(join(workspace, 'pi-shared-prompts', 'greet.md'), 'Greet $1 from pi settings.');
	// pi's extensions are code for pi's API: named, and never loaded.
	mkdirSync(join(workspace, '.pi', 'extensions'));
	writeFileSync(join(workspace, '.pi', 'extensions', 'boom.js'), 'throw new Error("a pi extension ran");\n');
	writeFileSync(
		join(workspace, '.pi', 'settings.json'),
		JSON.stringify({skills: ['../pi-team', 'globbed/*'], prompts: ['../pi-shared-prompts'], extensions: ['./extensions/boom.js'], packages: [{source: 'pi-skills'}], defaultModel: 'x'}),
	);

	mock.enqueue({text: 'ok'}, {text: 'ok'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', '/ship v2', '-C', workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.doesNotMatch(run.stderr, /pi extension ran|not trusted|\.pi\//, run.stderr);
	const body = mock.requests[sent]!.body;
	const system = body.messages[0].content as string;
	const root = system.indexOf(`## ${join(repo, 'AGENTS.md')}\n\nROOT AGENTS: npm test.`);
	const app = system.indexOf(`## ${join(workspace, 'CLAUDE.md')}\n\nAPP CLAUDE: the API uses zod.`);
	assert.ok(root > 0 && app > root, system);
	assert.ok(!system.includes('ROOT CLAUDE'), system);
	assert.deepEqual(skillNames(body), ['claude-only', 'pi-own', 'pi-team-skill', 'shared']);
	assert.equal(body.messages.find((message: any) => message.role === 'user').content, 'Ship v2 from pi.');

	const next = mock.requests.length;
	const greet = await runCli(['-p', '/greet Ada', '-C', workspace], {env: sandbox.env});
	assert.equal(greet.code, 0, greet.stderr);
	assert.equal(mock.requests[next]!.body.messages.find((message: any) => message.role === 'user').content, 'Greet Ada from pi settings.');
});

test('a .pi/settings.json i cannot read is a warning, and the run goes on', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	mkdirSync(join(box.workspace, '.pi'));
	writeFileSync(join(box.workspace, '.pi', 'settings.json'), '{"skills": "one"}');
	mock.enqueue({text: 'ok'});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /i: warning: pi's settings .*\.pi\/settings\.json: "skills" is not a list of paths, so it is not read/);
});
