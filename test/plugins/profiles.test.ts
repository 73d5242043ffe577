import assert from 'node:assert/strict';
import {join} from 'node:path';
import {test} from 'node:test';
import {readBindings, type Bindings} from '../../source/core/plugins/bindings.js';
import {generateManifest} from '../../source/core/plugins/generate-manifest.js';
import {moduleNames, officialModules} from '../../source/core/plugins/modules.js';
import {profileModules, profileNames, profiles} from '../../source/core/plugins/profiles.js';
import {readSelection} from '../../source/core/plugins/selection.js';
import {rejectsWith, tempRoot, writeJson} from './helpers.js';

const program = ['/usr/bin/node', '/opt/i/cli.js'];
/** Every official module runs in the one official host; its entries name the module. */
const official = (_module: string) => [...program, '--runtime', 'worker', 'official'];

/** Binding every module makes every hook entry appear, built or not: the whole order is visible. */
const everyModuleBound: Bindings = Object.fromEntries(moduleNames.map(module => [module, {exec: [`/bin/${module}`], cwd: '/c'}]));

test('the profiles of spec/platform.md §1 and §10 exist', () => {
	assert.deepEqual(profileNames.toSorted(), [
		'approval',
		'budget',
		'cache',
		'compact',
		'full',
		'memory',
		'responses',
		'responses-budget',
		'responses-compact',
		'search',
		'skills',
		'smoke',
		'smoke-thinking',
		'standard',
		'web',
	]);
	assert.deepEqual(profiles.compact, ['budget', 'compact']);
	assert.deepEqual(profiles['responses-compact'], ['responses', 'budget', 'compact']);
	assert.ok(!(profiles.full as readonly string[]).includes('smoke'), 'the smoke policy is a profile of its own');
	assert.ok(!(profiles.full as readonly string[]).includes('smoke-thinking'), 'so is its thinking variant');
	assert.ok((profiles.standard as readonly string[]).includes('prompts'), 'the default manifest selects the system prompt (spec/platform.md §4)');
});

test('full orders hooks by spec/platform.md §6: cache preparation after the wire transformation, cache observation before the adapter', () => {
	const {manifest} = generateManifest({profile: 'full', program, bindings: everyModuleBound});
	assert.deepEqual(
		manifest.hooks.map(hook => [hook.module, hook.events.join(',')]),
		[
			['prompts', 'system_prompt,user_input'],
			['memory', 'before_turn,before_compact_commit'],
			['skills', 'before_turn,before_compact_commit'],
			['budget', 'context_budget'],
			['compact', 'compact_plan,before_compact,after_compact,before_compact_commit'],
			['responses', 'before_request'],
			['cache', 'before_request,request_retry'],
			['cache', 'after_response'],
			['responses', 'after_response'],
			['approval', 'tool_approval'],
		],
	);
	const chain = (event: string) => manifest.hooks.filter(hook => (hook.events as string[]).includes(event)).map(hook => hook.module);
	assert.deepEqual(chain('before_request'), ['responses', 'cache']);
	assert.deepEqual(chain('after_response'), ['cache', 'responses']);
	for (const hook of manifest.hooks) assert.deepEqual(hook.exec, [`/bin/${hook.module}`]);
});

test('standard is full without the Responses transformation', () => {
	assert.deepEqual(
		profiles.standard,
		profiles.full.filter(module => module !== 'responses'),
	);
	const full = generateManifest({profile: 'full', program, bindings: everyModuleBound}).manifest;
	const standard = generateManifest({profile: 'standard', program, bindings: everyModuleBound}).manifest;
	assert.deepEqual(
		standard.hooks,
		full.hooks.filter(hook => hook.module !== 'responses'),
	);
});

test('built modules run in the one official host of this program (`--runtime worker official`), each entry naming its module; unbuilt ones are named in a warning, never skipped silently', () => {
	const {manifest, warnings} = generateManifest({profile: 'standard', program});
	const built = profiles.standard.filter(module => officialModules[module].built);
	const unbuilt = profiles.standard.filter(module => !officialModules[module].built);
	assert.deepEqual(manifest.hooks, [
		{events: ['system_prompt', 'user_input'], exec: official('prompts'), prefix_reuse: true, module: 'prompts'},
		{events: ['before_turn', 'before_compact_commit'], exec: official('memory'), prefix_reuse: true, module: 'memory'},
		...(officialModules.skills.built ? [{events: ['before_turn', 'before_compact_commit'], exec: official('skills'), prefix_reuse: true, module: 'skills'}] : []),
		{events: ['context_budget'], exec: official('budget'), prefix_reuse: true, module: 'budget'},
		{events: ['compact_plan', 'before_compact', 'after_compact', 'before_compact_commit'], exec: official('compact'), prefix_reuse: true, module: 'compact'},
		{events: ['before_request', 'request_retry'], exec: official('cache'), prefix_reuse: true, module: 'cache'},
		{events: ['after_response'], exec: official('cache'), prefix_reuse: true, module: 'cache'},
		{events: ['tool_approval'], exec: official('approval'), prefix_reuse: true, module: 'approval'},
	]);
	assert.ok((['prompts', 'approval', 'budget', 'compact', 'cache', 'memory'] as const).every(module => built.includes(module)));
	if (unbuilt.length === 0) assert.deepEqual(warnings, []);
	else {
		assert.equal(warnings.length, 1);
		assert.match(warnings[0]!, new RegExp(`^modules? .* ${unbuilt.length === 1 ? 'is' : 'are'} not built yet; the standard profile runs without (them|it)$`));
		for (const module of unbuilt) assert.ok(warnings[0]!.includes(`"${module}"`), `${module} named in ${warnings[0]}`);
	}

	assert.deepEqual(generateManifest({profile: 'budget', program}).warnings, []);
	const memory = generateManifest({profile: 'memory', program});
	assert.deepEqual(memory.warnings, []);
	assert.deepEqual(memory.manifest.hooks, [{events: ['before_turn', 'before_compact_commit'], exec: official('memory'), prefix_reuse: true, module: 'memory'}]);
	assert.deepEqual(
		memory.manifest.tools.map(tool => [tool.name, tool.exec, tool.module]),
		['memory_read', 'memory_write', 'memory_delete'].map(name => [name, official('memory'), 'memory']),
	);
	assert.deepEqual(generateManifest({profile: 'search', program}), {manifest: {tools: [], hooks: []}, warnings: []});
});

test('the smoke profiles run their worker on both sides of the request, retries counted, no tools', () => {
	for (const profile of ['smoke', 'smoke-thinking'] as const) {
		const {manifest, warnings} = generateManifest({profile, program});
		assert.deepEqual(warnings, []);
		assert.deepEqual(manifest.tools, []);
		assert.deepEqual(manifest.hooks, [
			{events: ['before_request', 'request_retry'], exec: official(profile), prefix_reuse: true, module: profile},
			{events: ['after_response'], exec: official(profile), prefix_reuse: true, module: profile},
		]);
	}
});

test('disabled modules are left out', () => {
	assert.deepEqual(profileModules('standard', ['web', 'approval']), ['prompts', 'budget', 'compact', 'cache', 'memory', 'skills', 'search']);
	const {manifest, warnings} = generateManifest({profile: 'standard', program, disabled: ['budget', 'compact', 'cache', 'memory', 'skills', 'web', 'prompts']});
	assert.deepEqual(warnings, []);
	assert.deepEqual(
		manifest.hooks.map(hook => hook.module),
		['approval'],
	);
});

test('a binding replaces every entry of its module, built or not; the provider binding sets the top-level provider', () => {
	const cache = {exec: ['/opt/cache-worker', '--fast'], cwd: '/etc/i'};
	const approval = {exec: ['/opt/approve'], cwd: '/etc/i'};
	const provider = {exec: ['/opt/provider'], cwd: '/etc/i'};
	const {manifest, warnings} = generateManifest({profile: 'full', program, bindings: {cache, approval, provider}});
	const cacheHooks = manifest.hooks.filter(hook => hook.module === 'cache');
	assert.equal(cacheHooks.length, 2);
	for (const hook of cacheHooks) assert.deepEqual({exec: hook.exec, cwd: hook.cwd}, cache);
	assert.deepEqual(
		manifest.hooks.filter(hook => hook.module === 'approval'),
		[{events: ['tool_approval'], ...approval, module: 'approval'}],
	);
	assert.deepEqual(manifest.hooks.find(hook => hook.module === 'prompts')?.exec, official('prompts'));
	assert.deepEqual(manifest.provider, provider);
	assert.ok(!warnings.some(warning => warning.includes('"cache"')), 'a bound module is not reported missing');
});

test('a bound module runs its tools and hooks in the bound worker', () => {
	const {manifest, warnings} = generateManifest({profile: 'memory', program, bindings: {memory: {exec: ['/opt/memory'], cwd: '/c'}}});
	assert.deepEqual(manifest.hooks, [{events: ['before_turn', 'before_compact_commit'], exec: ['/opt/memory'], cwd: '/c', module: 'memory'}]);
	assert.deepEqual(
		manifest.tools.map(tool => [tool.name, tool.exec, tool.cwd]),
		['memory_read', 'memory_write', 'memory_delete'].map(name => [name, ['/opt/memory'], '/c']),
	);
	assert.deepEqual(warnings, []);
});

test('bindings.json: relative and missing cwd resolve against the config folder; a missing file binds nothing', async t => {
	const {dirs} = tempRoot(t);
	assert.deepEqual(await readBindings(dirs.config_dir), {});
	writeJson(join(dirs.config_dir, 'bindings.json'), {compact: {exec: ['./w'], cwd: 'workers'}, provider: {exec: ['p']}});
	assert.deepEqual(await readBindings(dirs.config_dir), {
		compact: {exec: ['./w'], cwd: join(dirs.config_dir, 'workers')},
		provider: {exec: ['p'], cwd: dirs.config_dir},
	});
});

test('bindings.json is validated strictly, naming the file and the binding', async t => {
	const {dirs} = tempRoot(t);
	const path = join(dirs.config_dir, 'bindings.json');
	const cases: Array<[unknown, string]> = [
		[{compat: {exec: ['w']}}, 'unknown module "compat"; bindable: prompts, approval,'],
		[{compact: {exec: []}}, '"compact": exec must list at least 1 item'],
		[{compact: {exec: ['w'], env: {}}}, '"compact": unknown field "env"'],
		[{compact: 'w'}, '"compact": the binding must be an object'],
		[[], 'must be a JSON object'],
	];
	for (const [content, message] of cases) {
		writeJson(path, content);
		await rejectsWith(readBindings(dirs.config_dir), `bindings ${path}: ${message}`);
	}
});

test('plugins.json: a missing file selects standard; names are validated', async t => {
	const {dirs} = tempRoot(t);
	assert.deepEqual(await readSelection(dirs.config_dir), {profile: 'standard', disabled: []});
	const path = join(dirs.config_dir, 'plugins.json');
	writeJson(path, {profile: 'full', disabled: ['web', 'responses']});
	assert.deepEqual(await readSelection(dirs.config_dir), {profile: 'full', disabled: ['web', 'responses']});
	writeJson(path, {profile: 'compact'});
	assert.deepEqual(await readSelection(dirs.config_dir), {profile: 'compact', disabled: []});
	const cases: Array<[unknown, string]> = [
		[{profile: 'stadnard'}, '"profile" "stadnard" is not a profile; profiles: full, standard,'],
		[{profile: 'standard', disabled: ['webb', 'web', 'x']}, '"disabled" names "webb", "x", not modules; modules: prompts,'],
		[{profile: 'standard', enabled: []}, 'unknown field "enabled"'],
		[{disabled: []}, 'profile is required'],
	];
	for (const [content, message] of cases) {
		writeJson(path, content);
		await rejectsWith(readSelection(dirs.config_dir), `plugin selection ${path}: ${message}`);
	}
});
