import {randomBytes} from 'node:crypto';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import type {McpServerConfig} from './mcp-config.js';
import {McpAuthFile} from './mcp-auth-file.js';
import {isLoginError, McpOAuthProvider} from './mcp-oauth-provider.js';
import {CALLBACK_PATH, listenForCallback} from './oauth-callback.js';
import {hasAuthorizationHeader, openRemoteTransport} from './remote-transport.js';
import {openBrowser} from '../open-browser.js';

type RemoteConfig = Extract<McpServerConfig, {transport: 'http' | 'sse'}>;

export interface McpLoginOptions {
	config: RemoteConfig;
	configDir: string;
	clientVersion: string;
	/** Shows a line to the person (the authorization URL above all). */
	say(line: string): void;
	/** Where `BROWSER` is read. */
	environment: NodeJS.ProcessEnv;
	signal?: AbortSignal;
	/** The wait for the redirect; MCP_LOGIN_TIMEOUT_MS by default. */
	timeoutMs?: number;
}

/**
 * `i mcp login NAME` and `/mcp login NAME`: connects to the server with a
 * provider that may start an authorization; when the server asks for one
 * (a 401: the SDK discovers the authorization server, registers the
 * client and builds the PKCE request), the URL is shown (and given to
 * `$BROWSER` when set; no browser is ever guessed), the redirect to
 * 127.0.0.1 is awaited, and the code is exchanged through the transport's
 * `finishAuth`; then a second connection checks the tokens. Resolves with
 * what to say: who it logged in to.
 */
export async function loginMcpServer(options: McpLoginOptions): Promise<string> {
	const {config} = options;
	if (hasAuthorizationHeader(config.headers)) throw new Error(`its entry in ${config.file} sends an "Authorization" header of its own; remove that header to log in with OAuth instead`);
	const file = McpAuthFile.in(options.configDir);
	// A broken file is said now, before anything listens.
	const stored = await file.read(config.name, config.url);
	const state = randomBytes(24).toString('base64url');
	const callback = await listenForCallback({
		state,
		port: registeredPort(stored?.client?.redirect_uris),
		...(options.timeoutMs ? {timeoutMs: options.timeoutMs} : {}),
		...(options.signal ? {signal: options.signal} : {}),
	});
	try {
		let asked = false;
		const provider = new McpOAuthProvider({
			server: config.name,
			url: config.url,
			file,
			version: options.clientVersion,
			login: {
				redirectUrl: callback.redirectUrl,
				state,
				open(url) {
					asked = true;
					options.say(`To log in to MCP server ${config.name}, open this address in a browser (waiting for the redirect to ${callback.redirectUrl}):\n${url.href}`);
					openBrowser(url.href, options.environment, options.say);
				},
			},
		});
		const first = await connect(config, provider, options.clientVersion);
		if (first.ok) return `MCP server ${config.name} (${config.url.href}) needs no login: it answered without one`;
		if (!asked) throw first.error;
		const code = await callback.code;
		await first.transport.finishAuth(code);
		const second = await connect(config, provider, options.clientVersion);
		if (!second.ok) throw second.error;
		const who = second.server ? `${second.server.name}${second.server.version ? ` ${second.server.version}` : ''} at ` : '';
		return `logged in to MCP server ${config.name} (${who}${config.url.href}); its tokens are in ${file.path}`;
	} finally {
		await callback.close();
	}
}

type Connected = {ok: true; server: {name: string; version?: string} | undefined} | {ok: false; error: unknown; transport: Awaited<ReturnType<typeof openRemoteTransport>>};

async function connect(config: RemoteConfig, provider: McpOAuthProvider, version: string): Promise<Connected> {
	const transport = await openRemoteTransport(config, provider);
	const client = new Client({name: 'i', version}, {capabilities: {}});
	try {
		await client.connect(transport, {timeout: config.startTimeoutMs});
		const server = client.getServerVersion();
		await client.close();
		return {ok: true, server};
	} catch (error) {
		if (!isLoginError(error)) throw error;
		return {ok: false, error, transport};
	}
}

/** The port of a stored registration's loopback redirect, so the same registration serves the next login. */
function registeredPort(redirects: readonly string[] | undefined): number | undefined {
	for (const redirect of redirects ?? []) {
		try {
			const url = new URL(redirect);
			if (url.hostname === '127.0.0.1' && url.pathname === CALLBACK_PATH && url.port !== '') return Number(url.port);
		} catch {
			// Not a URL: not ours.
		}
	}

	return undefined;
}
