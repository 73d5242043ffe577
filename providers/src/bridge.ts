/**
 * The one way a module of this package becomes a provider of the host: its
 * catalogue entry for `declare({providers})` and a streaming registration
 * whose requests go through the shared client. The client's code loads at
 * the first request, not at `register`: every run of `i` loads this package,
 * and most never call three of its four providers.
 */
import type {DeclaredProvider, ExtensionApi, ExtensionStreamingProvider} from 'i-agent/extension';
import type {ProviderModule} from './modules/module.js';

type Client = typeof import('./client/stream-completion.js');
let client: Promise<Client> | undefined;

/** The catalogue entry: what `i --list-models` shows; never a header or a key. */
export function declaration(module: ProviderModule): DeclaredProvider {
	return {
		id: module.id,
		models: module.models,
		requiresAuth: module.requiresAuth,
		...(module.apiKeyEnv === undefined ? {} : {apiKeyEnv: module.apiKeyEnv}),
		...(module.baseUrl === undefined ? {} : {baseUrl: module.baseUrl}),
	};
}

/** The registration of one module: the request uses the endpoint, headers and key the host gives it with each request. */
export function registration(module: ProviderModule): ExtensionStreamingProvider {
	return {
		id: module.id,
		apiStyle: 'openai-completions',
		...(module.baseUrl === undefined ? {} : {baseUrl: module.baseUrl}),
		async request(req, io) {
			client ??= import('./client/stream-completion.js');
			const {streamCompletion} = await client.catch((error: unknown) => {
				client = undefined;
				throw error;
			});
			return streamCompletion(module, req, io);
		},
	};
}

/** Declares every module's catalogue entry in one `declare` and registers each. */
export function registerModules(api: ExtensionApi, modules: readonly ProviderModule[]): void {
	if (!api.registerStreamingProvider) throw new Error(`i-providers needs api.registerStreamingProvider, which this i (extension API ${api.apiVersion}) does not have: upgrade i`);
	api.declare?.({providers: modules.map(declaration)});
	for (const module of modules) api.registerStreamingProvider(registration(module));
}
