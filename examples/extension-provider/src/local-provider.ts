/**
 * The provider: one streamed Chat Completions request per model request,
 * read with fetch, its frames emitted as they come, `control` polled
 * between frames so a cancel stops the generation (and the socket) at the
 * next one.
 */
import type {ProviderControl, ProviderFetch, ProviderFrame, ProviderMessage, ProviderRequest} from 'i-agent/extension';
import {ChatAssembler, chatBody} from './chat-completions.js';
import {readSse} from './sse.js';

export interface Endpoint {
	/** `http://127.0.0.1:8080/v1`: the request goes to `<baseUrl>/chat/completions`. */
	baseUrl: string;
	/** Sent as `Authorization: Bearer …` when set; a local server usually needs none. */
	apiKey: string | undefined;
}

/** The control plane's kinds (spec/extensions.md §5): 0 asks about content frames. */
const CONTENT = 0;
/** How much of an error body the error quotes. */
const MAX_ERROR_QUOTE = 300;

export interface StreamIo {
	emit(frame: ProviderFrame): boolean;
	control: ProviderControl | undefined;
	signal: AbortSignal;
	/** The host's HTTP layer (proxies, no redirects); a host older than this one has none. */
	fetch?: ProviderFetch | undefined;
}

/**
 * Sends `req` and streams the answer. Resolves with the complete message;
 * after a cancel, with what was generated so far (the host has already
 * ended the request, and ignores it). An HTTP error rejects with an Error
 * carrying `status`, the URL and the server's own message, never the key.
 */
export async function streamChat(endpoint: Endpoint, req: ProviderRequest, io: StreamIo): Promise<ProviderMessage> {
	const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`;
	// The host's HTTP layer when it lends one: it honours HTTPS_PROXY and friends, which the global fetch does not.
	const send = io.fetch ?? fetch;
	const response = await send(url, {
		method: 'POST',
		headers: {'content-type': 'application/json', accept: 'text/event-stream', ...(endpoint.apiKey ? {authorization: `Bearer ${endpoint.apiKey}`} : {})},
		body: JSON.stringify(chatBody(req)),
		signal: io.signal,
	});
	if (!response.ok) {
		const text = await response.text().catch(() => '');
		throw Object.assign(new Error(`HTTP ${response.status} from ${url}: ${serverMessage(text, endpoint.apiKey)}`), {status: response.status});
	}

	if (!response.body) throw new Error(`${url} answered without a body`);
	const assembler = new ChatAssembler();
	io.emit({type: 'start'});
	for await (const data of readSse(response.body)) {
		// Between frames: the earliest point to stop paying for tokens nobody will see.
		if (io.control?.isCancelled(CONTENT)) break;
		for (const frame of assembler.push(data)) if (!io.emit(frame) && frame.type.endsWith('_delta')) return assembler.message();
		if (assembler.done) break;
	}

	return assembler.message();
}

/** The server's own message from an error body (`{"error":{"message"}}`), or the body, shortened; a key the server echoed is hidden. */
function serverMessage(body: string, apiKey: string | undefined): string {
	let message = body.trim();
	try {
		const json = JSON.parse(body) as {error?: {message?: unknown} | string; message?: unknown};
		if (typeof json.error === 'string') message = json.error;
		else if (typeof json.error?.message === 'string') message = json.error.message;
		else if (typeof json.message === 'string') message = json.message;
	} catch {}

	if (apiKey) message = message.split(apiKey).join('[redacted]');
	message = message.replace(/\s+/g, ' ');
	if (message === '') return '(empty body)';
	return message.length > MAX_ERROR_QUOTE ? `${message.slice(0, MAX_ERROR_QUOTE)}…` : message;
}
