// Skill and prompt-template folders from --skill, --prompt-template, the
// settings files and the extensions' registerResourcesDiscover handlers,
// reaching the skills and prompts modules through the request frames
// (spec/extensions.md §5, §8), end to end through the built CLI.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** The standard profile down to the prompts and skills modules (no approval policy, budget, cache, memory or web). */
function box(): Sandbox {
	const sandbox = makeSandbox();
	writeFileSync(join(sandbox.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(sandbox.configDir, 'plugins.json'), JSON.stringify({profile: 'standard', disabled: ['approval', 'budget', 'compact', 'cache', 'memory', 'web', 'search']}));
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['builtin.json']});
	return sandbox;
}

function writeSkill(root: string, name: string, body = `BODY OF ${name}`): void {
	mkdirSync(join(root, name), {recursive: true});
	writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`);
}

/** The skill names of the request's skills index (sorted by name). */
function skillNames(body: any): string[] {
	const message = body.messages.find((entry: any) => typeof entry.content === 'string' && entry.content.includes('<context source="skills"'));
	assert.ok(message, 'the request has a skills index');
	const json = /<context source="skills" kind="full" trust="untrusted">\n(.*)\n<\/context>$/s.exec(message.content)![1]!;
	return Object.keys(JSON.parse(json).entries);
}

/** The prompt of a new session's first turn: its first user message (the skills index comes after it). */
const promptOf = (body: any) => body.messages.find((message: any) => message.role === 'user').content;

test('skills from --skill, both settings files (also with --no-extensions) and the workspace reach the skills module, and the model can load one', async () => {
	const sandbox = box();
	const flagged = join(sandbox.root, 'flag-skills');
	writeSkill(flagged, 'alpha');
	// Relative to the settings file's folder: .i/../team-skills.
	mkdirSync(join(sandbox.workspace, '.i'));
	writeFileSync(join(sandbox.workspace, '.i', 'settings.json'), JSON.stringify({skillDirs: ['../team-skills', '../not-built-yet']}));
	writeSkill(join(sandbox.workspace, 'team-skills'), 'beta');
	writeSkill(join(sandbox.workspace, '.i', 'skills'), 'delta');
	// The short form, relative to the config folder.
	writeFileSync(join(sandbox.configDir, 'settings.json'), JSON.stringify({skills: ['global-skills']}));
	writeSkill(join(sandbox.configDir, 'global-skills'), 'gamma');

	mock.enqueue({toolCalls: [{id: 'l1', name: 'skill_load', arguments: JSON.stringify({name: 'alpha'})}]}, {text: 'Loaded.'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'which skills?', '--yolo', '--skill', flagged, '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(skillNames(mock.requests[sent]!.body), ['alpha', 'beta', 'delta', 'gamma']);
	const result = mock.requests[sent + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.equal(result.content, 'BODY OF alpha\n');

	// Settings are not extensions: --no-extensions keeps their folders.
	mock.enqueue({text: 'OK.'});
	const next = mock.requests.length;
	const bare = await runCli(['-p', 'which skills?', '--no-extensions', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(bare.code, 0, bare.stderr);
	assert.deepEqual(skillNames(mock.requests[next]!.body), ['beta', 'delta', 'gamma']);
});

test('--skill and --prompt-template name folders that exist: a missing one is exit 2 naming it', async () => {
	const sandbox = box();
	for (const flag of ['--skill', '--prompt-template']) {
		const run = await runCli(['-p', 'hi', flag, 'nowhere', '-C', sandbox.workspace], {env: sandbox.env, cwd: sandbox.root});
		assert.equal(run.code, 2, run.stderr);
		assert.equal(run.stderr, `i: ${flag} nowhere: ${join(sandbox.root, 'nowhere')} does not exist\n`);
	}
});

test('--skill and --prompt-template without a module to read them say so', async () => {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	mock.enqueue({text: 'OK.'});
	const run = await runCli(['-p', 'hi', '--skill', '.', '--prompt-template', '.', '-C', sandbox.workspace], {env: sandbox.env, cwd: sandbox.root});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /i: warning: --skill: no skills module is configured \(the skills, standard or full profile\), so its folders are not read\n/);
	assert.match(run.stderr, /i: warning: --prompt-template: no prompts module is configured \(the standard or full profile\), so its templates are not expanded\n/);
});

test('a prompt template: /name args expands from --prompt-template before the workspace .i/prompts; other prompts pass unchanged', async () => {
	const sandbox = box();
	const flagged = join(sandbox.root, 'flag-prompts');
	mkdirSync(flagged);
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the template's own placeholder syntax
	writeFileSync(join(flagged, 'review.md'), '---\ndescription: Review a file\nargument-hint: FILE [FOCUS…]\n---\nReview $1 in {{workspace}}, focusing on ${@:2}.\n');
	mkdirSync(join(sandbox.workspace, '.i', 'prompts'), {recursive: true});
	writeFileSync(join(sandbox.workspace, '.i', 'prompts', 'review.md'), 'the workspace review, shadowed by the flag');
	writeFileSync(join(sandbox.workspace, '.i', 'prompts', 'hello.md'), 'Say hello.');

	const cases: Array<[string, string]> = [
		['/review src/a.ts "error messages" naming', `Review src/a.ts in ${sandbox.workspace}, focusing on error messages naming.\n`],
		// No placeholder: the arguments follow after a blank line.
		['/hello in French', 'Say hello.\n\nin French'],
		['/unknown stays as typed', '/unknown stays as typed'],
		['/usr/bin is not a template', '/usr/bin is not a template'],
	];
	for (const [prompt, expected] of cases) {
		mock.enqueue({text: 'OK.'});
		const sent = mock.requests.length;
		const run = await runCli(['-p', prompt, '--prompt-template', flagged, '-C', sandbox.workspace], {env: sandbox.env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(promptOf(mock.requests[sent]!.body), expected);
	}

	// A template that cannot be used fails the turn, naming its file.
	writeFileSync(join(flagged, 'bad.md'), '---\ntitle: x\n---\nbody');
	const run = await runCli(['-p', '/bad', '--prompt-template', flagged, '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 1, run.stderr);
	assert.ok(run.stderr.includes(`prompt template ${join(flagged, 'bad.md')} line 2: unknown key "title"; allowed: description, argument-hint`), run.stderr);
});

test('registerResourcesDiscover: the paths of every handler count, relative to the extension; a throwing or wrong answer is reported by name and adds nothing', async () => {
	const sandbox = box();
	const dir = join(sandbox.root, 'extensions');
	const log = join(sandbox.root, 'discover.log');
	writeFileSync(log, '');
	// A package folder: its relative paths are against the package.
	const packaged = join(dir, 'packaged');
	mkdirSync(packaged, {recursive: true});
	writeFileSync(join(packaged, 'package.json'), JSON.stringify({name: 'packaged', type: 'module', main: 'dist/index.js'}));
	mkdirSync(join(packaged, 'dist'));
	writeFileSync(
		join(packaged, 'dist', 'index.js'),
		`import {appendFileSync} from 'node:fs';
		export default api => {
			api.declare({priority: 10});
			api.registerResourcesDiscover((event, ctx) => { appendFileSync(${JSON.stringify(log)}, JSON.stringify([event, ctx]) + '\\n'); return {skillPaths: ['skills'], promptPaths: ['prompts']}; });
			api.registerEventHandler('ResourcesDiscover', event => appendFileSync(${JSON.stringify(log)}, JSON.stringify(['observed', event]) + '\\n'));
		};`,
	);
	writeSkill(join(packaged, 'skills'), 'epsilon');
	mkdirSync(join(packaged, 'prompts'));
	writeFileSync(join(packaged, 'prompts', 'ship.md'), 'Ship $ARGUMENTS now.');
	const elsewhere = join(sandbox.root, 'more-skills');
	writeSkill(elsewhere, 'zeta');
	writeFileSync(join(dir, 'failing.mjs'), `export default api => { api.declare({priority: 5}); api.registerResourcesDiscover(() => { throw new Error('lost the map'); }); };`);
	writeFileSync(join(dir, 'wrong.mjs'), `export default api => api.registerResourcesDiscover(() => ({skillPaths: '/not/a/list'}));`);
	writeFileSync(join(dir, 'plain.mjs'), `export default api => api.registerResourcesDiscover(async () => ({skillPaths: [${JSON.stringify(elsewhere)}], themePaths: ['themes']}));`);
	const env = {...sandbox.env, I_EXTENSIONS_DIR: dir};

	mock.enqueue({text: 'OK.'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', '/ship v2', '--json', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const body = mock.requests[sent]!.body;
	assert.deepEqual(skillNames(body), ['epsilon', 'zeta']);
	assert.equal(promptOf(body), 'Ship v2 now.');

	const warnings = jsonEvents(run.stdout)
		.filter(event => event.type === 'warning')
		.map(event => event.message);
	assert.deepEqual(warnings, [
		'extension failing: ResourcesDiscover handler failed: lost the map; its paths are left out',
		'extension wrong: ResourcesDiscover handler answered field "skillPaths": Invalid input: expected array, received string (an answer is {skillPaths?, promptPaths?, themePaths?}, lists of paths); its paths are left out',
	]);
	const seen = readFileSync(log, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map(line => JSON.parse(line));
	assert.deepEqual(seen[0], [
		{reason: 'startup', cwd: sandbox.workspace},
		{tag: 'ResourcesDiscover', extension: 'packaged'},
	]);
	assert.deepEqual(seen[1], [
		'observed',
		{reason: 'startup', cwd: sandbox.workspace, skillPaths: [join(packaged, 'skills'), elsewhere], promptPaths: [join(packaged, 'prompts')], themePaths: [join(dir, 'themes')]},
	]);
});
