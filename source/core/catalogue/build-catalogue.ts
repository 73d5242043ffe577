import {UsageError} from '../errors.js';
import {builtinProviders} from './builtin-providers.js';
import {Catalogue, type CatalogueModel, type CatalogueProvider} from './catalogue.js';
import {ExecutionBindings} from './execution-binding.js';
import type {ModelsFile, ModelsFileModel} from './models-file.js';

/** One extension's declared provider, with whose it is (the extension registered that id itself: load-extensions checks it). */
export interface ExtensionCatalogueEntry {
	extension: string;
	entry: {id: string; apiKeyEnv?: string; requiresAuth: boolean; baseUrl?: string; models: CatalogueModel[]};
}

export interface BuiltCatalogue {
	catalogue: Catalogue;
	/** The private half: endpoint, headers, key variable per provider. */
	bindings: ExecutionBindings;
	/** Which extension serves a provider id, for the ids extensions registered. */
	servedBy: ReadonlyMap<string, string>;
	/** What the person should hear of (a project file that moves a provider's endpoint). */
	warnings: string[];
}

/**
 * The catalogue of one generation: the built-in providers, then the
 * extensions' (first of an id wins, in load order), then models.json, the
 * global file and then the project's, each entry overriding or adding. The
 * public entries and the private bindings are built side by side and
 * never share an object.
 */
export function buildCatalogue(extensions: readonly ExtensionCatalogueEntry[], files: readonly ModelsFile[]): BuiltCatalogue {
	const providers = new Map<string, CatalogueProvider>();
	const headers = new Map<string, Record<string, string>>();
	const servedBy = new Map<string, string>();
	// models.json's `apiKey` per provider, kept apart from the declared variable: auth looks at it first (credential-for.ts).
	const modelsKeys = new Map<string, {name: string; path: string}>();
	// The variable each provider declared before models.json touched it.
	const declaredKeys = new Map<string, string | undefined>();
	const warnings: string[] = [];
	for (const provider of builtinProviders()) providers.set(provider.id, provider);
	for (const {extension, entry} of extensions) {
		if (providers.has(entry.id)) continue;
		servedBy.set(entry.id, extension);
		providers.set(entry.id, {...structuredClone(entry), source: {kind: 'extension', extension}});
	}

	for (const provider of providers.values()) declaredKeys.set(provider.id, provider.apiKeyEnv);
	for (const file of files) {
		for (const [id, fields] of file.providers) {
			if (fields.apiKey !== undefined) modelsKeys.set(id, {name: fields.apiKey, path: file.path});
			const where = `models ${file.path}: provider "${id}"`;
			const existing = providers.get(id);
			const extension = servedBy.get(id);
			if (existing === undefined) {
				// Most likely an override for a provider whose extension is not loaded (--no-extensions): it adds nothing, and says so.
				if ((fields.models ?? []).length === 0) {
					warnings.push(`${where} is not in the catalogue (is the extension that provides it loaded?) and lists no models, so it adds nothing`);
					continue;
				}

				if (fields.baseUrl === undefined) throw new UsageError(`${where}: missing field "baseUrl": a provider the catalogue does not have yet needs its endpoint (an OpenAI-compatible …/v1)`);
				const api = fields.api ?? 'openai-completions';
				providers.set(id, {
					id,
					// No key variable: an anonymous endpoint (a local server); with one, its key is required.
					requiresAuth: fields.apiKey !== undefined,
					...(fields.apiKey === undefined ? {} : {apiKeyEnv: fields.apiKey}),
					baseUrl: fields.baseUrl,
					models: (fields.models ?? []).map(model => newModel(id, model, api)),
					source: {kind: 'models-file', path: file.path},
				});
				if (fields.headers) headers.set(id, {...fields.headers});
				continue;
			}

			if (extension !== undefined && (fields.api !== undefined || (fields.models ?? []).some(model => model.api !== undefined))) {
				throw new UsageError(`${where}: field "api": the provider is served by extension ${extension}, which speaks its own wire; drop "api" here`);
			}

			// A project's file is data anyone may commit: moving a provider whose key is the person's is said aloud each run.
			if (file.project && fields.baseUrl !== undefined && fields.baseUrl !== existing.baseUrl && existing.apiKeyEnv !== undefined) {
				warnings.push(
					`${where} moves the provider to ${fields.baseUrl}: its requests, with the key in ${fields.apiKey ?? existing.apiKeyEnv}, go there; remove "baseUrl" from that file if you did not write it`,
				);
			}

			const models = [...existing.models];
			for (const model of fields.models ?? []) {
				const index = models.findIndex(candidate => candidate.id === model.id);
				if (index === -1) models.push(newModel(id, model, fields.api ?? existing.models[0]?.api ?? 'openai-completions'));
				else models[index] = mergedModel(models[index]!, model);
			}

			providers.set(id, {
				...existing,
				...(fields.baseUrl === undefined ? {} : {baseUrl: fields.baseUrl}),
				...(fields.apiKey === undefined ? {} : {apiKeyEnv: fields.apiKey}),
				models: fields.api === undefined || extension !== undefined ? models : models.map(model => ({...model, api: fields.api!})),
				overriddenBy: [...(existing.overriddenBy ?? []), file.path],
			});
			if (fields.headers) headers.set(id, {...headers.get(id), ...fields.headers});
		}
	}

	const bindings = new ExecutionBindings();
	for (const provider of providers.values()) {
		const fromModels = modelsKeys.get(provider.id);
		bindings.set({
			provider: provider.id,
			baseUrl: provider.baseUrl,
			headers: headers.get(provider.id) ?? {},
			apiKeyEnv: declaredKeys.get(provider.id),
			...(fromModels ? {modelsJsonKeyEnv: fromModels.name, modelsJsonPath: fromModels.path} : {}),
			requiresAuth: provider.requiresAuth,
		});
	}

	return {catalogue: new Catalogue(providers.values()), bindings, servedBy, warnings};
}

function newModel(provider: string, model: ModelsFileModel, api: string): CatalogueModel {
	return {
		id: model.id,
		name: model.name ?? model.id,
		provider,
		api: model.api ?? api,
		...(model.contextWindow === undefined ? {} : {contextWindow: model.contextWindow}),
		...(model.maxTokens === undefined ? {} : {maxTokens: model.maxTokens}),
		input: model.input ? [...new Set(model.input)] : ['text'],
		reasoning: model.reasoning ?? false,
		cost: {...model.cost},
	};
}

/** The fields models.json gives replace the catalogue's; prices one by one (a price it leaves out keeps the catalogue's). */
function mergedModel(base: CatalogueModel, model: ModelsFileModel): CatalogueModel {
	return {
		...base,
		...(model.name === undefined ? {} : {name: model.name}),
		...(model.api === undefined ? {} : {api: model.api}),
		...(model.contextWindow === undefined ? {} : {contextWindow: model.contextWindow}),
		...(model.maxTokens === undefined ? {} : {maxTokens: model.maxTokens}),
		...(model.input === undefined ? {} : {input: [...new Set(model.input)]}),
		...(model.reasoning === undefined ? {} : {reasoning: model.reasoning}),
		cost: {...base.cost, ...model.cost},
	};
}
