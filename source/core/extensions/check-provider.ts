import {reservedProviderIds} from '../catalogue/builtin-providers.js';
import {apiStylePattern, hasCredentials, isHttpUrl, MAX_API_STYLE_LENGTH, MAX_PROVIDER_ID_LENGTH, providerIdPattern} from '../catalogue/provider-id.js';
import type {ProviderRegistration} from './api.js';

export {MAX_API_STYLE_LENGTH, MAX_PROVIDER_ID_LENGTH} from '../catalogue/provider-id.js';

/** One registered provider, checked and copied: an extension changing its object later changes nothing. */
export interface CheckedProvider {
	id: string;
	baseUrl: string | undefined;
	apiStyle: string;
	/** `registerStreamingProvider`: its `request` gets `{emit, control, signal}`; else `{signal}`. */
	streaming: boolean;
	request: ProviderRegistration<unknown>['request'];
}

/**
 * The object `registerProvider` / `registerStreamingProvider` was given,
 * checked field by field; throws an Error naming the slot and the field.
 */
export function checkProvider(value: unknown, streaming: boolean): CheckedProvider {
	const slot = streaming ? 'registerStreamingProvider' : 'registerProvider';
	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${slot} takes an object: {id, baseUrl?, apiStyle, request}`);
	const {id, baseUrl, apiStyle, request} = value as Record<string, unknown>;
	if (typeof id !== 'string' || !providerIdPattern.test(id)) {
		throw new Error(`${slot}: id must be 1–${MAX_PROVIDER_ID_LENGTH} of lower-case a-z, 0-9, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(id)})`);
	}

	const where = `${slot} "${id}"`;
	// The built-in providers' ids: no extension takes over openai or anthropic. `deepseek` is free for the provider package
	// (a config's protocol "deepseek" still names the built-in wire; a config's provider "deepseek" names this one).
	if (reservedProviderIds.includes(id)) throw new Error(`${where}: id is a built-in provider's (${reservedProviderIds.join(', ')}); pick another`);
	if (baseUrl !== undefined && !isHttpUrl(baseUrl))
		throw new Error(`${where}: baseUrl must be an http:// or https:// URL, or absent (got ${JSON.stringify(typeof baseUrl === 'string' ? baseUrl.slice(0, 200) : baseUrl)})`);
	// baseUrl is shown (i extensions): a credential in it would be shown too.
	if (baseUrl !== undefined && hasCredentials(baseUrl)) throw new Error(`${where}: baseUrl may not hold a user name or password; the provider finds its credentials itself`);
	if (typeof apiStyle !== 'string' || !apiStylePattern.test(apiStyle)) {
		throw new Error(`${where}: apiStyle must be 1–${MAX_API_STYLE_LENGTH} printable ASCII characters without spaces, such as "openai-completions" (got ${JSON.stringify(apiStyle)})`);
	}

	if (typeof request !== 'function') throw new Error(`${where}: request must be a function (req, ${streaming ? '{emit, control, signal}' : '{signal}'}) => message`);
	return {id, baseUrl, apiStyle, streaming, request: request as CheckedProvider['request']};
}
