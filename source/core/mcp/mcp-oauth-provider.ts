import {randomBytes} from 'node:crypto';
import {UnauthorizedError, type OAuthClientProvider} from '@modelcontextprotocol/sdk/client/auth.js';
import type {OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens} from '@modelcontextprotocol/sdk/shared/auth.js';
import type {McpAuthEntry, McpAuthFile} from './mcp-auth-file.js';

/**
 * The server wants an OAuth login that has not happened (no tokens, or a
 * refresh the authorization server refused). A session never opens a
 * browser: the server's state becomes `needs login` and the session goes on.
 */
export class McpNeedsLoginError extends Error {
	override name = 'McpNeedsLoginError';
	constructor(readonly server: string) {
		super(`needs login: run i mcp login ${server} (or /mcp login ${server} in the chat screen)`);
	}
}

/**
 * Whether `error` is the server asking for a login: ours (no tokens, a
 * refused refresh), the SDK's UnauthorizedError (the flow ended in a
 * redirect), or a 401 that came back after the SDK had just authorised.
 */
export function isLoginError(error: unknown): boolean {
	if (error instanceof McpNeedsLoginError || error instanceof UnauthorizedError) return true;
	return (error as {code?: unknown}).code === 401;
}

/** How a login goes on: the redirect URL it listens at, its `state`, and what shows the authorization URL. */
export interface McpLoginFlow {
	redirectUrl: string;
	state: string;
	open(authorizationUrl: URL): void | Promise<void>;
}

export interface McpOAuthProviderOptions {
	server: string;
	url: URL;
	file: McpAuthFile;
	version: string;
	/** Present for `i mcp login` only; a session's provider never starts an authorization. */
	login?: McpLoginFlow;
}

/** Where a session's provider says the redirect goes when nothing was registered yet (it never redirects: see McpNeedsLoginError). */
const UNUSED_REDIRECT = 'http://127.0.0.1/callback';

/**
 * The SDK's OAuthClientProvider for one remote server, kept in
 * mcp-auth.json (mcp-auth-file.ts). Discovery, dynamic client
 * registration, PKCE, the code exchange and refresh are the SDK's
 * (`auth()`, called by the transports on a 401); this only stores what
 * the SDK hands it, unchanged (the SDK stamps it with the issuer and
 * checks that stamp), and refuses, in a session, every step that needs a
 * person: a registration, a new authorization.
 */
export class McpOAuthProvider implements OAuthClientProvider {
	readonly #options: McpOAuthProviderOptions;
	/** The entry as read once per provider (a transport asks for the tokens at every request) and as this process changed it since. */
	#entry: Promise<McpAuthEntry | undefined> | undefined;
	/** Whether this provider stored tokens itself (a login reads no older ones). */
	#saved = false;
	/** The access token this provider last handed out: only those tokens are forgotten when refused. */
	#held: string | undefined;

	constructor(options: McpOAuthProviderOptions) {
		this.#options = options;
	}

	get redirectUrl(): string {
		return this.#options.login?.redirectUrl ?? UNUSED_REDIRECT;
	}

	get clientMetadata(): OAuthClientMetadata {
		return {
			client_name: `i (${this.#options.version})`,
			redirect_uris: [this.redirectUrl],
			grant_types: ['authorization_code', 'refresh_token'],
			response_types: ['code'],
			// A CLI keeps no secret worth the name: a public client with PKCE (RFC 8252).
			token_endpoint_auth_method: 'none',
		};
	}

	state(): string {
		return this.#options.login?.state ?? randomBytes(16).toString('base64url');
	}

	async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
		const {client} = (await this.#read()) ?? {};
		const {login} = this.#options;
		if (!login) {
			// A session registers nothing: a registration is the first step of a login.
			if (!client) throw new McpNeedsLoginError(this.#options.server);
			return client as OAuthClientInformationMixed;
		}

		// A registration names its redirect URLs; one made for another callback port is made again.
		if (client && client.redirect_uris !== undefined && !client.redirect_uris.includes(login.redirectUrl)) return undefined;
		return client as OAuthClientInformationMixed | undefined;
	}

	async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
		await this.#change(entry => ({...entry, client: client as McpAuthEntry['client']}));
	}

	async tokens(): Promise<OAuthTokens | undefined> {
		// A login asks afresh (tokens it got itself aside): logging in again is how a person replaces tokens that misbehave.
		if (this.#options.login && !this.#saved) return undefined;
		try {
			const tokens = (await this.#read())?.tokens as OAuthTokens | undefined;
			this.#held = tokens?.access_token;
			return tokens;
		} catch {
			// A broken file: a server that never asks for a login still works; one that asks gets the file's error (clientInformation reads it again).
			this.#entry = undefined;
			return undefined;
		}
	}

	async saveTokens(tokens: OAuthTokens): Promise<void> {
		await this.#change(entry => ({...entry, tokens: tokens as McpAuthEntry['tokens'], savedAt: Date.now(), codeVerifier: undefined}));
		this.#saved = true;
	}

	async saveCodeVerifier(codeVerifier: string): Promise<void> {
		// The SDK saves the verifier just before it redirects: in a session that is where a login would start.
		if (!this.#options.login) throw new McpNeedsLoginError(this.#options.server);
		await this.#change(entry => ({...entry, codeVerifier}));
	}

	async codeVerifier(): Promise<string> {
		const verifier = (await this.#read())?.codeVerifier;
		if (verifier === undefined) throw new Error(`no login of MCP server ${this.#options.server} is under way (no PKCE verifier in ${this.#options.file.path})`);
		return verifier;
	}

	async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
		const {login} = this.#options;
		if (!login) throw new McpNeedsLoginError(this.#options.server);
		await login.open(authorizationUrl);
	}

	/** The SDK found stored credentials refused (a refresh token the server no longer takes, a client it forgot): they are forgotten. */
	async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
		if (scope === 'discovery') return;
		await this.#change(entry => {
			if (scope === 'all') return undefined;
			if (scope === 'client') return {...entry, client: undefined};
			// Another process (a second session) may have refreshed them since this one read the file: its newer tokens stay, and are read next.
			if (scope === 'tokens') return entry.tokens?.access_token === this.#held ? {...entry, tokens: undefined, savedAt: undefined} : entry;
			return {...entry, codeVerifier: undefined};
		});
	}

	async #read(): Promise<McpAuthEntry | undefined> {
		this.#entry ??= this.#options.file.read(this.#options.server, this.#options.url);
		return this.#entry;
	}

	async #change(next: (entry: Omit<McpAuthEntry, 'url'>) => Omit<McpAuthEntry, 'url'> | undefined): Promise<void> {
		const {file, server, url} = this.#options;
		let written: McpAuthEntry | undefined;
		await file.update(server, url, current => {
			const changed = next(current ?? {});
			written = changed === undefined ? undefined : {...dropUndefined(changed), url: url.href};
			return written;
		});
		this.#entry = Promise.resolve(written);
	}
}

function dropUndefined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
