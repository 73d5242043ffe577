/**
 * The extension contract's OAuth slot (spec/extensions.md §11,
 * `register_oauth_provider`): what `api.registerOAuthProvider` takes. The
 * extension describes its provider's flow; the host owns `i auth login`,
 * `i auth logout`, the tokens in auth.json and their refresh.
 */

/** What `toApiKey` gets: the stored access token and when it expires. Never the refresh token. */
export interface OAuthAccessToken {
	access: string;
	/** Milliseconds since 1970. */
	expires: number;
}

export interface OAuthProviderRegistration {
	/** The id of a provider this extension registers (registerStreamingProvider / registerProvider) and declares in `declare({providers})`. */
	id: string;
	/** For people, in messages: `Example Cloud`; the id when absent. At most 200 characters. */
	name?: string;
	/** The public client id the provider issued for this extension (no client secret: an installed program cannot keep one). */
	clientId: string;
	/** The scopes asked for; none by default. */
	scopes?: string[];
	/** The authorization endpoint: login with the authorization code flow, PKCE (S256) and a redirect to `http://127.0.0.1:PORT/callback` on a random port. */
	authorizationUrl?: string;
	/** The device authorization endpoint (RFC 8628): login prints a URL and a code to enter on any device. At least one of the two is given. */
	deviceAuthorizationUrl?: string;
	/** The token endpoint: the code or device code for tokens, and refreshes. */
	tokenUrl: string;
	/** Extra query parameters of the authorization URL (`audience`, `prompt`), never the ones the flow sets. */
	authorizationParams?: Record<string, string>;
	/** How long one token endpoint request may take, 1000–60000 ms; 30000 by default. */
	tokenTimeoutMs?: number;
	/** The key a request gets in `req.apiKey`; the access token by default. Synchronous; a throw or a blank answer fails the request naming the extension. */
	toApiKey?(token: OAuthAccessToken): string;
}
