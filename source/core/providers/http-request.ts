import type {RawRequestOptions, RawResponse} from './http-transport.js';

/**
 * One HTTP POST to a model endpoint, through undici (undici-transport.ts).
 * Small on purpose: it never follows redirects, buffers nothing, and turns
 * failures into errors with stable codes. undici is loaded at the first
 * request, not at start: `i --version`, `--help`, the chat screen's first
 * frame and commands that call no model never pay for it.
 */

let transport: Promise<typeof import('./undici-transport.js')> | undefined;

export async function postRaw(url: string, options: RawRequestOptions): Promise<RawResponse> {
	const {send} = await loadTransport();
	return send(url, options);
}

/**
 * Starts loading the HTTP transport (undici) without waiting for it: a turn calls it before its first hooks, so
 * the loading fills the time the process would spend waiting for the
 * worker's answers instead of coming after them. A failure to load is
 * reported by the request that needs it.
 */
export function warmTransport(): void {
	loadTransport().catch(() => {});
}

async function loadTransport(): Promise<typeof import('./undici-transport.js')> {
	transport ??= import('./undici-transport.js');
	return transport;
}
