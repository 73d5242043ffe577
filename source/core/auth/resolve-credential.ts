import {UsageError, errorMessage} from '../errors.js';
import type {CredentialStore, StoredCredential} from './auth-file.js';

/** What credentials are resolved for: one provider, as the catalogue (or today's config) describes it. */
export interface AuthSubject {
	provider: string;
	/** The environment variable the provider declares for its key. */
	apiKeyEnv?: string | undefined;
	/** False only when the provider explicitly allows requests without a key (spec/extensions.md §11: `requiresAuth: false`). */
	requiresAuth: boolean;
	/** models.json's `apiKey` for this provider: the NAME of an environment variable. */
	modelsJsonKeyEnv?: string | undefined;
	/** The models.json that names it, for messages. */
	modelsJsonPath?: string | undefined;
	/** Where `apiKeyEnv` was declared, for messages: `"api_key_env" in /x/config.json`. */
	apiKeyEnvFrom?: string | undefined;
	/** An extension registered an OAuth flow for it (registerOAuthProvider): an expired token with a refresh token still counts, as a run refreshes it first. */
	oauthFlow?: boolean | undefined;
}

export type CredentialSource = 'flag' | 'auth.json' | 'models.json' | 'env' | 'anonymous';

export type Credential = {
	ok: true;
	/** Absent for an anonymous provider. */
	key?: string;
	source: CredentialSource;
	/** The source in words, never the value: `auth.json (OAuth token, expires 2026-12-03 10:00 UTC)`, `DEEPSEEK_API_KEY`. */
	detail: string;
	/** Sources before this one that held something unusable (a blank value, an unset variable, an expired token). */
	skipped: string[];
	/** The key is an OAuth access token from auth.json, expiring then (milliseconds since 1970). */
	oauthExpires?: number;
};

/** `missing`: nothing usable (exit 1 for `i auth check`); `config`: a file or a name is wrong (exit 2). */
export type CredentialProblem = {ok: false; kind: 'config'; reason: string} | {ok: false; kind: 'missing'; reason: string /** What was looked at and why it did not count, in order. */; tried: string[]};

export interface ResolveOptions {
	/** `--api-key`: the caller passes it only when `subject` is the run's selected provider. */
	apiKeyFlag?: string | undefined;
	store: CredentialStore;
	env: NodeJS.ProcessEnv;
	/** For OAuth expiry; the clock by default. */
	now?: number;
}

/**
 * The one credential resolution (spec/extensions.md §11): `--api-key` →
 * auth.json (a key, or an OAuth token that has not expired) → models.json's
 * variable → the declared `apiKeyEnv` → anonymous when the provider allows
 * it. Nothing else: the protocol never implies a key (no OPENAI_API_KEY for
 * a DeepSeek model). Local state only: no network, no token refresh. Blank
 * values, unset variables and expired tokens are skipped and listed.
 */
export function resolveCredential(subject: AuthSubject, options: ResolveOptions): Credential | CredentialProblem {
	const {provider} = subject;
	// Everything looked at, for the message when nothing is found; of it, what held an unusable value, for the one that is.
	const tried: string[] = [];
	const skipped: string[] = [];
	const skip = (what: string) => {
		tried.push(what);
		skipped.push(what);
	};

	const found = (source: CredentialSource, detail: string, key?: string, oauthExpires?: number): Credential => ({
		ok: true,
		...(key === undefined ? {} : {key}),
		source,
		detail,
		skipped,
		...(oauthExpires === undefined ? {} : {oauthExpires}),
	});

	if (options.apiKeyFlag !== undefined) {
		if (!isBlank(options.apiKeyFlag)) return found('flag', '--api-key (this run only)', options.apiKeyFlag);
		skip('--api-key is blank');
	}

	let stored: StoredCredential | undefined;
	try {
		stored = options.store.read().get(provider);
	} catch (error) {
		if (error instanceof UsageError) return {ok: false, kind: 'config', reason: errorMessage(error)};
		throw error;
	}

	const file = `auth.json (${options.store.path})`;
	if (stored?.type === 'api_key') {
		if (!isBlank(stored.key)) return found('auth.json', 'auth.json (API key)', stored.key);
		skip(`the key for ${provider} in ${file} is blank`);
	} else if (stored?.type === 'oauth') {
		const now = options.now ?? Date.now();
		const refreshable = subject.oauthFlow === true && stored.refresh !== undefined && !isBlank(stored.refresh);
		if (isBlank(stored.access)) skip(`the OAuth token for ${provider} in ${file} is blank`);
		else if (stored.expires > now) return found('auth.json', `auth.json (OAuth token valid until ${describeTime(stored.expires)})`, stored.access, stored.expires);
		else if (refreshable) return found('auth.json', `auth.json (OAuth token expired ${describeTime(stored.expires)}, refresh possible)`, stored.access, stored.expires);
		else skip(`the OAuth token for ${provider} in ${file} expired ${describeTime(stored.expires)}${subject.oauthFlow === true ? ' and there is no refresh token' : ''}`);
	} else {
		tried.push(`${file} has no entry for ${provider}`);
	}

	if (subject.modelsJsonKeyEnv !== undefined) {
		const from = `named by "apiKey" in ${subject.modelsJsonPath ?? 'models.json'}`;
		const value = options.env[subject.modelsJsonKeyEnv];
		if (value !== undefined && !isBlank(value)) return found('models.json', `${subject.modelsJsonKeyEnv} (${from})`, value);
		skip(`environment variable ${subject.modelsJsonKeyEnv} ${value === undefined ? 'is not set' : 'is blank'} (${from})`);
	}

	if (subject.apiKeyEnv !== undefined) {
		const from = subject.apiKeyEnvFrom === undefined ? '' : ` (named by ${subject.apiKeyEnvFrom})`;
		const value = options.env[subject.apiKeyEnv];
		if (value !== undefined && !isBlank(value)) return found('env', `${subject.apiKeyEnv}${from}`, value);
		skip(`environment variable ${subject.apiKeyEnv} ${value === undefined ? 'is not set' : 'is blank'}${from}`);
	} else if (subject.modelsJsonKeyEnv === undefined && subject.requiresAuth) {
		tried.push(`${provider} declares no key variable`);
	}

	if (!subject.requiresAuth) return found('anonymous', `anonymous (${provider} allows requests without a key)`);
	const variable = subject.modelsJsonKeyEnv ?? subject.apiKeyEnv;
	const fix = variable === undefined ? `run i auth login ${provider}` : `export ${variable} with your API key or run i auth login ${provider}`;
	return {ok: false, kind: 'missing', reason: `no API key for ${provider}: ${tried.join('; ')}; ${fix}`, tried};
}

/** Blank values do not count: an exported but empty variable is a mistake, not a key. */
function isBlank(value: string): boolean {
	return value.trim() === '';
}

/** `2026-12-03 10:00 UTC`: an expiry to the minute, in one zone whatever the machine's. */
export function describeTime(ms: number): string {
	const date = new Date(ms);
	if (Number.isNaN(date.getTime())) return `at ${ms} ms`;
	return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
