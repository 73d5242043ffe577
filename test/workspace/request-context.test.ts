import assert from 'node:assert/strict';
import {mkdir, symlink} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {validatePaths, validateRequestContext} from '../../source/core/config/request-context.js';
import {dirsUnder, tempDir} from './helpers.js';

const id = 'f29127b0-f512-4c6e-9e31-87d476d168ce';
const paths = {config_dir: '/app/config', data_dir: '/app/data', cache_dir: '/app/cache', runtime_dir: '/app/runtime'};

function refused(frame: Record<string, unknown>, message: string | RegExp) {
	assert.throws(() => validateRequestContext(frame), {name: 'RequestContextError', message});
}

test('a frame without context has none; a full context comes back typed', () => {
	assert.deepEqual(validateRequestContext({id: 1, event: 'tool', data: {}}), {});
	assert.deepEqual(validateRequestContext({id: 2, event: 'tool', workspace: '/authorized/project', workspace_id: id, paths, data: {}}), {
		workspace: '/authorized/project',
		workspace_id: id,
		paths,
	});
	// Each part stands alone.
	assert.deepEqual(validateRequestContext({workspace: '/w'}), {workspace: '/w'});
	assert.deepEqual(validateRequestContext({paths}), {paths});
});

test('workspace must be an absolute path', () => {
	refused({workspace: 'project'}, 'field "workspace" must be an absolute path (got "project")');
	refused({workspace: ''}, 'field "workspace" must be an absolute path (got "")');
	refused({workspace: 42}, 'field "workspace" must be an absolute path (got 42)');
});

test('workspace_id must be a UUID', () => {
	refused({workspace_id: 'f29127b0f5124c6e9e3187d476d168ce'}, 'field "workspace_id" must be a UUID (got "f29127b0f5124c6e9e3187d476d168ce")');
	refused({workspace_id: `${id}x`}, /^field "workspace_id" must be a UUID/);
	refused({workspace_id: 7}, 'field "workspace_id" must be a UUID (got 7)');
});

test('paths must hold exactly the four folders, each absolute and without ".."', () => {
	refused({paths: '/app'}, 'field "paths" must be an object with config_dir, data_dir, cache_dir, runtime_dir');
	refused({paths: [paths]}, /^field "paths" must be an object/);
	for (const key of Object.keys(paths)) {
		const {[key as keyof typeof paths]: _, ...rest} = paths;
		refused({paths: rest}, `field "paths.${key}" is missing: all of config_dir, data_dir, cache_dir, runtime_dir are required`);
	}

	refused({paths: {...paths, data_dir: 'app/data'}}, 'field "paths.data_dir" must be an absolute path (got "app/data")');
	refused({paths: {...paths, runtime_dir: null}}, 'field "paths.runtime_dir" must be an absolute path (got null)');
	refused({paths: {...paths, cache_dir: '/app/x/../cache'}}, 'field "paths.cache_dir" may not contain a ".." segment (got "/app/x/../cache")');
	refused({paths: {...paths, config_dir: '/app/..'}}, /^field "paths.config_dir" may not contain a "\.\." segment/);
	// A name that merely contains dots is fine.
	assert.equal(validateRequestContext({paths: {...paths, config_dir: '/app/..config'}}).paths?.config_dir, '/app/..config');
	refused({paths: {...paths, home: '/root'}}, 'field "paths": unknown field "home"; only config_dir, data_dir, cache_dir, runtime_dir are allowed');
});

test('config and data may not be inside cache or runtime, nor equal to them', () => {
	refused({paths: {...paths, config_dir: '/app/cache/config'}}, 'field "paths.config_dir" (/app/cache/config) may not be inside field "paths.cache_dir" (/app/cache): what is there may be deleted');
	refused({paths: {...paths, data_dir: '/app/runtime'}}, /^field "paths.data_dir" \(\/app\/runtime\) may not be inside field "paths.runtime_dir"/);
	refused({paths: {...paths, data_dir: '/app/runtime/'}}, /^field "paths.data_dir" .* may not be inside field "paths.runtime_dir"/);
	// Cache inside data is allowed: only durable-inside-disposable is refused; a shared prefix is not nesting.
	assert.ok(validateRequestContext({paths: {...paths, cache_dir: '/app/data/cache', runtime_dir: '/app/configuration'}}).paths);
});

test('nesting is also found through symlinks that resolve now, including below a missing folder', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	await mkdir(dirs.cache_dir);
	// "state" looks unrelated but is the cache folder under another name.
	await symlink(dirs.cache_dir, join(root, 'state'));
	const aliased = {...dirs, data_dir: join(root, 'state', 'data')};
	assert.throws(() => validatePaths(aliased), {
		message: `field "paths.data_dir" (${aliased.data_dir}) may not be inside field "paths.cache_dir" (${dirs.cache_dir}): what is there may be deleted`,
	});
	// The other way round: the cache named through a link to the config folder.
	await mkdir(dirs.config_dir);
	await symlink(join(root, 'config'), join(root, 'cache-link'));
	assert.throws(() => validatePaths({...dirs, cache_dir: join(root, 'cache-link')}), /^RequestContextError: field "paths.config_dir" .* may not be inside field "paths.cache_dir"/);
	assert.deepEqual(validatePaths(dirs), dirs);
});

test('paths may be labelled for other sources (the I_*_DIR variables)', () => {
	assert.throws(() => validatePaths({...paths, config_dir: '/app/cache/c'}, key => `I_${key.replace('_dir', '').toUpperCase()}_DIR`), {
		message: 'I_CONFIG_DIR (/app/cache/c) may not be inside I_CACHE_DIR (/app/cache): what is there may be deleted',
	});
});

test('resources: skill and prompt folders, each an absolute path with its origin, at most 1024 of a kind', () => {
	const resources = {skills: [{path: '/s', origin: '--skill'}], prompts: []};
	assert.deepEqual(validateRequestContext({resources}), {resources});
	assert.deepEqual(validateRequestContext({resources: {}}), {resources: {}});
	const folders = (count: number) => Array.from({length: count}, (_, index) => ({path: `/f/${index}`, origin: 'x'}));
	assert.equal(validateRequestContext({resources: {prompts: folders(1024)}}).resources?.prompts?.length, 1024);
	refused({resources: {prompts: folders(1025)}}, 'field "resources": field "prompts": at most 1024 folders');
	refused({resources: {skills: [{path: 'rel', origin: 'x'}]}}, 'field "resources": field "skills.0.path": must be an absolute path');
	refused({resources: {skills: [{path: '/a'}]}}, 'field "resources": missing field "skills.0.origin"');
	refused({resources: {themes: []}}, 'field "resources": unknown field "themes"');
	refused({resources: []}, /^field "resources": /);
});
