import assert from 'node:assert/strict';
import {readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';
import {loadModelConfig} from '../../source/core/config/load-config.js';
import {loadPlugins} from '../../source/core/plugins/load-plugins.js';
import {officialModules} from '../../source/core/plugins/modules.js';
import {binPath, makeSandbox, runCli} from '../helpers/cli.js';
import {executable, writeJson} from './helpers.js';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown;

test('init creates the config folder, the three plugin files and a config.json that loads builtin.json', async () => {
	const box = makeSandbox();
	const configDir = join(box.root, 'fresh', 'config');
	const run = await runCli(['--runtime', 'init'], {env: {...box.env, I_CONFIG_DIR: configDir}});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(readJson(join(configDir, 'plugins.json')), {profile: 'standard', disabled: []});
	assert.deepEqual(readJson(join(configDir, 'bindings.json')), {});
	assert.deepEqual(readJson(join(configDir, 'builtin.json')), {builtin_profile: 'configured', tools: []});
	assert.deepEqual(readJson(join(configDir, 'config.json')), {plugins: ['builtin.json']});
	for (const name of ['plugins.json', 'bindings.json', 'builtin.json', 'config.json']) assert.ok(run.stdout.includes(`created ${join(configDir, name)}`), run.stdout);
	for (const field of ['"protocol"', '"model"', '"api_key_env"']) assert.ok(run.stdout.includes(field), `${field} named in:\n${run.stdout}`);
	assert.match(run.stdout, /e\.g\. "DEEPSEEK_API_KEY"/);
	// The next run names every field still to fill in, in one go.
	const next = await runCli(['-p', 'hi', '-C', box.workspace], {env: {...box.env, I_CONFIG_DIR: configDir}});
	assert.equal(next.code, 2);
	for (const field of ['protocol', 'model', 'api_key_env']) assert.match(next.stderr, new RegExp(`missing field "${field}"`));
});

test('init never overwrites an existing file and says which it kept', async () => {
	const box = makeSandbox();
	const selection = writeJson(join(box.configDir, 'plugins.json'), {profile: 'full', disabled: ['web']});
	const config = box.writeConfig({protocol: 'openai', model: 'm'});
	const before = readFileSync(config, 'utf8');
	const run = await runCli(['--runtime', 'init'], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.deepEqual(readJson(selection), {profile: 'full', disabled: ['web']});
	assert.equal(readFileSync(config, 'utf8'), before);
	assert.ok(run.stdout.includes(`kept    ${selection} (it exists)`), run.stdout);
	assert.ok(run.stdout.includes(`created ${join(box.configDir, 'builtin.json')}`), run.stdout);
	assert.doesNotMatch(run.stdout, /Fill in the model/);
	assert.match(run.stdout, /does not list "builtin.json" in "plugins"/);

	const again = await runCli(['--runtime', 'init'], {env: box.env});
	assert.equal(again.code, 0);
	assert.doesNotMatch(again.stdout, /created/);
});

test('init fails with exit 2 when the config folder cannot be made', async () => {
	const box = makeSandbox();
	const blocker = join(box.root, 'file');
	writeFileSync(blocker, '');
	const run = await runCli(['--runtime', 'init'], {env: {...box.env, I_CONFIG_DIR: join(blocker, 'config')}});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /^i: --runtime init: /);
});

test('manifest PROFILE prints JSON naming this program; unbuilt modules are warned about on stderr', async () => {
	const box = makeSandbox();
	const run = await runCli(['--runtime', 'manifest', 'standard'], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	// A printed manifest may outlive this node: the host runs without the snapshot a later node would refuse.
	const program = [process.execPath, realpathSync(binPath)];
	const printed = JSON.parse(run.stdout);
	const memoryTools = printed.tools.filter((tool: any) => tool.module === 'memory');
	assert.deepEqual(
		memoryTools.map((tool: any) => [tool.name, tool.exec]),
		['memory_read', 'memory_write', 'memory_delete'].map(name => [name, [...program, '--runtime', 'worker', 'official']]),
	);
	assert.deepEqual(Object.keys(memoryTools[1]).sort(), ['description', 'exec', 'module', 'name', 'parameters', 'prefix_reuse']);
	assert.deepEqual(printed, {
		tools: printed.tools,
		hooks: [
			{events: ['system_prompt', 'user_input'], exec: [...program, '--runtime', 'worker', 'official'], prefix_reuse: true, module: 'prompts'},
			{events: ['before_turn', 'before_compact_commit'], exec: [...program, '--runtime', 'worker', 'official'], prefix_reuse: true, module: 'memory'},
			...(officialModules.skills.built ? [{events: ['before_turn', 'before_compact_commit'], exec: [...program, '--runtime', 'worker', 'official'], prefix_reuse: true, module: 'skills'}] : []),
			{events: ['context_budget'], exec: [...program, '--runtime', 'worker', 'official'], prefix_reuse: true, module: 'budget'},
			{events: ['compact_plan', 'before_compact', 'after_compact', 'before_compact_commit'], exec: [...program, '--runtime', 'worker', 'official'], prefix_reuse: true, module: 'compact'},
			{events: ['before_request', 'request_retry'], exec: [...program, '--runtime', 'worker', 'official'], prefix_reuse: true, module: 'cache'},
			{events: ['after_response'], exec: [...program, '--runtime', 'worker', 'official'], prefix_reuse: true, module: 'cache'},
			{events: ['tool_approval'], exec: [...program, '--runtime', 'worker', 'official'], prefix_reuse: true, module: 'approval'},
		],
	});
	assert.doesNotMatch(run.stderr, /"memory"/);
});

test('manifest applies bindings.json, and what it prints loads as a manifest', async () => {
	const box = makeSandbox();
	const approve = executable(join(box.configDir, 'approve'));
	writeJson(join(box.configDir, 'bindings.json'), {approval: {exec: ['./approve']}, provider: {exec: ['./approve', 'provider']}});
	const run = await runCli(['--runtime', 'manifest', 'approval'], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stderr, '');
	const manifest = JSON.parse(run.stdout) as Record<string, unknown>;
	assert.deepEqual(manifest, {
		tools: [],
		hooks: [{events: ['tool_approval'], exec: ['./approve'], cwd: box.configDir, module: 'approval'}],
		provider: {exec: ['./approve', 'provider'], cwd: box.configDir},
	});

	const saved = writeJson(join(box.root, 'saved', 'approval.json'), run.stdout);
	const config = box.writeConfig({protocol: 'openai', model: 'm', plugins: [saved]});
	const {plugins} = await loadPlugins(loadModelConfig(config, true), {config_dir: box.configDir, data_dir: '', cache_dir: '', runtime_dir: ''});
	assert.deepEqual(plugins.hooks[0]!.worker, {exec: [approve], cwd: box.configDir});
	assert.deepEqual(plugins.provider, {exec: [approve, 'provider'], cwd: box.configDir});
});

test('manifest refuses an unknown or missing profile, and a broken bindings.json, with exit 2', async () => {
	const box = makeSandbox();
	for (const args of [['nope'], [], ['standard', 'extra']]) {
		const run = await runCli(['--runtime', 'manifest', ...args], {env: box.env});
		assert.equal(run.code, 2);
		assert.equal(run.stdout, '');
		assert.match(run.stderr, /profiles: full, standard, approval, budget, compact, cache, responses, responses-budget, responses-compact, memory, search, skills, web, smoke, smoke-thinking/);
	}

	const bindings = writeJson(join(box.configDir, 'bindings.json'), {compat: {exec: ['x']}});
	const run = await runCli(['--runtime', 'manifest', 'full'], {env: box.env});
	assert.equal(run.code, 2);
	assert.ok(run.stderr.includes(`bindings ${bindings}: unknown module "compat"`), run.stderr);
});

test('the bundle loads ajv on demand: a tool schema it rejects stops the start with exit 2 (draft-07 and 2020-12)', async () => {
	const box = makeSandbox();
	executable(join(box.configDir, 'worker'));
	const tool = {name: 'word_count', description: '', exec: ['./worker']};
	const broken = {type: 'object', properties: {text: {type: 'strin'}}};
	const manifest = writeJson(join(box.configDir, 'tools.json'), {
		tools: [
			{...tool, parameters: {type: 'object', properties: {text: {type: 'string'}}}},
			{...tool, name: 'modern', parameters: {$schema: 'https://json-schema.org/draft/2020-12/schema', ...broken}},
		],
	});
	box.writeConfig({protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm', plugins: ['tools.json']});
	const run = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 2, run.stderr);
	assert.ok(run.stderr.includes(`manifest ${manifest}: tools[1] "modern": "parameters" is not a valid JSON Schema (schema is invalid:`), run.stderr);

	writeJson(manifest, {tools: [{...tool, parameters: broken}]});
	const draft07 = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(draft07.code, 2, draft07.stderr);
	assert.ok(draft07.stderr.includes(`manifest ${manifest}: tools[0] "word_count": "parameters" is not a valid JSON Schema (schema is invalid:`), draft07.stderr);
});
