import {UsageError} from '../errors.js';
import type {LoadedConfig} from '../config/load-config.js';
import type {Secrets} from '../tools/run-command.js';
import {AuthFile} from './auth-file.js';
import {configAuthSubject} from './auth-subjects.js';
import {resolveCredential} from './resolve-credential.js';

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
	const name = loaded.config.api_key_env;
	const names = name === undefined ? [] : [name];
	// Hidden even when another source wins: the model has no business reading any key the config names.
	const named = name === undefined ? undefined : env[name];
	const values = named === undefined || named === '' ? [] : [named];
	if (!options.hostSendsKey) {
		if (options.apiKeyFlag !== undefined) {
			throw new UsageError(
				`--api-key: ${JSON.stringify(loaded.config.protocol)} (config ${loaded.path}) is served by a provider worker or an extension provider, which finds its own credentials; i sends --api-key only to a built-in protocol's provider`,
			);
		}

		return {key: undefined, secrets: {names, values}};
	}

	const subject = configAuthSubject(loaded);
	const resolved = resolveCredential(subject, {apiKeyFlag: options.apiKeyFlag, store: AuthFile.in(options.configDir), env});
	if (!resolved.ok) {
		if (resolved.kind === 'missing' && name === undefined) {
			throw new UsageError(
				`config ${loaded.path}: missing field "api_key_env": the name of the environment variable that holds the API key (${resolved.tried.join('; ')}); set it, pass --api-key, or run i auth login ${subject.provider}`,
			);
		}

		throw new UsageError(resolved.reason);
	}

	if (resolved.key !== undefined) values.push(resolved.key);
	return {key: resolved.key, secrets: {names, values}};
}
