import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';

/** How long a login waits for the browser's redirect before it gives up (a person reading a consent page). */
export const MCP_LOGIN_TIMEOUT_MS = 5 * 60_000;
/** The callback's path on 127.0.0.1. */
export const CALLBACK_PATH = '/callback';

export interface OAuthCallback {
	/** `http://127.0.0.1:PORT/callback`. */
	redirectUrl: string;
	/** The authorization code of the one redirect whose `state` is this login's; rejects on an error redirect, the timeout or the signal. */
	code: Promise<string>;
	close(): Promise<void>;
}

export interface CallbackOptions {
	state: string;
	/** A port to try first (the one the stored registration names), else any free one. */
	port?: number | undefined;
	timeoutMs?: number;
	signal?: AbortSignal;
}

/**
 * The loopback listener a login's redirect comes back to (RFC 8252 §7.3):
 * 127.0.0.1 only, one path, and only a redirect carrying this login's
 * `state` counts; any other request is answered and ignored, so a page
 * that guessed the port cannot finish someone else's login.
 */
export async function listenForCallback(options: CallbackOptions): Promise<OAuthCallback> {
	let settle: {resolve(code: string): void; reject(error: Error): void} | undefined;
	const code = new Promise<string>((resolve, reject) => {
		settle = {resolve, reject};
	});
	// Awaited by the login; a close before that is not an unhandled rejection.
	code.catch(() => {});
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
			response.writeHead(404, {'content-type': 'text/plain; charset=utf-8'}).end('not found\n');
			return;
		}

		if (url.searchParams.get('state') !== options.state) {
			response.writeHead(400, {'content-type': 'text/plain; charset=utf-8'}).end('This redirect does not belong to the login i is waiting for (its state does not match); it was ignored.\n');
			return;
		}

		const error = url.searchParams.get('error');
		const given = url.searchParams.get('code');
		if (error !== null || given === null) {
			const description = url.searchParams.get('error_description');
			response.writeHead(400, {'content-type': 'text/plain; charset=utf-8'}).end('The login was refused; see the terminal.\n');
			settle?.reject(new Error(error === null ? 'the redirect carried no authorization code' : `the authorization server refused: ${error}${description ? ` (${description})` : ''}`));
			return;
		}

		response.writeHead(200, {'content-type': 'text/plain; charset=utf-8'}).end('Logged in: you can close this page and go back to the terminal.\n');
		settle?.resolve(given);
	});
	const port = await listen(server, options.port);
	const timeoutMs = options.timeoutMs ?? MCP_LOGIN_TIMEOUT_MS;
	const timer = setTimeout(() => settle?.reject(new Error(`no redirect came back within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`)), timeoutMs);
	const abort = () => settle?.reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('the login was cancelled'));
	options.signal?.addEventListener('abort', abort, {once: true});
	return {
		redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
		code,
		async close() {
			clearTimeout(timer);
			options.signal?.removeEventListener('abort', abort);
			settle?.reject(new Error('the login was closed'));
			server.closeAllConnections();
			await new Promise(resolve => server.close(resolve));
		},
	};
}

async function listen(server: Server, preferred: number | undefined): Promise<number> {
	const attempt = async (port: number) =>
		new Promise<number>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, '127.0.0.1', () => {
				server.off('error', reject);
				resolve((server.address() as AddressInfo).port);
			});
		});
	if (preferred !== undefined) {
		try {
			return await attempt(preferred);
		} catch {
			// Taken: any free port, and the SDK registers the client again for it.
		}
	}

	return attempt(0);
}
