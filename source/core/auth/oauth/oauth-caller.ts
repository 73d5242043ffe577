import type {ModelCaller} from '../../providers/model-caller.js';
import {ProviderError, redact} from '../../providers/errors.js';
import type {OAuthCredential, OAuthKey} from './oauth-key.js';
import {OAuthError} from './token-endpoint.js';

/** A 401 is answered by one refresh and one more try: a second 401 with fresh tokens is the server's final word. */
const RETRIES_AFTER_401 = 1;

/**
 * The caller of a provider whose key is an OAuth token: each request gets
 * the current key (refreshed first near its expiry), and a 401 that came
 * before any text refreshes the tokens and sends the request once more.
 * `make` builds the provider's own caller for one key. A failed refresh is
 * the request's error, naming the provider, with no token in it.
 */
export function withOAuthKey(make: (key: string) => ModelCaller, key: OAuthKey): ModelCaller {
	const shape = make('');
	const keyed = async (get: () => Promise<OAuthCredential>): Promise<OAuthCredential> => {
		try {
			return await get();
		} catch (error) {
			if (error instanceof OAuthError) throw new ProviderError(error.message, {kind: error.code === 'cancelled' ? 'aborted' : 'http'});
			throw error;
		}
	};

	return {
		...shape,
		async send(request, io) {
			let credential = await keyed(async () => key.current(io.signal));
			for (let attempt = 0; ; attempt++) {
				try {
					return await make(credential.key).send(request, io);
				} catch (error) {
					const unauthorized = error instanceof ProviderError && error.status === 401 && error.partialText === '';
					if (!unauthorized || attempt >= RETRIES_AFTER_401) throw hideTokens(error, credential);
					const used = credential;
					credential = await keyed(async () => key.afterUnauthorized(used, io.signal));
				}
			}
		},
	};
}

/** The provider's caller hides the key it sent; the access token behind a mapped key is hidden too. */
function hideTokens(error: unknown, credential: OAuthCredential): unknown {
	if (!(error instanceof ProviderError)) return error;
	const secrets = [credential.access, credential.key];
	error.message = redact(error.message, secrets);
	if (error.stack) error.stack = redact(error.stack, secrets);
	return error;
}
