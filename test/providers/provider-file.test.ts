import assert from 'node:assert/strict';
import {mkdtemp, mkdir, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {checkModelConfig} from '../../source/core/config/load-config.js';
import {accountScope, filesChannelAuthorised, loadProviderFile} from '../../source/core/config/provider-file.js';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {UsageError} from '../../source/core/errors.js';

async function dirsFor(t: TestContext): Promise<PlatformDirs> {
	const root = await realpath(await mkdtemp(join(tmpdir(), 'i-provider-file-')));
	t.after(async () => rm(root, {recursive: true, force: true}));
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	await mkdir(dirs.config_dir);
	return dirs;
}

const api = (fields: Record<string, unknown> = {}) => checkModelConfig({protocol: 'deepseek', model: 'm', api_key_env: 'DEEPSEEK_API_KEY', ...fields}, '/c/config.json');

test('provider.json is <config_dir>/provider.json; without it the default is {"images": "base64"}', async t => {
	const dirs = await dirsFor(t);
	const missing = loadProviderFile(dirs);
	assert.equal(missing.path, join(dirs.config_dir, 'provider.json'));
	assert.equal(missing.found, false);
	assert.deepEqual(missing.config, {images: 'base64', auto_refresh: false, auto_prune: false});
	await writeFile(missing.path, JSON.stringify({images: 'files', account_scope: 'team-a', expires_after_seconds: 3600}));
	assert.deepEqual(loadProviderFile(dirs).config, {images: 'files', account_scope: 'team-a', expires_after_seconds: 3600, auto_refresh: false, auto_prune: false});
});

test('every field of provider.json is checked; errors name the file and the field', async t => {
	const dirs = await dirsFor(t);
	const path = join(dirs.config_dir, 'provider.json');
	const cases: Array<[unknown, RegExp]> = [
		[{images: 'url'}, /field "images"/],
		[{imgs: 'files'}, /unknown field "imgs"/],
		[{images: 'files', expires_after_seconds: 3599}, /field "expires_after_seconds"/],
		[{images: 'files', expires_after_seconds: 2_592_001}, /field "expires_after_seconds"/],
		[{images: 'files', account_scope: 'sk live key'}, /field "account_scope": must be 1–64/],
		[{images: 'files', account_scope: 'x'.repeat(65)}, /field "account_scope"/],
		[{images: 'files', auto_refresh: 'yes'}, /field "auto_refresh"/],
		// Files-only fields with inline images are a mistake, not silently ignored.
		[{expires_after_seconds: 3600}, /field "expires_after_seconds": applies only with "images": "files"/],
		[{auto_prune: true}, /field "auto_prune": applies only with "images": "files"/],
		[[], /provider config/],
	];
	for (const [json, pattern] of cases) {
		await writeFile(path, JSON.stringify(json));
		assert.throws(
			() => loadProviderFile(dirs),
			(error: Error) => error instanceof UsageError && error.message.startsWith(`provider config ${path}: `) && pattern.test(error.message),
			JSON.stringify(json),
		);
	}

	// The limits themselves are accepted.
	for (const seconds of [3600, 2_592_000]) {
		await writeFile(path, JSON.stringify({images: 'files', expires_after_seconds: seconds}));
		assert.equal(loadProviderFile(dirs).config.expires_after_seconds, seconds);
	}

	await writeFile(path, '{"images": ');
	assert.throws(() => loadProviderFile(dirs), /^UsageError: provider config .*provider\.json: not valid JSON/);
});

test('the Files channel needs both authorisations: each alone is refused naming the other and where to set it', async t => {
	const dirs = await dirsFor(t);
	const path = join(dirs.config_dir, 'provider.json');
	// Neither: inline images, nothing to refuse.
	assert.equal(filesChannelAuthorised(api(), loadProviderFile(dirs)), false);
	// provider_operations alone.
	assert.throws(
		() => filesChannelAuthorised(api({provider_operations: true}), loadProviderFile(dirs)),
		(error: Error) =>
			error instanceof UsageError &&
			error.message.includes('config /c/config.json: "provider_operations": true') &&
			error.message.includes(`set "images": "files" in ${path}`) &&
			error.message.includes('the file does not exist'),
	);
	// provider.json alone.
	await writeFile(path, JSON.stringify({images: 'files'}));
	assert.throws(
		() => filesChannelAuthorised(api(), loadProviderFile(dirs)),
		(error: Error) => error instanceof UsageError && error.message.startsWith(`provider config ${path}: "images": "files"`) && error.message.includes('set "provider_operations": true in /c/config.json'),
	);
	// Both.
	assert.equal(filesChannelAuthorised(api({provider_operations: true}), loadProviderFile(dirs)), true);
	// Both, but not DeepSeek: its Files API is the only one the channel speaks.
	assert.throws(() => filesChannelAuthorised(api({provider_operations: true, protocol: 'openai'}), loadProviderFile(dirs)), /uses DeepSeek's Files API, but the API config .* has "protocol": "openai"/);
	// By catalogue the rule is the same: DeepSeek's provider has the channel, whoever chose it.
	const warnings: string[] = [];
	const warn = (message: string) => warnings.push(message);
	assert.equal(filesChannelAuthorised(api({provider_operations: true}), loadProviderFile(dirs), {provider: 'deepseek', label: 'deepseek/deepseek-flash (--model)', chosenByConfig: false}, warn), true);
	// Another provider a flag or a switch chose: its images go inline, and it is said.
	assert.equal(filesChannelAuthorised(api({provider_operations: true}), loadProviderFile(dirs), {provider: 'openai', label: 'openai/gpt-5 (--model)', chosenByConfig: false}, warn), false);
	assert.deepEqual(warnings, [`images to openai/gpt-5 (--model) go inline: the Files channel of ${path} is DeepSeek's`]);
	// Another provider the config chose: refused, as a protocol is.
	assert.throws(
		() => filesChannelAuthorised(checkModelConfig({provider: 'openai', provider_operations: true}, '/c/config.json'), loadProviderFile(dirs), {provider: 'openai', label: 'openai/gpt-5', chosenByConfig: true}),
		/uses DeepSeek's Files API, but the API config .* chooses openai\/gpt-5; use it with "provider": "deepseek"/,
	);
	// Either authorisation alone is refused by catalogue too.
	assert.throws(() => filesChannelAuthorised(api(), loadProviderFile(dirs), {provider: 'deepseek', label: 'deepseek/deepseek-flash (--model)', chosenByConfig: false}), /set "provider_operations": true/);
});

test('the account scope is the configured name, else the key variable and the endpoint: never a key', () => {
	const loaded = api();
	assert.equal(accountScope(loaded.config.api_key_env, {images: 'files', auto_refresh: false, auto_prune: false, account_scope: 'team-a'}, 'https://api.deepseek.com'), 'team-a');
	assert.equal(accountScope(loaded.config.api_key_env, {images: 'files', auto_refresh: false, auto_prune: false}, 'https://api.deepseek.com/'), 'DEEPSEEK_API_KEY@https://api.deepseek.com');
});
