// The catalogue's parts on their own: lookups and their errors, the
// declare({providers}) checks at each limit and one past, models.json's
// checks and merge, the private bindings kept apart from the public
// entries, and credentialFor.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Catalogue, type CatalogueLookupError, type CatalogueProvider} from '../../source/core/catalogue/catalogue.js';
import {builtinProviders} from '../../source/core/catalogue/builtin-providers.js';
import {buildCatalogue, type ExtensionCatalogueEntry} from '../../source/core/catalogue/build-catalogue.js';
import {checkModelsFile, readModelsFile} from '../../source/core/catalogue/models-file.js';
import {credentialFor} from '../../source/core/catalogue/credential-for.js';
import {checkCatalogue} from '../../source/core/extensions/check-catalogue.js';
import {
	MAX_MODEL_ID_LENGTH,
	MAX_MODEL_NAME_LENGTH,
	MAX_MODELS_PER_PROVIDER,
	MAX_CATALOGUE_PROVIDERS,
	MAX_HEADERS,
	MAX_HEADER_VALUE_LENGTH,
	MAX_PRICE,
	MAX_TOKEN_COUNT,
} from '../../source/core/catalogue/catalogue-fields.js';
import {MAX_CONFIG_BYTES} from '../../source/core/config/load-config.js';
import {loadExtensions} from '../../source/core/extensions/load-extensions.js';

const model = (id: string, provider = 'p', fields: Record<string, unknown> = {}) => ({id, name: `Model ${id}`, provider, api: 'openai-completions', ...fields});
const entry = (fields: Record<string, unknown> = {}) => ({id: 'p', models: [model('m1')], ...fields});

test('lookups: provider/model, a bare model id, a model id holding "/"; an unknown or ambiguous one names the nearest ids', () => {
	const catalogue = new Catalogue([
		...builtinProviders(),
		{id: 'or', requiresAuth: true, models: [{id: 'deepseek/deepseek-chat', name: 'x', provider: 'or', api: 'openai-completions', input: ['text'], reasoning: false, cost: {}}], source: {kind: 'builtin'}},
		{id: 'two', requiresAuth: true, models: [{id: 'gpt-4.1', name: 'x', provider: 'two', api: 'openai-completions', input: ['text'], reasoning: false, cost: {}}], source: {kind: 'builtin'}},
	]);
	assert.equal(catalogue.resolve('anthropic/claude-haiku-4-5').model.id, 'claude-haiku-4-5');
	assert.equal(catalogue.resolve('claude-sonnet-5').provider.id, 'anthropic');
	assert.equal(catalogue.resolve('deepseek/deepseek-chat').provider.id, 'or');
	assert.equal(catalogue.resolve('or/deepseek/deepseek-chat').model.id, 'deepseek/deepseek-chat');
	assert.equal(catalogue.resolve('deepseek/deepseek-chat', 'or').model.id, 'deepseek/deepseek-chat');
	assert.equal(catalogue.resolve('gpt-4.1', 'two').provider.id, 'two');
	assert.throws(
		() => catalogue.resolve('gpt-4.1'),
		(error: CatalogueLookupError) => /offered by 2 providers; name one: openai\/gpt-4\.1, two\/gpt-4\.1/.test(error.message),
	);
	assert.throws(
		() => catalogue.resolve('claude-sonet-5'),
		(error: CatalogueLookupError) => error.nearest[0] === 'claude-sonnet-5' || error.nearest[0] === 'anthropic/claude-sonnet-5',
	);
	assert.throws(
		() => catalogue.resolve('x', 'antropic'),
		(error: CatalogueLookupError) => error.message === 'there is no provider "antropic" in the catalogue' && error.nearest[0] === 'anthropic',
	);
	// PROVIDER/MODEL stays with PROVIDER: another provider's id that reads the same is not taken.
	const shadowed = new Catalogue([
		{id: 'deepseek', requiresAuth: true, models: [{id: 'deepseek-flash', name: 'x', provider: 'deepseek', api: 'openai-completions', input: ['text'], reasoning: false, cost: {}}], source: {kind: 'builtin'}},
		{id: 'or', requiresAuth: true, models: [{id: 'deepseek/deepseek-chat', name: 'x', provider: 'or', api: 'openai-completions', input: ['text'], reasoning: false, cost: {}}], source: {kind: 'builtin'}},
	]);
	assert.throws(
		() => shadowed.resolve('deepseek/deepseek-chat'),
		(error: CatalogueLookupError) => error.message === 'provider "deepseek" has no model "deepseek-chat"' && error.nearest.includes('deepseek-flash'),
	);
	assert.equal(shadowed.resolve('or/deepseek/deepseek-chat').provider.id, 'or');
	assert.throws(
		() => catalogue.resolve('anthropic/claude-opus-9'),
		(error: CatalogueLookupError) => /provider "anthropic" has no model "claude-opus-9"/.test(error.message) && error.nearest.includes('claude-opus-5'),
	);
});

test('the catalogue answers frozen copies: changing what it gave changes nothing in it', () => {
	const source: CatalogueProvider = {...builtinProviders()[0]!};
	const catalogue = new Catalogue([source]);
	source.baseUrl = 'https://evil.test';
	const provider = catalogue.provider('openai')!;
	assert.equal(provider.baseUrl, 'https://api.openai.com/v1');
	assert.throws(() => {
		(provider as {baseUrl?: string}).baseUrl = 'https://evil.test';
	}, TypeError);
	assert.throws(() => {
		(provider.models[0]!.cost as {input?: number}).input = 0;
	}, TypeError);
	assert.equal(catalogue.model('openai', 'gpt-5')?.cost.input, 1.25);
});

test('built-in prices: every built-in model has all four prices and a context window; none has a header or a key', () => {
	for (const provider of builtinProviders()) {
		assert.ok(provider.apiKeyEnv?.endsWith('_API_KEY'));
		assert.equal(JSON.stringify(provider).match(/header|sk-/i), null);
		for (const entry of provider.models) {
			assert.deepEqual(Object.keys(entry.cost).sort(), ['cacheRead', 'cacheWrite', 'input', 'output']);
			assert.ok(entry.contextWindow! > 0 && entry.maxTokens! > 0, entry.id);
		}
	}
});

test('declare({providers}): defaults, and each bad field named with its provider; a price left out stays unknown', () => {
	const [checked] = checkCatalogue([entry({models: [model('m1', 'p', {cost: {input: 1}})]})]);
	assert.deepEqual(checked, {id: 'p', requiresAuth: true, models: [{...model('m1'), input: ['text'], reasoning: false, cost: {input: 1}}]});
	assert.equal('output' in checked!.models[0]!.cost, false);
	const fails = (value: unknown, pattern: RegExp) => assert.throws(() => checkCatalogue(value), pattern);
	fails('x', /declare: providers: .*expected array/);
	fails([entry({id: 'Upper'})], /provider "Upper": field "id": must be 1–64 of lower-case/);
	fails([entry({models: [model('m1', 'other')]})], /provider "p": model "m1" says its provider is "other"; a model's provider is the id it is listed under/);
	fails([entry(), entry()], /providers lists "p" twice/);
	fails([entry({models: [model('m1'), model('m1')]})], /provider "p" lists the model "m1" twice/);
	fails([entry({headers: {authorization: 'x'}})], /providers\[0\] has "headers": the catalogue is public and never holds headers or keys/);
	fails([entry({apiKey: 'sk-1'})], /has "apiKey"/);
	fails([entry({apiKeyEnv: 'sk-live key'})], /provider "p": field "apiKeyEnv": must be the NAME of an environment variable/);
	fails([entry({baseUrl: 'https://user:pw@x.test'})], /may not hold a user name or password/);
	fails([entry({baseUrl: 'ftp://x.test'})], /must be an http:\/\/ or https:\/\/ URL/);
	fails([entry({models: [model('m1', 'p', {cost: {input: -1}})]})], /cost\.input": must not be negative/);
	fails([entry({models: [model('m1', 'p', {cost: {input: 1, total: 2}})]})], /unknown field "total"/);
	fails([entry({models: [model('m1', 'p', {input: ['audio']})]})], /provider "p", model "m1": field "input\.0"/);
	// A price or a window of the wrong type: the provider, the model and the field, not list indexes.
	fails([entry({models: [model('m0'), model('m1', 'p', {contextWindow: '1M'})]})], /provider "p", model "m1": field "contextWindow": .*expected number/);
	fails([entry({models: [model('m1', 'p', {cost: {output: '0.28'}})]})], /provider "p", model "m1": field "cost\.output": .*expected number/);
	fails([entry({models: [model('m1', 'p', {contextWindow: 0})]})], /contextWindow/);
	fails([entry({surprise: 1})], /unknown field "surprise"/);
});

test('declare({providers}) limits: at each and one past', () => {
	const many = (count: number) => Array.from({length: count}, (_value, index) => model(`m${index}`));
	assert.equal(checkCatalogue([entry({models: many(MAX_MODELS_PER_PROVIDER)})])[0]!.models.length, MAX_MODELS_PER_PROVIDER);
	assert.throws(() => checkCatalogue([entry({models: many(MAX_MODELS_PER_PROVIDER + 1)})]), /at most 1024 models/);
	const providers = (count: number) => Array.from({length: count}, (_value, index) => ({id: `p${index}`, models: [model('m', `p${index}`)]}));
	assert.equal(checkCatalogue(providers(MAX_CATALOGUE_PROVIDERS)).length, MAX_CATALOGUE_PROVIDERS);
	assert.throws(() => checkCatalogue(providers(MAX_CATALOGUE_PROVIDERS + 1)), /at most 64 providers/);
	assert.equal(checkCatalogue([entry({models: [model('x'.repeat(MAX_MODEL_ID_LENGTH), 'p', {name: 'long'})]})])[0]!.models[0]!.id.length, MAX_MODEL_ID_LENGTH);
	assert.throws(() => checkCatalogue([entry({models: [model('x'.repeat(MAX_MODEL_ID_LENGTH + 1), 'p', {name: 'long'})]})]), /must be 1–256 printable ASCII/);
	assert.equal(checkCatalogue([entry({models: [model('m', 'p', {name: 'n'.repeat(MAX_MODEL_NAME_LENGTH)})]})])[0]!.models[0]!.name.length, MAX_MODEL_NAME_LENGTH);
	assert.throws(() => checkCatalogue([entry({models: [model('m', 'p', {name: 'n'.repeat(MAX_MODEL_NAME_LENGTH + 1)})]})]), /at most 200 characters/);
	assert.throws(() => checkCatalogue([entry({models: [model('m', 'p', {name: 'two\nlines'})]})]), /must be one line/);
	assert.equal(checkCatalogue([entry({models: [model('m', 'p', {cost: {input: MAX_PRICE}})]})])[0]!.models[0]!.cost.input, MAX_PRICE);
	assert.throws(() => checkCatalogue([entry({models: [model('m', 'p', {cost: {output: MAX_PRICE + 1}})]})]), /cost\.output": at most 100000 dollars per million tokens/);
	assert.equal(checkCatalogue([entry({models: [model('m', 'p', {contextWindow: MAX_TOKEN_COUNT})]})])[0]!.models[0]!.contextWindow, MAX_TOKEN_COUNT);
	assert.throws(() => checkCatalogue([entry({models: [model('m', 'p', {contextWindow: MAX_TOKEN_COUNT + 1})]})]), /contextWindow": at most 100000000/);
	assert.throws(() => checkCatalogue([entry({models: [model('m', 'p', {maxTokens: MAX_TOKEN_COUNT + 1})]})]), /maxTokens": at most 100000000/);
});

function extensionFile(source: string): {path: string; close(): void} {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), 'i-catalogue-')));
	const path = join(dir, 'ext.mjs');
	writeFileSync(path, source);
	return {path, close: () => rmSync(dir, {recursive: true, force: true})};
}

test('load: a declared provider the extension did not register is a load error naming both ids; a bad declaration fails only its extension; the declared object is copied', async () => {
	const cases: Array<[string, RegExp | null]> = [
		[
			`export default api => { api.declare({providers: [{id: 'mine', models: []}]}); api.registerStreamingProvider({id: 'other', apiStyle: 's', request() {}}); }`,
			/declare: providers lists "mine", but it registered "other"; the catalogue's id must be the id given to registerStreamingProvider/,
		],
		[`export default api => { api.declare({providers: [{id: 'mine', models: []}]}); }`, /declare: providers lists "mine", but it registered no provider/],
		[`export default api => { api.declare({providers: [{id: 'mine', models: [{id: 'm', name: 'M', provider: 'yours', api: 'a'}]}]}); }`, /register failed: .*model "m" says its provider is "yours"/],
	];
	for (const [source, pattern] of cases) {
		const file = extensionFile(source);
		try {
			const {extensions, reports} = await loadExtensions({candidates: [{path: file.path, origin: 'flag', project: false, listedIn: '--extension'}], trusted: false, takenToolNames: new Map()});
			assert.equal(extensions.length, 0);
			assert.match((reports[0] as {message: string}).message, pattern!);
		} finally {
			file.close();
		}
	}

	const kept = extensionFile(
		`export const declared = {id: 'mine', models: [{id: 'm', name: 'M', provider: 'mine', api: 'a', cost: {input: 1}}]};
		export default api => { api.declare({providers: [declared]}); api.registerStreamingProvider({id: 'mine', apiStyle: 's', request() {}}); declared.models[0].cost.input = 999; declared.baseUrl = 'https://evil.test'; }`,
	);
	try {
		const {extensions} = await loadExtensions({candidates: [{path: kept.path, origin: 'flag', project: false, listedIn: '--extension'}], trusted: false, takenToolNames: new Map()});
		assert.deepEqual(extensions[0]!.catalogue, [{id: 'mine', requiresAuth: true, models: [{id: 'm', name: 'M', provider: 'mine', api: 'a', input: ['text'], reasoning: false, cost: {input: 1}}]}]);
	} finally {
		kept.close();
	}
});

const extensionEntry = (extension: string, id: string, fields: Record<string, unknown> = {}): ExtensionCatalogueEntry => ({
	extension,
	entry: {
		id,
		requiresAuth: true,
		apiKeyEnv: `${id.toUpperCase()}_KEY`,
		baseUrl: `https://${id}.test/v1`,
		models: [{id: `${id}-m`, name: 'M', provider: id, api: 'openai-completions', input: ['text'], reasoning: false, cost: {input: 1}}],
		...fields,
	},
});

test('build: built-ins first, then the extensions (the first of an id wins); the public entries carry no headers, the bindings do', () => {
	const file = checkModelsFile({providers: {ds: {headers: {'x-team': 'secret-team-header'}, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'OTHER_KEY'}}}, '/c/models.json', false);
	const built = buildCatalogue([extensionEntry('a', 'ds'), extensionEntry('b', 'ds', {baseUrl: 'https://b.test'})], [file]);
	assert.deepEqual(
		built.catalogue.providers().map(provider => provider.id),
		['openai', 'anthropic', 'ds'],
	);
	const ds = built.catalogue.provider('ds')!;
	assert.deepEqual([ds.baseUrl, ds.apiKeyEnv, ds.source, ds.overriddenBy], ['http://127.0.0.1:9/v1', 'OTHER_KEY', {kind: 'extension', extension: 'a'}, ['/c/models.json']]);
	assert.equal(JSON.stringify(built.catalogue.providers()).includes('secret-team-header'), false);
	// models.json's key variable is kept apart from the declared one: auth looks at it first, then at DS_KEY (credential-for.ts).
	assert.deepEqual(built.bindings.get('ds'), {
		provider: 'ds',
		baseUrl: 'http://127.0.0.1:9/v1',
		headers: {'x-team': 'secret-team-header'},
		apiKeyEnv: 'DS_KEY',
		modelsJsonKeyEnv: 'OTHER_KEY',
		modelsJsonPath: '/c/models.json',
		requiresAuth: true,
	});
	// The binding given out is a copy: changing it changes the next one nobody.
	(built.bindings.get('ds')!.headers as Record<string, string>)['x-team'] = 'changed';
	assert.equal(built.bindings.get('ds')!.headers['x-team'], 'secret-team-header');
	assert.equal(built.servedBy.get('ds'), 'a');
});

test('models.json merges models by id (prices one by one), adds new ones and new OpenAI-compatible providers; the project file applies over the global one', () => {
	const global = checkModelsFile(
		{
			providers: {
				openai: {
					models: [
						{id: 'gpt-5', cost: {input: 9}},
						{id: 'my-tuned', name: 'Tuned', contextWindow: 8000},
					],
				},
				local: {baseUrl: 'http://127.0.0.1:1234/v1', models: [{id: 'qwen'}]},
			},
		},
		'/g/models.json',
		false,
	);
	const project = checkModelsFile({providers: {local: {models: [{id: 'qwen', maxTokens: 512}]}, keyed: {baseUrl: 'https://k.test/v1', apiKey: 'K_KEY', models: [{id: 'k'}]}}}, '/w/.i/models.json', true);
	const {catalogue, bindings} = buildCatalogue([], [global, project]);
	const gpt5 = catalogue.model('openai', 'gpt-5')!;
	assert.deepEqual(gpt5.cost, {input: 9, output: 10, cacheRead: 0.125, cacheWrite: 0});
	assert.deepEqual(catalogue.model('openai', 'my-tuned'), {id: 'my-tuned', name: 'Tuned', provider: 'openai', api: 'openai-responses', contextWindow: 8000, input: ['text'], reasoning: false, cost: {}});
	assert.deepEqual(catalogue.model('local', 'qwen'), {id: 'qwen', name: 'qwen', provider: 'local', api: 'openai-completions', maxTokens: 512, input: ['text'], reasoning: false, cost: {}});
	// No key variable: anonymous; with one: required.
	assert.deepEqual(
		[catalogue.provider('local')!.requiresAuth, catalogue.provider('keyed')!.requiresAuth, bindings.get('keyed')!.modelsJsonKeyEnv, bindings.get('keyed')!.apiKeyEnv],
		[false, true, 'K_KEY', undefined],
	);
	assert.deepEqual(catalogue.provider('local')!.source, {kind: 'models-file', path: '/g/models.json'});
});

test('models.json errors name the file, the provider and the field; a project file that moves a keyed provider is said', async () => {
	const fails = (json: unknown, pattern: RegExp) => assert.throws(() => buildCatalogue([extensionEntry('ext', 'ds')], [checkModelsFile(json, '/c/models.json', false)]), pattern);
	fails({}, /models \/c\/models\.json: missing field "providers"/);
	fails({providers: {BAD: {}}}, /models \/c\/models\.json: .*key "BAD" in "providers": must be 1–64 of lower-case/);
	fails({providers: {openai: {baseUrl: 'nope'}}}, /models \/c\/models\.json: provider "openai": field "providers\.openai\.baseUrl": must be an http/);
	fails({providers: {openai: {apiKey: 'sk-abc def'}}}, /provider "openai": field "providers\.openai\.apiKey": must be the NAME of an environment variable/);
	fails({providers: {openai: {headers: {'bad name': 'x'}}}}, /provider "openai": .*must be an HTTP header name/);
	fails({providers: {openai: {headers: {'x-a': 'one\ntwo'}}}}, /must be one line/);
	assert.doesNotThrow(() => checkModelsFile({providers: {openai: {headers: {'x-a': 'v'.repeat(MAX_HEADER_VALUE_LENGTH)}}}}, '/c/models.json', false));
	fails({providers: {openai: {headers: {'x-a': 'v'.repeat(MAX_HEADER_VALUE_LENGTH + 1)}}}}, /provider "openai": .*at most 8192 characters/);
	fails({providers: {openai: {api: 'grpc'}}}, /provider "openai": field "providers\.openai\.api"/);
	fails({providers: {openai: {models: [{id: 'a'}, {id: 'a'}]}}}, /provider "openai": field "models" lists the model "a" twice/);
	fails({providers: {openai: {models: [{id: 'a', cost: {input: -2}}]}}}, /must not be negative/);
	fails({providers: {openai: {token: 'x'}}}, /unknown field "token"/);
	fails({providers: {fresh: {models: [{id: 'a'}]}}}, /provider "fresh": missing field "baseUrl": a provider the catalogue does not have yet needs its endpoint/);
	// An entry for a provider that is not loaded, without models of its own, adds nothing and says so.
	assert.match(
		buildCatalogue([], [checkModelsFile({providers: {fresh: {baseUrl: 'http://x.test/v1'}}}, '/c/models.json', false)]).warnings[0]!,
		/provider "fresh" is not in the catalogue \(is the extension that provides it loaded\?\) and lists no models, so it adds nothing/,
	);
	fails({providers: {ds: {api: 'openai-completions'}}}, /provider "ds": field "api": the provider is served by extension ext, which speaks its own wire/);
	const headers = (count: number) => Object.fromEntries(Array.from({length: count}, (_value, index) => [`x-h${index}`, 'v']));
	assert.equal(checkModelsFile({providers: {openai: {headers: headers(MAX_HEADERS)}}}, '/c', false).providers.size, 1);
	assert.throws(() => checkModelsFile({providers: {openai: {headers: headers(MAX_HEADERS + 1)}}}, '/c', false), /at most 64 headers/);
	const moved = buildCatalogue([], [checkModelsFile({providers: {openai: {baseUrl: 'https://elsewhere.test/v1'}}}, '/w/.i/models.json', true)]);
	assert.match(moved.warnings[0]!, /models \/w\/\.i\/models\.json: provider "openai" moves the provider to https:\/\/elsewhere\.test\/v1: its requests, with the key in OPENAI_API_KEY, go there/);
	const dir = realpathSync(mkdtempSync(join(tmpdir(), 'i-models-')));
	try {
		const path = join(dir, 'models.json');
		writeFileSync(path, '{"providers": ');
		await assert.rejects(readModelsFile(path, false), new RegExp(`models ${path}: not valid JSON`));
		writeFileSync(path, JSON.stringify({providers: {}}).padEnd(MAX_CONFIG_BYTES, ' '));
		assert.equal((await readModelsFile(path, false))!.providers.size, 0);
		writeFileSync(path, JSON.stringify({providers: {}}).padEnd(MAX_CONFIG_BYTES + 1, ' '));
		await assert.rejects(readModelsFile(path, false), /too big for a models file/);
		assert.equal(await readModelsFile(join(dir, 'absent.json'), false), undefined);
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}
});

test("credentialFor is auth's resolution: --api-key, auth.json, models.json's variable, the declared one, anonymous; blank does not count; errors name sources, never a value", () => {
	const configDir = mkdtempSync(join(tmpdir(), 'i-cred-'));
	try {
		const binding = (fields: Record<string, unknown> = {}) => ({provider: 'ds', baseUrl: undefined, headers: {}, apiKeyEnv: 'DS_KEY', requiresAuth: true, ...fields});
		const of = (fields: Record<string, unknown>, env: NodeJS.ProcessEnv, apiKeyFlag?: string) => credentialFor(binding(fields), {configDir, env, apiKeyFlag});
		assert.equal(of({}, {DS_KEY: 'sk-1'}).apiKey, 'sk-1');
		assert.match(of({}, {DS_KEY: 'sk-1'}).source, /^DS_KEY/);
		assert.deepEqual(of({}, {DS_KEY: 'sk-1'}).secrets, {names: ['DS_KEY'], values: ['sk-1']});
		assert.throws(() => of({}, {DS_KEY: '  '}), /no API key for ds: .*DS_KEY is blank.*export DS_KEY/);
		assert.throws(() => of({}, {OPENAI_API_KEY: 'sk-other'}), /DS_KEY is not set/);
		assert.throws(() => of({apiKeyEnv: undefined}, {}), /ds declares no key variable; run i auth login ds/);
		// models.json's variable comes before the declared one; both are hidden from the shell.
		const models = of({modelsJsonKeyEnv: 'MJ_KEY', modelsJsonPath: '/x/models.json'}, {DS_KEY: 'sk-declared', MJ_KEY: 'sk-models'});
		assert.equal(models.apiKey, 'sk-models');
		assert.match(models.source, /MJ_KEY \(named by "apiKey" in \/x\/models.json\)/);
		assert.deepEqual(models.secrets, {names: ['MJ_KEY', 'DS_KEY'], values: ['sk-models', 'sk-declared']});
		// auth.json before both, --api-key before all.
		writeFileSync(join(configDir, 'auth.json'), JSON.stringify({ds: {type: 'api_key', key: 'sk-stored'}}), {mode: 0o600});
		assert.equal(of({modelsJsonKeyEnv: 'MJ_KEY'}, {DS_KEY: 'sk-declared', MJ_KEY: 'sk-models'}).apiKey, 'sk-stored');
		const flagged = of({}, {DS_KEY: 'sk-declared'}, 'sk-flag');
		assert.equal(flagged.apiKey, 'sk-flag');
		assert.ok(flagged.secrets.values.includes('sk-flag') && flagged.secrets.values.includes('sk-declared'));
		// Anonymous only when allowed, and then no key at all even with auth.json holding another provider's.
		assert.deepEqual(
			{...credentialFor(binding({provider: 'llama', apiKeyEnv: undefined, requiresAuth: false}), {configDir, env: {OPENAI_API_KEY: 'sk-other'}}), source: 'x'},
			{apiKey: null, source: 'x', secrets: {names: [], values: []}, oauth: false},
		);
		assert.equal(credentialFor(binding({provider: 'llama', apiKeyEnv: 'L_KEY', requiresAuth: false}), {configDir, env: {L_KEY: 'k'}}).apiKey, 'k');
	} finally {
		rmSync(configDir, {recursive: true, force: true});
	}
});
