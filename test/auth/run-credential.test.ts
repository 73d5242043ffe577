import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {checkModelConfig} from '../../source/core/config/load-config.js';
import {credentialSecrets, runCredential} from '../../source/core/auth/run-credential.js';

function configDir(auth?: unknown): string {
	const dir = mkdtempSync(join(tmpdir(), 'i-run-credential-'));
	if (auth !== undefined) writeFileSync(join(dir, 'auth.json'), JSON.stringify(auth), {mode: 0o600});
	return dir;
}

const loaded = (config: Record<string, unknown>) => checkModelConfig({model: 'm', ...config}, '/cfg/config.json');

test('the shell tool hides the key in use whatever its source, and the variables that may hold one', () => {
	const env = {MY_KEY: 'sk-env-value', OTHER: 'x'};
	const fromFlag = runCredential(loaded({protocol: 'openai', api_key_env: 'MY_KEY'}), {hostSendsKey: true, apiKeyFlag: 'sk-flag', configDir: configDir(), env});
	assert.equal(fromFlag.key, 'sk-flag');
	assert.deepEqual(fromFlag.secrets, {names: ['MY_KEY'], values: ['sk-env-value', 'sk-flag']});
	const fromFile = runCredential(loaded({protocol: 'anthropic', api_key_env: 'MY_KEY'}), {hostSendsKey: true, configDir: configDir({anthropic: {type: 'api_key', key: 'sk-file'}}), env});
	assert.equal(fromFile.key, 'sk-file');
	assert.deepEqual(fromFile.secrets, {names: ['MY_KEY'], values: ['sk-env-value', 'sk-file']});
	assert.deepEqual(credentialSecrets({provider: 'p', requiresAuth: true, apiKeyEnv: 'A', modelsJsonKeyEnv: 'B'}, 'k', {A: '', B: 'b'}), {names: ['B', 'A'], values: ['b', 'k']});
	assert.deepEqual(credentialSecrets({provider: 'p', requiresAuth: false}, undefined, {}), {names: [], values: []});
});

test("the responses protocol uses openai's auth.json entry; a provider worker or extension provider resolves nothing and refuses --api-key", () => {
	const responses = runCredential(loaded({protocol: 'responses'}), {hostSendsKey: true, configDir: configDir({openai: {type: 'api_key', key: 'sk-openai-file'}}), env: {}});
	assert.equal(responses.key, 'sk-openai-file');
	const worker = runCredential(loaded({protocol: 'mine', api_key_env: 'MY_KEY'}), {hostSendsKey: false, configDir: configDir('broken is never read'), env: {MY_KEY: 'v'}});
	assert.deepEqual(worker, {key: undefined, secrets: {names: ['MY_KEY'], values: ['v']}});
	assert.throws(
		() => runCredential(loaded({protocol: 'mine'}), {hostSendsKey: false, apiKeyFlag: 'sk-never-shown', configDir: configDir(), env: {}}),
		(error: Error) => error.name === 'UsageError' && /^--api-key: "mine" \(config \/cfg\/config\.json\) is served by/.test(error.message) && !error.message.includes('sk-never'),
	);
});

test('nothing found: the variable that is not set and where it was named; without api_key_env, the field named as before', () => {
	assert.throws(
		() => runCredential(loaded({protocol: 'deepseek', api_key_env: 'NOT_SET_ANYWHERE'}), {hostSendsKey: true, configDir: configDir(), env: {}}),
		(error: Error) =>
			error.name === 'UsageError' &&
			/^no API key for deepseek: auth\.json \(.*\) has no entry for deepseek; environment variable NOT_SET_ANYWHERE is not set \(named by "api_key_env" in \/cfg\/config\.json\); export NOT_SET_ANYWHERE with your API key or run i auth login deepseek$/.test(
				error.message,
			),
	);
	assert.throws(
		() => runCredential(loaded({protocol: 'openai'}), {hostSendsKey: true, configDir: configDir(), env: {OPENAI_API_KEY: 'sk-not-implied'}}),
		(error: Error) =>
			error.message.startsWith('config /cfg/config.json: missing field "api_key_env": the name of the environment variable that holds the API key (auth.json (') &&
			error.message.endsWith('has no entry for openai; openai declares no key variable); set it, pass --api-key, or run i auth login openai'),
	);
});
