import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {AuthFile, type CredentialStore, type StoredCredential} from '../../source/core/auth/auth-file.js';
import {resolveCredential, type AuthSubject} from '../../source/core/auth/resolve-credential.js';

const now = Date.UTC(2026, 11, 1, 12, 0);
const hour = 3_600_000;

function storeOf(entries: Record<string, StoredCredential>): CredentialStore {
	return {path: '/cfg/auth.json', read: () => new Map(Object.entries(entries))};
}

const deepseek: AuthSubject = {provider: 'deepseek', apiKeyEnv: 'DEEPSEEK_API_KEY', requiresAuth: true, modelsJsonKeyEnv: 'MY_DS_KEY', modelsJsonPath: '/cfg/models.json'};
const everything = {
	store: storeOf({deepseek: {type: 'api_key', key: 'from-auth-json'}}),
	env: {MY_DS_KEY: 'from-models-json', DEEPSEEK_API_KEY: 'from-declared-env'},
	now,
};

test('the order: --api-key beats auth.json beats models.json beats the declared variable beats anonymous', () => {
	const anonymous = {...deepseek, requiresAuth: false};
	const flag = resolveCredential(anonymous, {...everything, apiKeyFlag: 'from-flag'});
	assert.deepEqual(flag, {ok: true, key: 'from-flag', source: 'flag', detail: '--api-key (this run only)', skipped: []});
	const stored = resolveCredential(anonymous, everything);
	assert.deepEqual(stored, {ok: true, key: 'from-auth-json', source: 'auth.json', detail: 'auth.json (API key)', skipped: []});
	const models = resolveCredential(anonymous, {...everything, store: storeOf({})});
	assert.deepEqual(models, {ok: true, key: 'from-models-json', source: 'models.json', detail: 'MY_DS_KEY (named by "apiKey" in /cfg/models.json)', skipped: []});
	const declared = resolveCredential(anonymous, {...everything, store: storeOf({}), env: {DEEPSEEK_API_KEY: 'from-declared-env'}});
	assert.deepEqual(declared, {
		ok: true,
		key: 'from-declared-env',
		source: 'env',
		detail: 'DEEPSEEK_API_KEY',
		skipped: ['environment variable MY_DS_KEY is not set (named by "apiKey" in /cfg/models.json)'],
	});
	const none = resolveCredential(anonymous, {...everything, store: storeOf({}), env: {}});
	assert.equal(none.ok && none.source, 'anonymous');
	assert.equal(none.ok && none.key, undefined);
	assert.equal(none.ok && none.detail, 'anonymous (deepseek allows requests without a key)');
});

test('an OAuth token counts until it expires, and an expired one is skipped and named', () => {
	const valid = resolveCredential(deepseek, {...everything, store: storeOf({deepseek: {type: 'oauth', access: 'access-token', refresh: 'r', expires: now + hour}})});
	assert.deepEqual(valid, {ok: true, key: 'access-token', source: 'auth.json', detail: 'auth.json (OAuth token valid until 2026-12-01 13:00 UTC)', skipped: [], oauthExpires: now + hour});
	// At the exact expiry the token is no longer good: no refresh is attempted (local state only).
	for (const expires of [now, now - hour]) {
		const expired = resolveCredential(deepseek, {...everything, store: storeOf({deepseek: {type: 'oauth', access: 'access-token', expires}})});
		assert.ok(expired.ok);
		assert.equal(expired.source, 'models.json');
		assert.match(expired.skipped[0]!, /^the OAuth token for deepseek in auth\.json \(\/cfg\/auth\.json\) expired 2026-12-01 1[12]:00 UTC$/);
	}
});

test('with an extension OAuth flow, an expired token with a refresh token counts ("expired, refresh possible"); without a refresh token it is skipped', () => {
	const flow = {...deepseek, oauthFlow: true};
	const refreshable = resolveCredential(flow, {...everything, store: storeOf({deepseek: {type: 'oauth', access: 'access-token', refresh: 'r', expires: now}})});
	assert.ok(refreshable.ok);
	assert.equal(refreshable.detail, 'auth.json (OAuth token expired 2026-12-01 12:00 UTC, refresh possible)');
	assert.equal(refreshable.oauthExpires, now);
	const stuck = resolveCredential(flow, {...everything, store: storeOf({deepseek: {type: 'oauth', access: 'access-token', expires: now}})});
	assert.ok(stuck.ok);
	assert.equal(stuck.source, 'models.json');
	assert.match(stuck.skipped[0]!, /expired 2026-12-01 12:00 UTC and there is no refresh token$/);
	// Without a flow nobody could refresh it: the refresh token does not make it count.
	const noFlow = resolveCredential(deepseek, {...everything, store: storeOf({deepseek: {type: 'oauth', access: 'access-token', refresh: 'r', expires: now}})});
	assert.ok(noFlow.ok);
	assert.equal(noFlow.source, 'models.json');
});

test('blank values do not count anywhere: each is skipped and said when nothing is found', () => {
	const blank = resolveCredential(deepseek, {
		apiKeyFlag: '   ',
		store: storeOf({deepseek: {type: 'api_key', key: ' \t'}}),
		env: {MY_DS_KEY: '', DEEPSEEK_API_KEY: '  '},
		now,
	});
	assert.equal(blank.ok, false);
	assert.ok(!blank.ok && blank.kind === 'missing');
	assert.equal(
		blank.reason,
		'no API key for deepseek: --api-key is blank; the key for deepseek in auth.json (/cfg/auth.json) is blank; ' +
			'environment variable MY_DS_KEY is blank (named by "apiKey" in /cfg/models.json); environment variable DEEPSEEK_API_KEY is blank; ' +
			'export MY_DS_KEY with your API key or run i auth login deepseek',
	);
	const blankToken = resolveCredential({provider: 'x', requiresAuth: true}, {store: storeOf({x: {type: 'oauth', access: '', expires: now + hour}}), env: {}, now});
	assert.ok(!blankToken.ok && blankToken.kind === 'missing');
	assert.match(blankToken.reason, /the OAuth token for x in auth\.json \(\/cfg\/auth\.json\) is blank; x declares no key variable; run i auth login x$/);
});

test('the protocol never implies a key: OPENAI_API_KEY is not a DeepSeek key, and one provider never gets another one entry', () => {
	const subject: AuthSubject = {provider: 'deepseek', apiKeyEnv: 'DEEPSEEK_API_KEY', requiresAuth: true};
	const result = resolveCredential(subject, {store: storeOf({openai: {type: 'api_key', key: 'openai-key'}}), env: {OPENAI_API_KEY: 'sk-openai'}, now});
	assert.ok(!result.ok && result.kind === 'missing');
	assert.equal(
		result.reason,
		'no API key for deepseek: auth.json (/cfg/auth.json) has no entry for deepseek; environment variable DEEPSEEK_API_KEY is not set; export DEEPSEEK_API_KEY with your API key or run i auth login deepseek',
	);
	assert.doesNotMatch(result.reason, /openai-key|sk-openai/);
});

test('a broken auth.json is a configuration error, not missing credentials; --api-key is used without reading it', () => {
	const dir = mkdtempSync(join(tmpdir(), 'i-auth-'));
	const path = join(dir, 'auth.json');
	writeFileSync(path, '{"deepseek": {"type": "api_key", "key": "sk-', {mode: 0o600});
	const store = new AuthFile(path);
	const broken = resolveCredential(deepseek, {store, env: {DEEPSEEK_API_KEY: 'k'}});
	assert.ok(!broken.ok && broken.kind === 'config');
	assert.match(broken.reason, new RegExp(`^auth file ${path}: not valid JSON`));
	const flag = resolveCredential(deepseek, {store, env: {}, apiKeyFlag: 'k'});
	assert.equal(flag.ok && flag.source, 'flag');
});
