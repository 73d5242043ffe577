import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import * as z from 'zod/mini';
import {loadModuleConfig, MAX_MODULE_CONFIG_BYTES, moduleConfigPath, resolveFromConfig} from '../../source/core/config/module-config.js';
import {dirsUnder, tempDir} from './helpers.js';

const schema = z.strictObject({
	mode: z._default(z.enum(['ask', 'auto']), 'ask'),
	file: z.optional(z.string()),
	nested: z.optional(z.strictObject({limit: z.int()})),
});

test('the config path: an explicit file against the cwd, else <config_dir>/<module>.json', () => {
	const dirs = dirsUnder('/home/u/.i');
	assert.equal(moduleConfigPath('approval', undefined, dirs), '/home/u/.i/config/approval.json');
	assert.equal(moduleConfigPath('approval', 'mine.json', dirs, '/work'), '/work/mine.json');
	assert.equal(moduleConfigPath('approval', '../x/mine.json', dirs, '/work/sub'), '/work/x/mine.json');
	assert.equal(moduleConfigPath('approval', '/etc/a.json', dirs, '/work'), '/etc/a.json');
	assert.equal(moduleConfigPath('approval', 'rel.json', dirs), join(process.cwd(), 'rel.json'));
});

test('a missing default file means the defaults; a missing explicit file is an error', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	assert.deepEqual(await loadModuleConfig('approval', schema, {dirs}), {path: join(dirs.config_dir, 'approval.json'), found: false, config: {mode: 'ask'}});
	await assert.rejects(loadModuleConfig('approval', schema, {dirs, explicit: 'nope.json', cwd: root}), {
		name: 'UsageError',
		message: `approval config ${join(root, 'nope.json')} does not exist (named by --config)`,
	});
	const required = z.strictObject({url: z.string()});
	await assert.rejects(loadModuleConfig('web', required, {dirs}), {
		message: `web config ${join(dirs.config_dir, 'web.json')} does not exist and the web module has no default for it: missing field "url"`,
	});
});

test('the explicit file wins over the default one', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	await mkdir(dirs.config_dir);
	await writeFile(join(dirs.config_dir, 'approval.json'), '{"mode":"ask"}');
	await writeFile(join(root, 'mine.json'), '{"mode":"auto"}');
	const loaded = await loadModuleConfig('approval', schema, {dirs, explicit: 'mine.json', cwd: root});
	assert.deepEqual(loaded, {path: join(root, 'mine.json'), found: true, config: {mode: 'auto'}});
	assert.deepEqual((await loadModuleConfig('approval', schema, {dirs})).config, {mode: 'ask'});
});

test('validation is strict and every error names the file and the field', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	await mkdir(dirs.config_dir);
	const path = join(dirs.config_dir, 'approval.json');
	const failure = async (text: string) => {
		await writeFile(path, text);
		const error = await loadModuleConfig('approval', schema, {dirs}).then(
			() => assert.fail('accepted'),
			(error: Error) => error,
		);
		assert.equal(error.name, 'UsageError');
		return error.message;
	};

	assert.equal(await failure('{"mode":"auto","extra":1}'), `approval config ${path}: unknown field "extra"`);
	assert.equal(await failure('{"nested":{"limit":1,"x":2,"y":3}}'), `approval config ${path}: unknown fields "x", "y" in "nested"`);
	assert.equal(await failure('{"mode":"never"}'), `approval config ${path}: field "mode": Invalid option: expected one of "ask"|"auto"`);
	assert.equal(await failure('{"nested":{}}'), `approval config ${path}: missing field "nested.limit"`);
	assert.equal(await failure('{"nested":{"limit":1.5}}'), `approval config ${path}: field "nested.limit": Invalid input: expected int, received number`);
	assert.match(await failure('{"mode":'), new RegExp(`^approval config ${path}: not valid JSON \\(`));
	assert.match(await failure('[]'), new RegExp(`^approval config ${path}: field "\\(top level\\)": `));
});

test('a config is read up to 1 MiB: at the limit it is used, one byte over it is refused', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	await mkdir(dirs.config_dir);
	const path = join(dirs.config_dir, 'approval.json');
	const json = '{"mode":"auto"}';
	await writeFile(path, json + ' '.repeat(MAX_MODULE_CONFIG_BYTES - json.length));
	assert.deepEqual((await loadModuleConfig('approval', schema, {dirs})).config, {mode: 'auto'});
	await writeFile(path, json + ' '.repeat(MAX_MODULE_CONFIG_BYTES - json.length + 1));
	await assert.rejects(loadModuleConfig('approval', schema, {dirs}), {
		message: `approval config ${path}: the file is over 1048576 bytes, too big for a config file`,
	});
});

test("files a config names resolve against the config file's folder", async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	await mkdir(join(root, 'elsewhere'));
	await writeFile(join(root, 'elsewhere', 'prompts.json'), '{"file":"prompts/system.txt"}');
	const loaded = await loadModuleConfig('prompts', schema, {dirs, explicit: 'elsewhere/prompts.json', cwd: root});
	assert.equal(resolveFromConfig(loaded.path, loaded.config.file!), join(root, 'elsewhere', 'prompts', 'system.txt'));
	assert.equal(resolveFromConfig(loaded.path, '/abs/file.txt'), '/abs/file.txt');
	assert.equal(resolveFromConfig('/c/prompts.json', '../p.txt'), '/p.txt');
});
