import {join} from 'node:path';
import {UsageError, errorMessage} from '../errors.js';
import {configPath, isProtocol, type LoadedConfig} from '../config/load-config.js';
import {runCredential} from '../auth/run-credential.js';
import {providerOfProtocol} from '../auth/auth-subjects.js';
import type {PlatformDirs} from '../config/dirs.js';
import type {ModelCaller} from '../providers/model-caller.js';
import type {LoadedPlugins, WorkerPool} from '../pool/types.js';
import type {Catalogue} from '../catalogue/catalogue.js';
import type {Selection} from '../catalogue/select-model.js';
import {runSelection} from '../catalogue/run-selection.js';
import type {CredentialSources} from '../catalogue/credential-for.js';
import type {ProviderChoice} from '../catalogue/provider-choices.js';
import type {SavedChoice} from '../config/save-model-choice.js';
import type {Secrets} from '../tools/run-command.js';
import type {StartedExtensions} from './start-extensions.js';
import {catalogueFilesChannels, extensionCaller, modelCaller} from './model-callers.js';
import type {FilesChannels} from '../catalogue/select-model.js';

/** What binding needs of the run's options: the flags that choose a model and the config they came with. */
export interface BindingOptions {
	/** `--provider ID`. */
	provider?: string | undefined;
	/** `--model ID`. */
	model?: string | undefined;
	/** `--api-key`: the key for the provider the run started with, this run only (never stored, never shown). */
	apiKey?: string | undefined;
	/** The config file's path (`saveDefault` writes the session's choice there), or the config as an object (nothing is saved). */
	config?: string | object | undefined;
	/** `--trust-project`: the project's models.json may point providers elsewhere without a remembered "yes". */
	trustProject?: boolean | undefined;
}

/** The catalogue provider and model a run uses. */
export interface Selected {
	provider: string;
	model: string;
}

export type ModelSwitch = {ok: true; caller: ModelCaller; selected: Selected; previous: {provider: string | null; model: string}; credentialSource: string} | {ok: false; reason: string};

/** What `saveDefault` did: the file written, or why nothing was (the file then as it was). */
export type DefaultSave = ({ok: true; choice: Selected} & SavedChoice) | {ok: false; reason: string};

/** One generation's model: its caller, its catalogue and what it selected; taken only once the generation is. */
export interface Bound {
	caller: ModelCaller;
	catalogue: GenerationCatalogue;
	selected: Selected | null;
	secrets: Secrets | undefined;
}

interface GenerationCatalogue {
	built: import('../catalogue/build-catalogue.js').BuiltCatalogue;
	warnings: string[];
}

/**
 * The model a run calls, and how it may change: a catalogue selection
 * (`--provider`, `--model`, the config's `provider`) is made once the
 * extensions declared their providers, a config that chooses by `protocol`
 * keeps its built-in adapter, provider worker or extension provider. A
 * switch (/provider, /model) replaces the selection; a /reload binds it
 * again against the new generation. The shell tool hides every key a
 * binding resolved (`secrets`, read at each command).
 */
export class ModelBinding {
	readonly #loaded: LoadedConfig;
	readonly #options: BindingOptions;
	readonly #where: {dirs: PlatformDirs; workspace: string};
	#selection: Selection | undefined;
	/** The provider --api-key is for: a switch takes it along only to that provider. */
	readonly #flagProvider: string | undefined;
	/** The caller of a config that chooses by protocol, built once; null for an extension's protocol or a catalogue selection. */
	readonly #builtin: ModelCaller | null;
	/** Where a catalogue selection's key is looked for. */
	readonly #sources: CredentialSources;
	/** What the shell tool hides: added to, never replaced (a command may still hold an old key in its output). */
	readonly secrets: {names: string[]; values: string[]} = {names: [], values: []};
	#bound: Bound | undefined;
	/** The extensions the bound catalogue came from: a removal builds it again from them. */
	#source: StartedExtensions | undefined;
	/** provider.json's Files channel for a catalogue selection (DeepSeek's models), under the protocol route's rule. */
	readonly #files: FilesChannels;

	/**
	 * The part that needs no extension: the key of a config that chooses by
	 * protocol is resolved (whatever its source: --api-key, auth.json, a
	 * variable) and its built-in caller made.
	 */
	constructor(loaded: LoadedConfig, options: BindingOptions, where: {dirs: PlatformDirs; workspace: string; plugins: LoadedPlugins; pool: WorkerPool | null; warn: (message: string) => void}) {
		const {config} = loaded;
		this.#loaded = loaded;
		this.#options = options;
		this.#where = {dirs: where.dirs, workspace: where.workspace};
		this.#selection = runSelection(options, loaded);
		this.#flagProvider = this.#selection?.provider ?? (config.protocol === undefined ? undefined : providerOfProtocol(config.protocol));
		this.#sources = {apiKeyFlag: options.apiKey, configDir: where.dirs.config_dir};
		this.#files = catalogueFilesChannels(loaded, {dirs: where.dirs, workspace: where.workspace, warn: where.warn});
		const {plugins, pool} = where;
		const credential = this.#selection
			? undefined
			: runCredential(loaded, {hostSendsKey: !(plugins.provider && pool) && config.protocol !== undefined && isProtocol(config.protocol), apiKeyFlag: options.apiKey, configDir: where.dirs.config_dir});
		if (credential) this.#addSecrets(credential.secrets);
		this.#builtin = credential ? modelCaller(loaded, plugins, pool, credential.key, {dirs: where.dirs, workspace: where.workspace, warn: where.warn}) : null;
	}

	get caller(): ModelCaller {
		return this.#taken().caller;
	}

	/** The catalogue provider and model the run uses; null when the config chose by `protocol`. */
	get selected(): Selected | null {
		return this.#taken().selected;
	}

	/** The catalogue of the loaded generation: public descriptions only, never a header or a key. */
	get catalogue(): Catalogue {
		return this.#taken().catalogue.built.catalogue;
	}

	/**
	 * The caller a generation of extensions gives, with that generation's
	 * catalogue; nothing changes until `take`. A catalogue selection has its
	 * key resolved; a broken models.json stops it (it may route the key),
	 * while a config that chooses by protocol only warns of one.
	 */
	async bind(started: StartedExtensions): Promise<Bound> {
		const {config} = this.#loaded;
		if (this.#selection) {
			const catalogue = await this.#catalogueOf(started, true);
			const chosen = await chooseModel(this.#selection, catalogue.built, started.providers, config, this.#sources, this.#files);
			return {caller: chosen.caller, catalogue, selected: {provider: chosen.choice.provider.id, model: chosen.choice.model.id}, secrets: chosen.secrets};
		}

		const caller = this.#builtin ?? (await extensionCaller(this.#loaded, started.providers));
		const catalogue = await this.#catalogueOf(started, false);
		return {caller: await withProtocolPrices(caller, catalogue, this.#loaded), catalogue, selected: null, secrets: undefined};
	}

	/** The generation's binding becomes the run's; its key joins what the shell hides. */
	take(bound: Bound, started: StartedExtensions): void {
		if (bound.secrets) this.#addSecrets(bound.secrets);
		this.#bound = bound;
		this.#source = started;
	}

	/**
	 * Switches the running session to a catalogue model (/provider, /model):
	 * the caller is built (its key resolved) before the run takes it, so a
	 * switch that lacks auth or fails leaves the run as it was. config.json
	 * is never written here: `saveDefault` is the separate step.
	 */
	async switch(target: {provider: string | undefined; model: string | undefined; origin: string}): Promise<ModelSwitch> {
		const bound = this.#taken();
		const next: Selection = {provider: target.provider, model: target.model, origin: target.origin};
		let chosen: Awaited<ReturnType<typeof chooseModel>>;
		try {
			const {resolveSelection} = await import('../catalogue/select-model.js');
			const provider = resolveSelection(next, bound.catalogue.built).provider.id;
			const sources = {...this.#sources, apiKeyFlag: provider === this.#flagProvider ? this.#options.apiKey : undefined};
			chosen = await chooseModel(next, bound.catalogue.built, this.#source!.providers, this.#loaded.config, sources, this.#files);
		} catch (error) {
			return {ok: false, reason: errorMessage(error)};
		}

		const choice = {provider: chosen.choice.provider.id, model: chosen.choice.model.id};
		const previous = bound.selected ?? {provider: this.#flagProvider ?? null, model: bound.caller.model};
		this.#addSecrets(chosen.secrets);
		// A /reload binds this choice again, with --api-key only when it is still the run's first provider.
		this.#sources.apiKeyFlag = choice.provider === this.#flagProvider ? this.#options.apiKey : undefined;
		this.#selection = {...next, provider: choice.provider, model: choice.model};
		this.#bound = {...bound, caller: chosen.caller, selected: choice};
		return {ok: true, caller: chosen.caller, selected: choice, previous, credentialSource: chosen.credentialSource};
	}

	/**
	 * Makes the session's catalogue choice the default (/model --default):
	 * `"provider"` and `"model"` in config.json, nothing else changed; a
	 * config that chooses by protocol is refused, never rewritten.
	 */
	async saveDefault(): Promise<DefaultSave> {
		const {selected, caller} = this.#taken();
		if (typeof this.#options.config === 'object') return {ok: false, reason: 'the config was given as an object, not a file, so there is no file to save to'};
		if (selected === null) return {ok: false, reason: `this session uses ${caller.model} as ${this.#loaded.path} chooses it (by protocol): that is the default already`};
		try {
			const {saveModelChoice} = await import('../config/save-model-choice.js');
			return {ok: true, choice: selected, ...(await saveModelChoice(configPath(this.#options.config, this.#where.dirs.config_dir), selected))};
		} catch (error) {
			return {ok: false, reason: errorMessage(error)};
		}
	}

	/** The catalogue's providers for a chooser, those whose key resolves first. */
	async choices(): Promise<ProviderChoice[]> {
		return (await import('../catalogue/provider-choices.js')).providerChoices(this.#taken().catalogue.built, {configDir: this.#where.dirs.config_dir});
	}

	/** `/provider remove ID`: the person's models.json entry for ID (never the one in use) goes, and the catalogue is built again. */
	async remove(id: string): Promise<{ok: boolean; message: string}> {
		const bound = this.#taken();
		if (bound.selected?.provider === id) return {ok: false, message: `${id} is the provider this session uses: switch to another (/provider) before removing it`};
		const {removeProvider} = await import('../catalogue/remove-models-entry.js');
		const {dirs, workspace} = this.#where;
		return removeProvider(id, {
			global: join(dirs.config_dir, 'models.json'),
			project: join(workspace, '.i', 'models.json'),
			before: bound.catalogue.built.catalogue,
			// The catalogue is built again, so the pickers no longer offer what was removed.
			rebuild: async () => {
				const catalogue = await this.#catalogueOf(this.#source!, false);
				this.#bound = {...this.#taken(), catalogue};
				return catalogue.built.catalogue;
			},
		});
	}

	#taken(): Bound {
		if (!this.#bound) throw new Error('the model was used before a generation of extensions was bound');
		return this.#bound;
	}

	#addSecrets(more: Secrets): void {
		for (const name of more.names) if (!this.secrets.names.includes(name)) this.secrets.names.push(name);
		for (const value of more.values) if (!this.secrets.values.includes(value)) this.secrets.values.push(value);
	}

	/** One generation's catalogue with models.json over it; `strict`: a broken models.json stops what asked for it. */
	async #catalogueOf(started: StartedExtensions, strict: boolean): Promise<GenerationCatalogue> {
		const [{readTrustedModelsFiles}, {buildCatalogue}] = await Promise.all([import('./trusted-models-files.js'), import('../catalogue/build-catalogue.js')]);
		try {
			const {files, warnings} = await readTrustedModelsFiles({...this.#where, trustProject: this.#options.trustProject});
			const built = buildCatalogue(started.catalogue, files);
			return {built, warnings: [...warnings, ...built.warnings]};
		} catch (error) {
			if (strict || !(error instanceof UsageError)) throw error;
			return {built: buildCatalogue(started.catalogue, []), warnings: [`${errorMessage(error)} (this run chooses its model by "protocol", so it goes on without models.json)`]};
		}
	}
}

async function chooseModel(
	selection: Selection,
	built: GenerationCatalogue['built'],
	providers: StartedExtensions['providers'],
	config: LoadedConfig['config'],
	sources: CredentialSources,
	files: FilesChannels,
) {
	return (await import('../catalogue/select-model.js')).selectModel(selection, built, providers, config, sources, files);
}

/** The caller with its model's catalogue prices, for a config that chooses by protocol. */
async function withProtocolPrices(caller: ModelCaller, catalogue: GenerationCatalogue, loaded: LoadedConfig): Promise<ModelCaller> {
	const {config} = loaded;
	const {protocolPrices} = await import('../catalogue/select-model.js');
	const prices = config.protocol === undefined || config.model === undefined ? undefined : protocolPrices(catalogue.built, config.protocol, config.model);
	return prices ? {...caller, prices} : caller;
}
