import {createHash, randomBytes} from 'node:crypto';
import type {CheckedOAuthProvider} from '../../extensions/check-oauth.js';
import {listenForCallback} from '../../mcp/oauth-callback.js';
import {flowLabel, OAuthError, postForm, readTokens, type TokenSet} from './token-endpoint.js';

/** How long login waits for the browser to come back to the loopback: time to sign in (as `i mcp login`'s MCP_LOGIN_TIMEOUT_MS). */
export const LOGIN_TIMEOUT_MS = 300_000;

export interface LoginIo {
	/** A line for the person (the URL to open, the code to enter). */
	show(text: string): void;
	/** Cancels the login (Ctrl-C). */
	signal: AbortSignal;
	now(): number;
}

/**
 * The authorization code flow with PKCE (RFC 7636, S256) and a loopback
 * redirect (RFC 8252 §7.3, the listener `i mcp login` uses): 127.0.0.1 at
 * a random port takes the one redirect whose `state` matches, within
 * LOGIN_TIMEOUT_MS, then the code is exchanged at the token endpoint.
 * `openBrowser` is told the URL after it is shown, so a terminal without a
 * browser still has it.
 */
export async function loginWithPkce(flow: CheckedOAuthProvider, io: LoginIo & {openBrowser(url: string): void}): Promise<TokenSet> {
	const verifier = randomBytes(32).toString('base64url');
	const challenge = createHash('sha256').update(verifier).digest('base64url');
	const state = randomBytes(24).toString('base64url');
	const label = flowLabel(flow);
	const callback = await listenForCallback({state, timeoutMs: LOGIN_TIMEOUT_MS, signal: io.signal});
	try {
		const redirectUri = callback.redirectUrl;
		const url = new URL(flow.authorizationUrl!);
		for (const [key, value] of Object.entries(flow.authorizationParams)) url.searchParams.set(key, value);
		url.searchParams.set('response_type', 'code');
		url.searchParams.set('client_id', flow.clientId);
		url.searchParams.set('redirect_uri', redirectUri);
		if (flow.scopes.length > 0) url.searchParams.set('scope', flow.scopes.join(' '));
		url.searchParams.set('state', state);
		url.searchParams.set('code_challenge', challenge);
		url.searchParams.set('code_challenge_method', 'S256');
		io.show(`Open this address in a browser to sign in to ${flow.name} (it comes back to ${redirectUri} on this machine):\n${url.href}`);
		io.openBrowser(url.href);
		let code: string;
		try {
			code = await callback.code;
		} catch (error) {
			if (io.signal.aborted) throw new OAuthError(`${label}: login cancelled; no token was stored`, 'cancelled');
			throw new OAuthError(`${label}: ${printable((error as Error).message)}; no token was stored`);
		}

		const form = {grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: flow.clientId, code_verifier: verifier};
		return readTokens(flow, flow.tokenUrl, await postForm(flow, flow.tokenUrl, form, io.signal), io.now());
	} finally {
		await callback.close();
	}
}

/** The redirect's words (an `error_description`) on one line of printable characters: they go to a terminal. */
function printable(text: string): string {
	return text.replaceAll(/[^\x20-\x7e]/g, '?').slice(0, 300);
}
