import assert from 'node:assert/strict';
import {join} from 'node:path';
import {test} from 'node:test';
import {loadModelConfig} from '../../source/core/config/load-config.js';
import {loadPlugins} from '../../source/core/plugins/load-plugins.js';
import {officialModules} from '../../source/core/plugins/modules.js';
import {executable, fakeProgram, load, rejectsWith, tempRoot, writeJson} from './helpers.js';

const descriptor = {builtin_profile: 'configured', tools: []};

test('builtin.json resolves the configured profile afresh at every start, from the given program path', async t => {
	const {root, dirs} = tempRoot(t);
	const program = fakeProgram(root);
	const builtin = writeJson(join(dirs.config_dir, 'builtin.json'), descriptor);
	const first = await load(dirs, ['builtin.json'], {}, program);
	assert.deepEqual(first.plugins.hooks, [
		{events: ['system_prompt', 'user_input'], worker: {exec: [...program, '--runtime', 'worker', 'official'], cwd: dirs.config_dir, prefixReuse: true}, module: 'prompts', manifest: builtin},
		{events: ['before_turn', 'before_compact_commit'], worker: {exec: [...program, '--runtime', 'worker', 'official'], cwd: dirs.config_dir, prefixReuse: true}, module: 'memory', manifest: builtin},
		...(officialModules.skills.built
			? [{events: ['before_turn', 'before_compact_commit'], worker: {exec: [...program, '--runtime', 'worker', 'official'], cwd: dirs.config_dir, prefixReuse: true}, module: 'skills', manifest: builtin}]
			: []),
		{events: ['context_budget'], worker: {exec: [...program, '--runtime', 'worker', 'official'], cwd: dirs.config_dir, prefixReuse: true}, module: 'budget', manifest: builtin},
		{
			events: ['compact_plan', 'before_compact', 'after_compact', 'before_compact_commit'],
			worker: {exec: [...program, '--runtime', 'worker', 'official'], cwd: dirs.config_dir, prefixReuse: true},
			module: 'compact',
			manifest: builtin,
		},
		{events: ['before_request', 'request_retry'], worker: {exec: [...program, '--runtime', 'worker', 'official'], cwd: dirs.config_dir, prefixReuse: true}, module: 'cache', manifest: builtin},
		{events: ['after_response'], worker: {exec: [...program, '--runtime', 'worker', 'official'], cwd: dirs.config_dir, prefixReuse: true}, module: 'cache', manifest: builtin},
		{events: ['tool_approval'], worker: {exec: [...program, '--runtime', 'worker', 'official'], cwd: dirs.config_dir, prefixReuse: true}, module: 'approval', manifest: builtin},
	]);
	assert.ok(!first.warnings.some(warning => warning.includes('"memory"')), first.warnings.join('\n'));

	writeJson(join(dirs.config_dir, 'plugins.json'), {profile: 'standard', disabled: ['prompts', 'budget', 'compact', 'cache', 'memory', 'skills', 'web']});
	const second = await load(dirs, ['builtin.json'], {}, program);
	assert.deepEqual(
		second.plugins.hooks.map(hook => hook.module),
		['approval'],
	);
	assert.deepEqual(second.warnings, []);
});

test('builtin.json applies bindings.json, with no fallback when the bound worker is missing', async t => {
	const {root, dirs} = tempRoot(t);
	const program = fakeProgram(root);
	writeJson(join(dirs.config_dir, 'builtin.json'), descriptor);
	writeJson(join(dirs.config_dir, 'plugins.json'), {profile: 'compact'});
	const compact = executable(join(dirs.config_dir, 'workers', 'compact'));
	writeJson(join(dirs.config_dir, 'bindings.json'), {compact: {exec: ['./compact', '--keep', '6'], cwd: 'workers'}});
	const {plugins, warnings} = await load(dirs, ['builtin.json'], {}, program);
	assert.deepEqual(
		plugins.hooks.map(hook => [hook.module, hook.worker.exec]),
		[
			['budget', [...program, '--runtime', 'worker', 'official']],
			['compact', [compact, '--keep', '6']],
		],
	);
	assert.equal(plugins.hooks[1]!.worker.cwd, join(dirs.config_dir, 'workers'));
	assert.deepEqual(warnings, []);

	writeJson(join(dirs.config_dir, 'bindings.json'), {compact: {exec: ['./gone'], cwd: 'workers'}});
	await rejectsWith(load(dirs, ['builtin.json'], {}, program), 'builtin profile "compact" of', 'hooks[1] (module "compact")', 'does not exist');
});

test('builtin.json: extra tools are manifest entries, checked like any other; a pinned profile skips plugins.json', async t => {
	const {root, dirs} = tempRoot(t);
	const program = fakeProgram(root);
	const worker = executable(join(dirs.config_dir, 'tool-worker'));
	const extra = {name: 'word_count', description: 'Count words', parameters: {type: 'object'}, exec: ['./tool-worker']};
	const builtin = writeJson(join(dirs.config_dir, 'builtin.json'), {builtin_profile: 'smoke', tools: [extra]});
	writeJson(join(dirs.config_dir, 'plugins.json'), {profile: 'nonsense'});
	const {plugins} = await load(dirs, ['builtin.json'], {}, program);
	assert.deepEqual(
		plugins.hooks.map(hook => hook.module),
		['smoke', 'smoke'],
	);
	assert.deepEqual(plugins.tools, [{name: 'word_count', description: 'Count words', parameters: {type: 'object'}, worker: {exec: [worker], cwd: dirs.config_dir}, manifest: builtin}]);

	writeJson(builtin, {builtin_profile: 'smoke', tools: [{...extra, parameters: {type: 'object', properties: 3}}]});
	await rejectsWith(load(dirs, ['builtin.json'], {}, program), `builtin descriptor ${builtin}: tools[0] "word_count": "parameters" is not a valid JSON Schema`);
	writeJson(builtin, {builtin_profile: 'standrad'});
	await rejectsWith(load(dirs, ['builtin.json'], {}, program), `builtin descriptor ${builtin}: "builtin_profile" "standrad" is neither "configured"`);
	writeJson(builtin, {builtin_profile: 'configured', tool: []});
	await rejectsWith(load(dirs, ['builtin.json'], {}, program), `builtin descriptor ${builtin}: unknown field "tool"`);
});

test('manifests load in the listed order, relative to the config file', async t => {
	const {root, dirs} = tempRoot(t);
	const worker = executable(join(root, 'shared', 'worker'));
	const a = writeJson(join(root, 'shared', 'a.json'), {hooks: [{events: ['finish'], exec: ['./worker', 'a']}], tools: [{name: 'ta', description: '', parameters: {type: 'object'}, exec: ['./worker']}]});
	const b = writeJson(join(root, 'shared', 'b.json'), {hooks: [{events: ['*'], exec: ['./worker', 'b']}], tools: [{name: 'tb', description: '', parameters: {type: 'object'}, exec: ['./worker']}]});
	const {plugins} = await load(dirs, ['../shared/b.json', join(root, 'shared', 'a.json')]);
	assert.deepEqual(
		plugins.hooks.map(hook => [hook.manifest, hook.worker.exec]),
		[
			[b, [worker, 'b']],
			[a, [worker, 'a']],
		],
	);
	assert.deepEqual(
		plugins.tools.map(tool => tool.name),
		['tb', 'ta'],
	);
	assert.equal(plugins.provider, null);
});

test('the provider: the API config binding wins, else the last manifest declaring one', async t => {
	const {root, dirs} = tempRoot(t);
	const worker = executable(join(root, 'm', 'worker'));
	const configWorker = executable(join(dirs.config_dir, 'provider'));
	const first = writeJson(join(root, 'm', 'first.json'), {provider: {exec: ['./worker', 'first']}});
	const none = writeJson(join(root, 'm', 'none.json'), {});
	const last = writeJson(join(root, 'm', 'last.json'), {provider: {exec: ['./worker', 'last']}});
	assert.deepEqual((await load(dirs, [first, last, none])).plugins.provider, {exec: [worker, 'last'], cwd: join(root, 'm')});
	assert.deepEqual((await load(dirs, [last, first])).plugins.provider, {exec: [worker, 'first'], cwd: join(root, 'm')});
	const explicit = await load(dirs, [first, last], {provider: {exec: ['./provider', 'x']}});
	assert.deepEqual(explicit.plugins.provider, {exec: [configWorker, 'x'], cwd: dirs.config_dir});
	assert.deepEqual((await load(dirs, [], {provider: {exec: ['./provider']}})).plugins.provider, {exec: [configWorker], cwd: dirs.config_dir});
	const path = join(dirs.config_dir, 'config.json');
	await rejectsWith(load(dirs, [], {provider: {exec: ['./nope']}}), `config ${path}: "provider": exec[0] "./nope"`);
});

test('a missing manifest names the config and the entry; for builtin.json it points at init', async t => {
	const {dirs} = tempRoot(t);
	const path = writeJson(join(dirs.config_dir, 'config.json'), {protocol: 'openai', model: 'm', plugins: ['builtin.json']});
	await rejectsWith(loadPlugins(loadModelConfig(path, true), dirs), `config ${path}: "plugins[0]": manifest ${join(dirs.config_dir, 'builtin.json')} does not exist`, '`i --runtime init` creates builtin.json');
});

test('tools say who provides them for approvals: an official module, a module bound in bindings.json, or nothing for a manifest of its own', async t => {
	const {root, dirs} = tempRoot(t);
	const program = fakeProgram(root);
	executable(join(dirs.config_dir, 'tool-worker'));
	const extra = {name: 'word_count', description: 'Count words', parameters: {type: 'object'}, exec: ['./tool-worker']};
	writeJson(join(dirs.config_dir, 'builtin.json'), {builtin_profile: 'configured', tools: [extra]});
	writeJson(join(dirs.config_dir, 'plugins.json'), {profile: 'standard', disabled: []});
	const owners = async () => new Map((await load(dirs, ['builtin.json'], {}, program)).plugins.tools.map(tool => [tool.name, tool.owner]));
	const official = await owners();
	assert.equal(official.get('memory_write'), 'official module memory');
	assert.equal(official.get('web_fetch'), 'official module web');
	// The descriptor's own entries are a plugin worker's: the external tool names their manifest (external-tool.test.ts).
	assert.equal(official.get('word_count'), undefined);

	executable(join(dirs.config_dir, 'workers', 'memory'));
	writeJson(join(dirs.config_dir, 'bindings.json'), {memory: {exec: ['./memory'], cwd: 'workers'}});
	const bound = await owners();
	assert.equal(bound.get('memory_write'), `module memory, bound in ${join(dirs.config_dir, 'bindings.json')}`);
	assert.equal(bound.get('web_fetch'), 'official module web');
});
