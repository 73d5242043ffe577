import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const oauthServer = fileURLToPath(new URL('../fixtures/mcp/oauth-server.js', import.meta.url));
/** The $BROWSER script that records each address it is given (fixtures/mcp/record-browser.ts). */
export const recordBrowser = fileURLToPath(new URL('../fixtures/mcp/record-browser.js', import.meta.url));

export interface OAuthServer {
	/** The MCP endpoint, http://127.0.0.1:PORT/mcp. */
	url: string;
	/** Expire (every access token) or revoke (every access and refresh token). */
	control(what: 'expire' | 'revoke'): Promise<void>;
	/** How often the token endpoint refreshed, and how many clients registered. */
	stats(): Promise<{refreshes: number; clients: number}>;
	close(): void;
}

/** Starts fixtures/mcp/oauth-server.ts (the SDK's OAuth-protected MCP server parts) in a process of its own, on 127.0.0.1. */
export async function startOAuthServer(): Promise<OAuthServer> {
	const child: ChildProcess = spawn(process.execPath, [oauthServer], {stdio: ['ignore', 'pipe', 'pipe']});
	const port = await new Promise<number>((resolve, reject) => {
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (stdout.includes('\n')) resolve((JSON.parse(stdout.split('\n')[0]!) as {port: number}).port);
		});
		child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.once('exit', code => reject(new Error(`the OAuth server exited with ${code}: ${stderr}`)));
	});
	const base = `http://127.0.0.1:${port}`;
	return {
		url: `${base}/mcp`,
		async control(what) {
			assert.equal((await fetch(`${base}/control/${what}`, {method: 'POST'})).status, 204);
		},
		async stats() {
			return (await (await fetch(`${base}/control/stats`)).json()) as {refreshes: number; clients: number};
		},
		close() {
			child.kill('SIGKILL');
		},
	};
}
