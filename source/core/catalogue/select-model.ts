import {UsageError} from '../errors.js';
import type {ModelConfig} from '../config/schema.js';
import type {OwnedProvider} from '../extensions/extension-provider.js';
import {createAdapter} from '../providers/index.js';
import {createHttpCaller, type FilesChannel, type FilesEndpoint, type ModelCaller} from '../providers/model-caller.js';
import type {FilesModel} from '../config/provider-file.js';
import {checkExtraBody} from '../config/reserved-fields.js';
import type {Adapter, Protocol} from '../providers/types.js';
import type {BuiltCatalogue} from './build-catalogue.js';
import {CatalogueLookupError, type CatalogueChoice} from './catalogue.js';
import {credentialFor, type CredentialSources} from './credential-for.js';
import type {Secrets} from '../tools/run-command.js';
import type {ModelPrices} from '../usage-cost.js';
import {providerOfProtocol} from '../auth/auth-subjects.js';

/** What picks the model: `--provider` / `--model` for one run, else the config's `provider` and `model`. */
export interface Selection {
	provider: string | undefined;
	/** A model id, or `provider/model`. */
	model: string | undefined;
	/** How errors name where it came from: `--model`, `config /x/config.json`. */
	origin: string;
}

export interface SelectedModel {
	caller: ModelCaller;
	choice: CatalogueChoice;
	/** Where its key came from, for messages, never the key: `DEEPSEEK_API_KEY (…)`, `auth.json (API key)`, `anonymous (…)`. */
	credentialSource: string;
	/** The provider's key variables and the key, whatever its source: the shell tool's commands never see them. */
	secrets: Secrets;
}

/** The run's Files channel (provider.json and provider_operations): whether it applies to a model (provider-file.ts's one rule), and the channel for an endpoint. */
export interface FilesChannels {
	applies(model: FilesModel): boolean;
	open(endpoint: FilesEndpoint): FilesChannel;
}

/** The wire of a catalogue model the core speaks itself. */
const builtinWires: Readonly<Record<string, Protocol>> = {'openai-completions': 'openai', 'openai-responses': 'responses', 'anthropic-messages': 'anthropic'};

/** The catalogue model a selection names; an unknown one is a UsageError naming the nearest ids. */
export function resolveSelection(selection: Selection, built: BuiltCatalogue): CatalogueChoice {
	const {catalogue} = built;
	const {provider, model, origin} = selection;
	const list = 'i --list-models lists them';
	try {
		if (model !== undefined) return catalogue.resolve(model, provider);
		const entry = provider === undefined ? undefined : catalogue.provider(provider);
		if (!entry) return catalogue.resolve('', provider);
		const first = entry.models[0];
		if (!first) throw new CatalogueLookupError(`provider "${entry.id}" lists no model (add them under providers.${entry.id}.models in models.json)`, []);
		return {provider: entry, model: first};
	} catch (error) {
		if (!(error instanceof CatalogueLookupError)) throw error;
		const nearest = error.nearest.length === 0 ? '' : `; the nearest: ${error.nearest.join(', ')}`;
		throw new UsageError(`${origin}: ${error.message}${nearest}; ${list}`);
	}
}

/**
 * The caller of a catalogue selection: the endpoint, headers and key
 * variable come from the provider's private binding, the key from
 * `credentialFor` (auth's resolution; `sources.apiKeyFlag` is this run's
 * --api-key, which goes to this selection only); a provider an extension serves goes through that
 * extension (with `req.apiKey`, `req.baseUrl`, `req.headers`), any other
 * through the built-in adapter of its model's wire.
 */
export async function selectModel(
	selection: Selection,
	built: BuiltCatalogue,
	extensionProviders: ReadonlyMap<string, OwnedProvider>,
	config: ModelConfig,
	sources: CredentialSources,
	files?: FilesChannels,
): Promise<SelectedModel> {
	const choice = resolveSelection(selection, built);
	const {provider, model} = choice;
	const binding = built.bindings.get(provider.id);
	if (!binding) throw new Error(`the catalogue has provider "${provider.id}" but no binding for it`);
	const extension = built.servedBy.get(provider.id);
	const owned = extension === undefined ? undefined : extensionProviders.get(provider.id);
	const credential = credentialFor(binding, sources, owned?.oauth !== undefined);
	const {secrets} = credential;
	const maxTokens = config.max_tokens === undefined ? {} : {maxTokens: config.max_tokens};
	const label = `${provider.id}/${model.id} (${selection.origin})`;
	// DeepSeek's model with the Files channel: the core's own DeepSeek wire, which refers to uploaded files, whoever serves the provider otherwise.
	const filesApply = files?.applies({provider: provider.id, label, chosenByConfig: selection.origin.startsWith('config ')}) === true;
	if (extension !== undefined && !filesApply) {
		if (!owned || owned.extension !== extension) throw new UsageError(`${selection.origin}: provider "${provider.id}" of extension ${extension} is not registered in this run`);
		const {createExtensionProviderCaller} = await import('../extensions/extension-provider.js');
		const make = (apiKey: string | null) =>
			createExtensionProviderCaller(owned, {
				model: model.id,
				...maxTokens,
				extraBody: config.extra_body,
				http: {maxRetries: config.max_retries},
				binding: {apiKey, baseUrl: binding.baseUrl ?? null, headers: binding.headers},
			});
		// An OAuth token from auth.json is refreshed near its expiry and once at a 401 (oauth-caller.ts); any other key is the run's.
		const {oauth} = owned;
		const caller = oauth !== undefined && credential.oauth ? await oauthCaller(make, {...owned, oauth}, sources.configDir) : make(credential.apiKey);
		return {caller: {...caller, prices: {...model.cost}}, choice, credentialSource: credential.source, secrets};
	}

	const protocol = filesApply ? 'deepseek' : builtinWires[model.api];
	if (protocol === undefined) throw new UsageError(`${selection.origin}: model "${provider.id}/${model.id}" speaks "${model.api}", which no built-in adapter or loaded extension speaks`);
	checkExtraBody(protocol, config.extra_body, selection.origin);
	const adapter = withBinding(
		createAdapter(protocol, {model: model.id, baseUrl: binding.baseUrl ?? '', ...maxTokens, useMaxTokens: config.use_max_tokens, extraBody: config.extra_body}),
		binding.headers,
		credential.apiKey === null,
	);
	const apiKey = credential.apiKey ?? '';
	const channel =
		filesApply && files
			? {files: files.open({baseUrl: binding.baseUrl ?? adapter.defaultBaseUrl, headers: adapter.headers(apiKey), keyName: binding.modelsJsonKeyEnv ?? binding.apiKeyEnv, maxRetries: config.max_retries})}
			: {};
	const caller = createHttpCaller({adapter, apiKey, model: model.id, http: {maxRetries: config.max_retries}, ...channel});
	return {caller: {...caller, provider: provider.id, prices: {...model.cost}}, choice, credentialSource: credential.source, secrets};
}

/** The extension provider's caller with the key read from auth.json's OAuth tokens before each request; loaded only for such a provider. */
async function oauthCaller(make: (apiKey: string) => ModelCaller, owned: OwnedProvider & {oauth: NonNullable<OwnedProvider['oauth']>}, configDir: string): Promise<ModelCaller> {
	const [{withOAuthKey}, {OAuthKey}, {AuthFile}] = await Promise.all([import('../auth/oauth/oauth-caller.js'), import('../auth/oauth/oauth-key.js'), import('../auth/auth-file.js')]);
	return withOAuthKey(make, new OAuthKey(owned.oauth, AuthFile.in(configDir), owned.extension));
}

/**
 * The prices of a config that chooses by `protocol`: the catalogue model of
 * that id under the provider the protocol selects (openai and responses:
 * `openai`; anthropic; deepseek; an extension provider's own id); none when
 * the catalogue has no such model (its cost is then unknown, never $0).
 */
export function protocolPrices(built: BuiltCatalogue, protocol: string, modelId: string): ModelPrices | undefined {
	const provider = built.catalogue.provider(providerOfProtocol(protocol));
	const model = provider?.models.find(candidate => candidate.id === modelId);
	return model ? {...model.cost} : undefined;
}

/** The adapter with the binding's headers under its own (secrets like the key), and without any credential header for an anonymous provider. */
function withBinding(adapter: Adapter, headers: Readonly<Record<string, string>>, anonymous: boolean): Adapter {
	if (Object.keys(headers).length === 0 && !anonymous) return adapter;
	return {
		...adapter,
		secretHeaders: Object.keys(headers),
		headers(apiKey) {
			const own = adapter.headers(apiKey);
			if (anonymous) for (const name of ['authorization', 'x-api-key']) delete own[name];
			return {...headers, ...own};
		},
	};
}
