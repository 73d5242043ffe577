import {AuthFile} from '../auth/auth-file.js';
import {resolveCredential} from '../auth/resolve-credential.js';
import type {BuiltCatalogue} from './build-catalogue.js';
import type {CatalogueModel} from './catalogue.js';
import {authSubjectOf, type CredentialSources} from './credential-for.js';

/** A catalogue provider as a chooser offers it: whether its key resolves now (local state only), and its models. */
export interface ProviderChoice {
	id: string;
	/** Its key resolves (or it needs none): a switch to it can go through. */
	ready: boolean;
	/** False for an anonymous provider (a local server): "ready" then says nothing about whether it runs. */
	needsKey: boolean;
	/** Where the key would come from, or what is missing; never a value. */
	auth: string;
	models: ReadonlyArray<Pick<CatalogueModel, 'id' | 'name' | 'contextWindow' | 'cost'>>;
}

/**
 * The catalogue's providers for the chooser (/provider, /model, the first
 * run): those whose key resolves first, each group in catalogue order.
 * Resolution is auth's own (no network), with no --api-key: that flag is
 * for the run's selection only.
 */
export function providerChoices(built: BuiltCatalogue, sources: Omit<CredentialSources, 'apiKeyFlag'>): ProviderChoice[] {
	const store = AuthFile.in(sources.configDir);
	const env = sources.env ?? process.env;
	const choices = built.catalogue.providers().map((provider): ProviderChoice => {
		const binding = built.bindings.get(provider.id);
		const resolved = binding ? resolveCredential(authSubjectOf(binding), {store, env}) : undefined;
		const ready = resolved?.ok === true;
		const auth = resolved === undefined ? 'no binding' : resolved.ok ? (resolved.source === 'anonymous' ? 'no key needed' : `key from ${resolved.detail}`) : resolved.reason;
		return {id: provider.id, ready, needsKey: provider.requiresAuth, auth, models: provider.models.map(model => ({id: model.id, name: model.name, contextWindow: model.contextWindow, cost: model.cost}))};
	});
	return [...choices.filter(choice => choice.ready), ...choices.filter(choice => !choice.ready)];
}
