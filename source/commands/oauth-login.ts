import {AUTH_FILE_MODE, type AuthFile} from '../core/auth/auth-file.js';
import {describeTime} from '../core/auth/resolve-credential.js';
import {exitCodes, UsageError} from '../core/errors.js';
import {openBrowser} from '../core/open-browser.js';
import type {OAuthFlowOwner} from './run-catalogue.js';

export interface OAuthLoginOptions {
	/** `--device`: the device code flow even where the provider also offers the browser flow. */
	device: boolean;
	/** `--no-browser` makes it false: the URL is printed, $BROWSER is not started. */
	browser: boolean;
	json: boolean;
}

/** A sign-in that failed at the provider (refused, garbage, timed out): not a usage error. */
const SIGN_IN_FAILED = 1;

/**
 * `i auth login ID` for a provider with an extension's OAuth flow: the
 * browser flow (authorization code with PKCE, the redirect to a loopback
 * port) or the device flow, the URL and code on stderr, the tokens in
 * auth.json (0600, under its lock). Ctrl-C cancels (exit 130); a refused
 * or failed sign-in exits 1 naming the provider; nothing is stored then.
 */
export async function oauthLogin(provider: string, owner: OAuthFlowOwner, store: AuthFile, options: OAuthLoginOptions, io: {out(text: string): void; err(text: string): void}): Promise<number> {
	const {flow} = owner;
	if (options.device && flow.deviceAuthorizationUrl === undefined) {
		throw new UsageError(`--device: ${flow.name} (extension ${owner.extension}) offers no device code flow; run i auth login ${provider} without it to sign in in a browser`);
	}

	const device = options.device || flow.authorizationUrl === undefined;
	// A broken or shared auth.json, or a folder others can write to, is said before the sign-in, not after.
	store.checkWritable();
	const [{OAuthError}, {loginWithPkce}, {loginWithDevice}] = await Promise.all([
		import('../core/auth/oauth/token-endpoint.js'),
		import('../core/auth/oauth/pkce-login.js'),
		import('../core/auth/oauth/device-login.js'),
	]);
	const cancel = new AbortController();
	const onSigint = () => cancel.abort();
	process.on('SIGINT', onSigint);
	const loginIo = {show: (text: string) => io.err(`${text}\n`), signal: cancel.signal, now: Date.now};
	let tokens;
	try {
		// The browser is $BROWSER's, as for i mcp login: none is guessed.
		const browse = (url: string) => options.browser && openBrowser(url, process.env, line => io.err(`${line}\n`));
		tokens = device ? await loginWithDevice(flow, loginIo) : await loginWithPkce(flow, {...loginIo, openBrowser: browse});
	} catch (error) {
		if (!(error instanceof OAuthError)) throw error;
		io.err(`i: auth login: ${error.message}\n`);
		return error.code === 'cancelled' ? exitCodes.interrupted : SIGN_IN_FAILED;
	} finally {
		process.off('SIGINT', onSigint);
	}

	const previous = await store.store(provider, {type: 'oauth', access: tokens.access, refresh: tokens.refresh, expires: tokens.expires});
	const how = device ? 'device_code' : 'authorization_code';
	if (options.json) {
		io.out(`${JSON.stringify({provider, stored: store.path, replaced: previous?.type ?? null, flow: how, expires: new Date(tokens.expires).toISOString(), refresh: tokens.refresh !== undefined})}\n`);
	} else {
		const mode = AUTH_FILE_MODE.toString(8).padStart(4, '0');
		const refresh = tokens.refresh === undefined ? '; the provider gave no refresh token, so sign in again then' : '; i refreshes it before then';
		io.out(`signed in to ${flow.name}: stored the OAuth tokens for ${provider} in ${store.path} (mode ${mode}); the token is valid until ${describeTime(tokens.expires)}${refresh}\n`);
	}

	return exitCodes.ok;
}
