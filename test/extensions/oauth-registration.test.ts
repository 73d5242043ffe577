// api.registerOAuthProvider (spec/extensions.md §11): what it takes, checked
// field by field at load, and for which provider ids it counts.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {loadExtensions} from '../../source/core/extensions/load-extensions.js';
import {MAX_TOKEN_TIMEOUT_MS, MIN_TOKEN_TIMEOUT_MS} from '../../source/core/extensions/check-oauth.js';

const provider = (id: string) => `api.registerStreamingProvider({id: '${id}', apiStyle: 'x', request: async () => ({role: 'assistant', content: 'ok'})});`;
const declared = (id: string) => `api.declare({providers: [{id: '${id}', models: [{id: 'm', name: 'M', provider: '${id}', api: 'x'}]}]});`;
const flow = (fields: Record<string, unknown>) =>
	JSON.stringify({id: 'cloud', clientId: 'client-1', tokenUrl: 'https://auth.example.com/token', authorizationUrl: 'https://auth.example.com/authorize', ...fields});

async function loadOne(body: string) {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), 'i-oauth-')));
	const path = join(dir, 'cloud.mjs');
	writeFileSync(path, `export default function register(api) { ${body} }`);
	return loadExtensions({candidates: [{path, origin: 'flag', project: false, listedIn: '--extension'}], trusted: true, takenToolNames: new Map()});
}

async function failure(body: string): Promise<string> {
	const {extensions, reports} = await loadOne(body);
	assert.deepEqual(extensions, []);
	assert.equal(reports[0]?.kind, 'failed');
	return (reports[0] as {message: string}).message;
}

test('a registration of a provider the extension registers and declares loads, copied with its defaults', async () => {
	const {extensions, reports} = await loadOne(`${provider('cloud')} ${declared('cloud')} api.registerOAuthProvider(${flow({scopes: ['a', 'b']})});`);
	assert.deepEqual(reports, []);
	const [checked] = extensions[0]!.oauth;
	assert.deepEqual(
		{...checked, toApiKey: typeof checked!.toApiKey},
		{
			id: 'cloud',
			name: 'cloud',
			clientId: 'client-1',
			scopes: ['a', 'b'],
			authorizationUrl: 'https://auth.example.com/authorize',
			deviceAuthorizationUrl: undefined,
			tokenUrl: 'https://auth.example.com/token',
			authorizationParams: {},
			tokenTimeoutMs: 30_000,
			toApiKey: 'undefined',
		},
	);
});

test('an id the extension did not register, or did not declare, fails the extension naming the id', async () => {
	assert.match(await failure(`${provider('cloud')} ${declared('cloud')} api.registerOAuthProvider(${flow({id: 'other'})});`), /registerOAuthProvider: "other" is not a provider this extension registers/);
	assert.match(await failure(`${provider('cloud')} api.registerOAuthProvider(${flow({})});`), /provider "cloud" is not in this extension's catalogue; list it in declare\(\{providers\}\)/);
	assert.match(await failure(`${provider('cloud')} ${declared('cloud')} api.registerOAuthProvider(${flow({})}); api.registerOAuthProvider(${flow({})});`), /registered an OAuth flow for "cloud" already/);
});

test('each field is checked: endpoints https (http only to this machine), a flow, no flow parameters, the timeout bounds at the limit and one past', async () => {
	const base = `${provider('cloud')} ${declared('cloud')}`;
	const cases: Array<[Record<string, unknown>, RegExp]> = [
		[{tokenUrl: 'http://auth.example.com/token'}, /tokenUrl must be an https:\/\/ URL \(http:\/\/ only to 127\.0\.0\.1, localhost or \[::1\]\)/],
		[{authorizationUrl: undefined}, /give authorizationUrl \(authorization code with PKCE\), deviceAuthorizationUrl \(device code\), or both/],
		[{clientId: ''}, /clientId must be 1–512 characters/],
		[{scopes: ['a b']}, /scopes\[0\] holds a space/],
		[{authorizationParams: {redirect_uri: 'https://evil.example'}}, /"redirect_uri" is set by the host's flow/],
		[{tokenUrl: 'https://user:pw@auth.example.com/token'}, /may not hold a user name or password/],
		[{tokenTimeoutMs: MIN_TOKEN_TIMEOUT_MS - 1}, /tokenTimeoutMs must be a whole number of milliseconds from 1000 to 60000 \(got 999\)/],
		[{tokenTimeoutMs: MAX_TOKEN_TIMEOUT_MS + 1}, /\(got 60001\)/],
	];
	for (const [fields, message] of cases) {
		const body = `${base} api.registerOAuthProvider(${flow(fields)});`;
		assert.match(await failure(body), message, JSON.stringify(fields));
	}

	for (const tokenTimeoutMs of [MIN_TOKEN_TIMEOUT_MS, MAX_TOKEN_TIMEOUT_MS]) {
		const {extensions} = await loadOne(`${base} api.registerOAuthProvider(${flow({tokenTimeoutMs, tokenUrl: 'http://127.0.0.1:9/token'})});`);
		assert.equal(extensions[0]!.oauth[0]!.tokenTimeoutMs, tokenTimeoutMs);
	}

	assert.match(await failure(`${base} api.registerOAuthProvider({...${flow({})}, toApiKey: 'x'});`), /toApiKey must be a function/);
});
