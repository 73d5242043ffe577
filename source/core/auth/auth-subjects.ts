import type {LoadedConfig} from '../config/load-config.js';
import type {AuthSubject} from './resolve-credential.js';
import {ANTHROPIC_API_KEY_ENV, OPENAI_API_KEY_ENV} from '../catalogue/builtin-providers.js';

/** The providers the core itself knows and the variables they declare; the catalogue (declare({providers})) adds its own. */
export const builtinAuthSubjects: readonly AuthSubject[] = [
	{provider: 'openai', apiKeyEnv: OPENAI_API_KEY_ENV, requiresAuth: true},
	{provider: 'anthropic', apiKeyEnv: ANTHROPIC_API_KEY_ENV, requiresAuth: true},
	{provider: 'deepseek', apiKeyEnv: 'DEEPSEEK_API_KEY', requiresAuth: true},
];

/** The providers `i auth` knows: their ids and a lookup by id. */
export interface AuthCatalogue {
	ids(): string[];
	lookup(id: string): AuthSubject | undefined;
}

/**
 * The provider a config's `protocol` selects. The Responses protocol is
 * OpenAI's API, so its credentials are OpenAI's (`i auth login openai`);
 * every other name is its own provider id.
 */
export function providerOfProtocol(protocol: string): string {
	return protocol === 'responses' ? 'openai' : protocol;
}

/**
 * The subject of a config as configs are written today (`protocol` +
 * `api_key_env`): the provider its protocol selects, with `api_key_env` as
 * the one declared variable. Not the provider's usual variable: a config
 * of protocol `openai` pointed at another service must not pick up
 * OPENAI_API_KEY (the protocol never implies a key).
 */
export function configAuthSubject(loaded: LoadedConfig): AuthSubject {
	const {protocol, api_key_env: name} = loaded.config;
	if (protocol === undefined) throw new Error(`config ${loaded.path} chooses its model by catalogue "provider", not by "protocol"`);
	return {
		provider: providerOfProtocol(protocol),
		...(name === undefined ? {} : {apiKeyEnv: name, apiKeyEnvFrom: `"api_key_env" in ${loaded.path}`}),
		requiresAuth: true,
	};
}
