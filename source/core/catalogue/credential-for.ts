import {UsageError} from '../errors.js';

/** What a provider needs to be called with: which it is, where its key is, whether it may go without. */
export interface CredentialRequest {
	provider: string;
	/** The NAME of the variable the catalogue (or models.json's `apiKey`) gives. */
	apiKeyEnv: string | undefined;
	requiresAuth: boolean;
}

/** The key a provider's requests use, or null for an anonymous one; `source` says where it came from (never the key). */
export interface Credential {
	apiKey: string | null;
	/** `environment variable DEEPSEEK_API_KEY`, `anonymous`. */
	source: string;
}

/**
 * The one place a catalogue selection's key is resolved (the auth work
 * replaces this body with the appendix's whole order: --api-key, auth.json,
 * models.json, the declared variable, anonymous). Today: the declared
 * variable; an anonymous provider (`requiresAuth: false`) gets null. The
 * protocol never implies a key: a DeepSeek model never reads
 * OPENAI_API_KEY. Blank values do not count. Throws a UsageError saying
 * what to set, never a value.
 */
export function credentialFor(request: CredentialRequest, env: NodeJS.ProcessEnv = process.env): Credential {
	const {provider, apiKeyEnv, requiresAuth} = request;
	const value = apiKeyEnv === undefined ? undefined : env[apiKeyEnv];
	if (value !== undefined && value.trim() !== '') return {apiKey: value, source: `environment variable ${apiKeyEnv}`};
	if (!requiresAuth) return {apiKey: null, source: 'anonymous'};
	if (apiKeyEnv === undefined) {
		throw new UsageError(`provider "${provider}" needs a key, and its catalogue entry names no variable for it; set "apiKey" (a variable's NAME) under providers.${provider} in models.json`);
	}

	throw new UsageError(`provider "${provider}" needs a key: environment variable ${apiKeyEnv} is ${value === undefined ? 'not set' : 'blank'}; export it with your API key`);
}
