/**
 * The one way a module of this package becomes a provider of the host: its
 * catalogue entry for `declare({providers})` and a streaming registration
 * whose requests run on the host's own client (`io.completions`): its SSE
 * reader, assembler, retries and limits, not a copy of them here.
 */
import type {DeclaredProvider, ExtensionApi, ExtensionStreamingProvider, ProviderRequest} from 'i-agent/extension';
import type {ProviderModule} from './modules/module.js';

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

/** The request as the server gets it: an alias becomes the model it names, its fields under the person's own `extra_body`. */
export function resolveAlias(module: ProviderModule, req: ProviderRequest): ProviderRequest {
	const alias = module.aliases?.[req.model];
	return alias === undefined ? req : {...req, model: alias.model, extra: {...alias.extra, ...req.extra}};
}

/** The registration of one module: the request uses the endpoint, headers and key the host gives it with each request. */
export function registration(module: ProviderModule): ExtensionStreamingProvider {
	return {
		id: module.id,
		apiStyle: 'openai-completions',
		...(module.baseUrl === undefined ? {} : {baseUrl: module.baseUrl}),
		async request(req, io) {
			if (!io.completions) throw new Error(`i-providers needs io.completions (the host's own client), which this i does not have: upgrade i`);
			return io.completions(resolveAlias(module, req), {...module.wire, ...(module.baseUrl === undefined ? {} : {baseUrl: module.baseUrl})});
		},
	};
}

/** Declares every module's catalogue entry in one `declare` and registers each. */
export function registerModules(api: ExtensionApi, modules: readonly ProviderModule[]): void {
	if (!api.registerStreamingProvider) throw new Error(`i-providers needs api.registerStreamingProvider, which this i (extension API ${api.apiVersion}) does not have: upgrade i`);
	api.declare?.({providers: modules.map(declaration)});
	for (const module of modules) api.registerStreamingProvider(registration(module));
}
