import {MissingKeyError, UsageError} from '../errors.js';
import type {LoadedConfig} from '../config/load-config.js';
import type {Secrets} from '../tools/run-command.js';
import {AuthFile} from './auth-file.js';
import {configAuthSubject} from './auth-subjects.js';
import {resolveCredential, type AuthSubject} from './resolve-credential.js';

export interface RunCredentialOptions {
	/** Whether the host sends the key itself: a built-in adapter does; a provider worker and an extension provider find their own. */
	hostSendsKey: boolean;
	/** `--api-key`, for the provider the config selects. */
	apiKeyFlag?: string | undefined;
	configDir: string;
	env?: NodeJS.ProcessEnv;
}

export interface RunCredential {
	/** The key the built-in adapter sends; undefined when the host sends none. */
	key: string | undefined;
	/** What the shell tool's commands must not see: the variables that may hold the key, and the key itself under any name. */
	secrets: Secrets;
}

/**
 * The credential of a run of today's configs (resolve-credential.ts, for
 * configAuthSubject). A missing key or a broken auth.json is a UsageError
 * (exit 2) naming what was tried: the variable that is not set and the
 * file that named it, the auth.json entry that is missing or expired.
 */
export function runCredential(loaded: LoadedConfig, options: RunCredentialOptions): RunCredential {
	const env = options.env ?? process.env;
	const subject = configAuthSubject(loaded);
	if (!options.hostSendsKey) {
		if (options.apiKeyFlag !== undefined) {
			throw new UsageError(
				`--api-key: ${JSON.stringify(loaded.config.protocol)} (config ${loaded.path}) is served by a provider worker or an extension provider, which finds its own credentials; i sends --api-key only to a built-in protocol's provider`,
			);
		}

		return {key: undefined, secrets: credentialSecrets(subject, undefined, env)};
	}

	const resolved = resolveCredential(subject, {apiKeyFlag: options.apiKeyFlag, store: AuthFile.in(options.configDir), env});
	if (!resolved.ok) {
		if (resolved.kind === 'missing' && subject.apiKeyEnv === undefined) {
			throw new UsageError(
				`config ${loaded.path}: missing field "api_key_env": the name of the environment variable that holds the API key (${resolved.tried.join('; ')}); set it, pass --api-key, or run i auth login ${subject.provider}`,
			);
		}

		throw resolved.kind === 'missing' ? new MissingKeyError(resolved.reason, subject.provider) : new UsageError(resolved.reason);
	}

	return {key: resolved.key, secrets: credentialSecrets(subject, resolved.key, env)};
}

/**
 * What the shell tool hides for a provider: the variables that may hold its
 * key (models.json's and the declared one) and their values, even when
 * another source won (the model has no business reading any of them), and
 * the key in use under any name.
 */
export function credentialSecrets(subject: AuthSubject, key: string | undefined, env: NodeJS.ProcessEnv = process.env): Secrets {
	const names = [subject.modelsJsonKeyEnv, subject.apiKeyEnv].filter(name => name !== undefined);
	const values = [...names.map(name => env[name]), key].filter((value): value is string => value !== undefined && value !== '');
	return {names: [...new Set(names)], values: [...new Set(values)]};
}
