import {AuthFile} from '../auth/auth-file.js';
import {resolveCredential, type AuthSubject} from '../auth/resolve-credential.js';
import {credentialSecrets} from '../auth/run-credential.js';
import {MissingKeyError, UsageError} from '../errors.js';
import type {Secrets} from '../tools/run-command.js';
import type {ExecutionBinding} from './execution-binding.js';

/** Where a catalogue provider's key is looked for besides its binding: this run's `--api-key` (for the selected provider only) and auth.json's folder. */
export interface CredentialSources {
	/** `--api-key`: given only when the provider is the run's selection, never to another. */
	apiKeyFlag?: string | undefined;
	/** The folder of auth.json (`<config_dir>`). */
	configDir: string;
	env?: NodeJS.ProcessEnv;
}

/** The key a provider's requests use, or null for an anonymous one; `source` says where it came from (never the key). */
export interface Credential {
	apiKey: string | null;
	/** `DEEPSEEK_API_KEY (named by …)`, `auth.json (API key)`, `anonymous (…)`. */
	source: string;
	/** What the shell tool hides: the provider's key variables and the key. */
	secrets: Secrets;
	/** The key is an OAuth access token from auth.json: a run with the provider's OAuth flow refreshes it (oauth-key.ts). */
	oauth: boolean;
}

/** What auth resolves for a catalogue provider: its private binding's key variables (models.json's apart from the declared one) and whether it may go without. */
export function authSubjectOf(binding: ExecutionBinding): AuthSubject {
	return {
		provider: binding.provider,
		requiresAuth: binding.requiresAuth,
		...(binding.apiKeyEnv === undefined ? {} : {apiKeyEnv: binding.apiKeyEnv}),
		...(binding.modelsJsonKeyEnv === undefined ? {} : {modelsJsonKeyEnv: binding.modelsJsonKeyEnv, modelsJsonPath: binding.modelsJsonPath}),
	};
}

/**
 * The key of a catalogue selection: auth's one resolution
 * (resolve-credential.ts, the order of spec/extensions.md §11: --api-key, auth.json,
 * models.json's variable, the declared variable, anonymous) for the
 * provider's binding. The protocol never implies a key. Throws a UsageError
 * saying what was tried and what to do, never a value.
 */
export function credentialFor(binding: ExecutionBinding, sources: CredentialSources, oauthFlow = false): Credential {
	const env = sources.env ?? process.env;
	const subject = {...authSubjectOf(binding), oauthFlow};
	const resolved = resolveCredential(subject, {apiKeyFlag: sources.apiKeyFlag, store: AuthFile.in(sources.configDir), env});
	if (!resolved.ok) throw resolved.kind === 'missing' ? new MissingKeyError(resolved.reason, subject.provider) : new UsageError(resolved.reason);
	const apiKey = resolved.key ?? null;
	return {apiKey, source: resolved.detail, secrets: credentialSecrets(subject, resolved.key, env), oauth: resolved.oauthExpires !== undefined};
}
