import {AuthFile} from '../auth/auth-file.js';
import {resolveCredential} from '../auth/resolve-credential.js';
import type {BuiltCatalogue} from './build-catalogue.js';
import {authSubjectOf, type CredentialSources} from './credential-for.js';

/**
 * The providers a run without config.json may use on its own, in the order
 * it tries them (docs/providers.md, "No config at all"): the first whose key
 * resolves (auth.json or its variable) is used with its first model. A
 * provider that needs no key (a local server) never counts: it may not be
 * running, and a person who runs one can say so.
 */
export const ZERO_CONFIG_ORDER: readonly string[] = ['anthropic', 'openai', 'deepseek', 'openrouter', 'gemini', 'xai', 'mistral', 'groq'];

/** What a run without config.json uses: the provider, its first model, and where the key comes from (never the key). */
export interface ZeroConfigChoice {
	provider: string;
	model: string;
	/** `ANTHROPIC_API_KEY`, `auth.json (API key)`. */
	keySource: string;
}

/** The first provider of ZERO_CONFIG_ORDER in the catalogue with a model and a key that resolves (local state only); undefined when none. */
export function zeroConfigChoice(built: BuiltCatalogue, sources: Omit<CredentialSources, 'apiKeyFlag'>): ZeroConfigChoice | undefined {
	const store = AuthFile.in(sources.configDir);
	const env = sources.env ?? process.env;
	for (const id of ZERO_CONFIG_ORDER) {
		const provider = built.catalogue.provider(id);
		const binding = built.bindings.get(id);
		const first = provider?.models[0];
		if (!provider?.requiresAuth || !binding || !first) continue;
		const resolved = resolveCredential(authSubjectOf(binding), {store, env});
		// A broken auth.json is the run's to report; here it only means "no key from it".
		if (resolved.ok && resolved.source !== 'anonymous') return {provider: id, model: first.id, keySource: resolved.detail};
	}

	return undefined;
}
