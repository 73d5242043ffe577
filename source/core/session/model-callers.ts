import {UsageError} from '../errors.js';
import {isProtocol, type LoadedConfig} from '../config/load-config.js';
import {protocols} from '../providers/types.js';
import type {OwnedProvider} from '../extensions/extension-provider.js';
import {createAdapter, defaultBaseUrls} from '../providers/index.js';
import {createWorkerProviderCaller} from '../providers/worker-provider.js';
import {createHttpCaller, type FilesChannel, type FilesEndpoint, type ModelCaller} from '../providers/model-caller.js';
import {accountScope, filesChannelAuthorised, loadProviderFile, type LoadedProviderFile} from '../config/provider-file.js';
import type {PlatformDirs} from '../config/dirs.js';
import type {LoadedPlugins, WorkerPool} from '../pool/types.js';
import type {FilesChannels} from '../catalogue/select-model.js';

/**
 * The built-in HTTP adapters, or the provider worker when one is bound (the
 * API config's binding wins, see load-plugins); null when the protocol is
 * neither, which an extension provider may then be (extensionCaller).
 */
export function modelCaller(loaded: LoadedConfig, plugins: LoadedPlugins, pool: WorkerPool | null, apiKey: string | undefined, where: FilesPlace): ModelCaller | null {
	const {config} = loaded;
	if (plugins.provider && pool) {
		return createWorkerProviderCaller({
			pool,
			worker: plugins.provider,
			protocol: config.protocol ?? '',
			model: configModel(loaded),
			...(config.max_tokens === undefined ? {} : {maxTokens: config.max_tokens}),
			extraBody: config.extra_body,
		});
	}

	const {protocol} = config;
	if (protocol === undefined || !isProtocol(protocol)) return null;
	if (apiKey === undefined) throw new Error('a built-in protocol was set up without a key');
	const adapter = createAdapter(protocol, {
		model: configModel(loaded),
		baseUrl: config.base_url ?? '',
		...(config.max_tokens === undefined ? {} : {maxTokens: config.max_tokens}),
		useMaxTokens: config.use_max_tokens,
		extraBody: config.extra_body,
	});
	// provider.json is the built-in adapters' (spec/platform.md §4): the Files channel runs only with both authorisations.
	const provider = loadProviderFile(where.dirs);
	const endpoint = {baseUrl: config.base_url ?? defaultBaseUrls.deepseek, headers: adapter.headers(apiKey), keyName: config.api_key_env, maxRetries: config.max_retries};
	const files = filesChannelAuthorised(loaded, provider) ? lazyFilesChannel(provider, endpoint, where) : undefined;
	return createHttpCaller({adapter, apiKey, model: configModel(loaded), http: {maxRetries: config.max_retries}, ...(files ? {files} : {})});
}

/** A config that chooses by `protocol` has its model (checkModelConfig); only a catalogue selection may leave it out. */
export function configModel(loaded: LoadedConfig): string {
	if (loaded.config.model === undefined) throw new UsageError(`config ${loaded.path}: missing field "model"`);
	return loaded.config.model;
}

/** Where the Files channel keeps its registry, and how it warns. */
export interface FilesPlace {
	dirs: PlatformDirs;
	workspace: string;
	warn: (message: string) => void;
}

/** The Files channel as a catalogue selection asks for it: provider.json read at each selection, under the protocol route's one rule (filesChannelAuthorised). */
export function catalogueFilesChannels(loaded: LoadedConfig, where: FilesPlace): FilesChannels {
	let provider: LoadedProviderFile | undefined;
	return {
		applies(model) {
			provider = loadProviderFile(where.dirs);
			return filesChannelAuthorised(loaded, provider, model, where.warn);
		},
		open: endpoint => lazyFilesChannel(provider ?? loadProviderFile(where.dirs), endpoint, where),
	};
}

/** The DeepSeek Files channel, its code loaded (and the workspace registered) at the first request that carries an image. */
export function lazyFilesChannel(provider: LoadedProviderFile, endpoint: FilesEndpoint, where: FilesPlace): FilesChannel {
	const {baseUrl, headers} = endpoint;
	let channel: Promise<FilesChannel> | undefined;
	const open = async (): Promise<FilesChannel> => {
		const [{DeepSeekFilesChannel}, {FileRegistry, registryPath}, {workspaceId}] = await Promise.all([
			import('../providers/deepseek-files/channel.js'),
			import('../providers/deepseek-files/registry.js'),
			import('../config/workspace-registry.js'),
		]);
		return new DeepSeekFilesChannel({
			baseUrl,
			headers,
			config: provider.config,
			accountScope: accountScope(endpoint.keyName, provider.config, baseUrl),
			registry: async () => new FileRegistry(registryPath(where.dirs, await workspaceId(where.workspace, where.dirs))),
			retry: {maxRetries: endpoint.maxRetries},
			warn: where.warn,
		});
	};

	return {
		async reference(messages, signal) {
			// Nothing to upload: no image, and nothing loaded for it.
			if (!messages.some(message => message.role === 'user' && typeof message.content !== 'string' && message.content.some(part => part.type === 'image_url'))) return new Map();
			// A failed load (a broken workspace registry) is tried again at the next request, not remembered.
			channel ??= open().catch((error: unknown) => {
				channel = undefined;
				throw error;
			});
			return (await channel).reference(messages, signal);
		},
	};
}

/** The extension provider the config's `protocol` names (spec/extensions.md §5); one no loaded extension registered is a usage error saying what there is. */
export async function extensionCaller(loaded: LoadedConfig, providers: ReadonlyMap<string, OwnedProvider>): Promise<ModelCaller> {
	const {config} = loaded;
	const owned = config.protocol === undefined ? undefined : providers.get(config.protocol);
	if (!owned) {
		const registered = providers.size === 0 ? 'the loaded extensions registered no provider' : `the loaded extensions registered ${[...providers.keys()].join(', ')}`;
		throw new UsageError(
			`config ${loaded.path}: field "protocol": ${JSON.stringify(config.protocol)} is neither a built-in protocol (${protocols.join(', ')}) nor a provider a loaded extension registered (${registered}); ` +
				'load the extension that provides it, bind a provider worker ("provider") that speaks it, or pick one of those',
		);
	}

	const {createExtensionProviderCaller} = await import('../extensions/extension-provider.js');
	return createExtensionProviderCaller(owned, {
		model: configModel(loaded),
		...(config.max_tokens === undefined ? {} : {maxTokens: config.max_tokens}),
		extraBody: config.extra_body,
		http: {maxRetries: config.max_retries},
	});
}
