/** The official modules that read a config file (budget and responses take none). */
const withConfig = ['prompts', 'approval', 'compact', 'cache', 'memory', 'skills', 'web', 'smoke'];
import assert from 'node:assert/strict';
import {mkdir, readFile, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {runCli} from '../helpers/cli.js';
import {tempDir} from './helpers.js';

async function setup(t: Parameters<typeof tempDir>[0]) {
	const root = await tempDir(t);
	const workspace = join(root, 'project');
	await mkdir(workspace);
	const env = {
		PATH: process.env.PATH,
		HOME: root,
		I_CONFIG_DIR: join(root, 'config'),
		I_DATA_DIR: join(root, 'data'),
		I_CACHE_DIR: join(root, 'cache'),
		I_RUNTIME_DIR: join(root, 'runtime'),
	};
	return {root, workspace, env};
}

test('--runtime paths prints the resolved paths as key: value lines and registers the workspace', async t => {
	const {root, workspace, env} = await setup(t);
	const run = await runCli(['--runtime', 'paths', '-C', workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stderr, '');
	const registry = JSON.parse(await readFile(join(root, 'data', 'workspaces.json'), 'utf8'));
	const id = Object.values(registry.workspaces)[0] as string;
	assert.equal(
		run.stdout,
		[
			`workspace: ${workspace}`,
			`workspace_id: ${id}`,
			`config_dir: ${root}/config`,
			`data_dir: ${root}/data`,
			`cache_dir: ${root}/cache`,
			`runtime_dir: ${root}/runtime`,
			`workspace_state_dir: ${root}/data/workspaces/${id}`,
			`config.core: ${root}/config/config.json`,
			`config.provider: ${root}/config/provider.json`,
			...withConfig.map(name => `config.${name}: ${root}/config/${name}.json`),
			'',
		].join('\n'),
	);
});

test('--runtime paths --json prints one object; the same workspace, by any name, keeps its ID', async t => {
	const {root, workspace, env} = await setup(t);
	const first = await runCli(['--runtime', 'paths', '-C', workspace, '--json'], {env});
	assert.equal(first.code, 0, first.stderr);
	assert.equal(first.stdout.trimEnd().split('\n').length, 1);
	const paths = JSON.parse(first.stdout);
	assert.deepEqual(Object.keys(paths), ['workspace', 'workspace_id', 'config_dir', 'data_dir', 'cache_dir', 'runtime_dir', 'workspace_state_dir', 'config_files']);
	assert.equal(paths.workspace, workspace);
	assert.equal(paths.workspace_state_dir, join(root, 'data', 'workspaces', paths.workspace_id));
	assert.deepEqual(paths.config_files, {
		core: join(root, 'config', 'config.json'),
		provider: join(root, 'config', 'provider.json'),
		...Object.fromEntries(withConfig.map(name => [name, join(root, 'config', `${name}.json`)])),
	});
	assert.ok(!Object.hasOwn(paths.config_files, 'budget') && !Object.hasOwn(paths.config_files, 'responses'));

	// Through a symlink and relative to the cwd: canonicalised to the same workspace.
	await symlink(workspace, join(root, 'alias'));
	const again = await runCli(['--runtime', 'paths', '--json', '-C', 'alias'], {env, cwd: root});
	assert.equal(again.code, 0, again.stderr);
	assert.equal(JSON.parse(again.stdout).workspace, workspace);
	assert.equal(JSON.parse(again.stdout).workspace_id, paths.workspace_id);
	// Without -C: the current folder.
	const here = await runCli(['--runtime', 'paths', '--json'], {env, cwd: workspace});
	assert.equal(JSON.parse(here.stdout).workspace_id, paths.workspace_id);

	const other = join(root, 'other');
	await mkdir(other);
	const third = await runCli(['--runtime', 'paths', '--json', '-C', other], {env});
	assert.notEqual(JSON.parse(third.stdout).workspace_id, paths.workspace_id);
});

test('--runtime paths errors exit 2 with a message', async t => {
	const {root, workspace, env} = await setup(t);
	const missing = await runCli(['--runtime', 'paths', '-C', join(root, 'nope')], {env});
	assert.equal(missing.code, 2);
	assert.equal(missing.stdout, '');
	assert.equal(missing.stderr, `i: --runtime paths: workspace ${join(root, 'nope')}: does not exist\n`);

	const nested = await runCli(['--runtime', 'paths', '-C', workspace], {env: {...env, I_DATA_DIR: join(root, 'cache', 'data')}});
	assert.equal(nested.code, 2);
	assert.equal(nested.stderr, `i: --runtime paths: I_DATA_DIR (${root}/cache/data) may not be inside I_CACHE_DIR (${root}/cache): what is there may be deleted\n`);

	const flag = await runCli(['--runtime', 'paths', '--jsn'], {env});
	assert.equal(flag.code, 2);
	assert.equal(flag.stderr, 'i: --runtime paths: unknown flag --jsn (did you mean --json?); see i --help\n');

	await mkdir(join(root, 'data'));
	await writeFile(join(root, 'data', 'workspaces.json'), '{');
	const corrupt = await runCli(['--runtime', 'paths', '-C', workspace], {env});
	assert.equal(corrupt.code, 2);
	assert.match(corrupt.stderr, /^i: --runtime paths: workspace registry .*workspaces\.json is corrupt \(not valid JSON/);
});

test('--runtime paths with the folders from ~/.i when no I_*_DIR is set', async t => {
	const {root, workspace} = await setup(t);
	const run = await runCli(['--runtime', 'paths', '-C', workspace, '--json'], {env: {PATH: process.env.PATH, HOME: root}});
	assert.equal(run.code, 0, run.stderr);
	const paths = JSON.parse(run.stdout);
	assert.equal(paths.config_dir, join(root, '.i', 'config'));
	assert.equal(paths.runtime_dir, join(root, '.i', 'runtime'));
	assert.equal(paths.workspace_state_dir, join(root, '.i', 'data', 'workspaces', paths.workspace_id));
});
