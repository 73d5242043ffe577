/**
 * The shared OpenAI-compatible streaming client of the four modules: one
 * request per model request, to the endpoint, with the headers and the key
 * the host gives with it (never one of its own, never `process.env`), its
 * frames emitted as they come and `control` polled between them so a
 * cancel stops the generation, and the socket, at the next one.
 */
import type {ProviderMessage, ProviderRequest, StreamingProviderIo} from 'i-agent/extension';
import type {ProviderModule} from '../modules/module.js';
import {chatBody} from './chat-body.js';
import {ChunkAssembler} from './chunk-assembler.js';
import {readSse} from './sse.js';

/** The control plane's kind 0: content frames. */
const CONTENT = 0;
/** How much of an error body an error quotes. */
export const MAX_ERROR_QUOTE = 300;

/**
 * Sends `req` and streams the answer; resolves with the complete message
 * (after a cancel, with what came until then: the host has ended the
 * request already and ignores it). An HTTP error rejects with an Error
 * carrying `status`, naming the URL and the server's message, the key
 * hidden even when the server echoes it.
 */
export async function streamCompletion(module: ProviderModule, req: ProviderRequest, io: StreamingProviderIo): Promise<ProviderMessage> {
	const base = req.baseUrl ?? module.baseUrl;
	if (base === undefined || base === null) throw new Error(`provider "${module.id}" has no endpoint: set "baseUrl" under providers.${module.id} in models.json`);
	const url = `${base.replace(/\/+$/, '')}/chat/completions`;
	// Null for an anonymous provider (llama.cpp): then no authorization header at all, not an empty one.
	const key = req.apiKey ?? null;
	const extraHeaders = req.headers ?? {};
	// The host's HTTP layer when it lends one: it honours HTTPS_PROXY and friends, which the global fetch does not.
	const send = io.fetch ?? fetch;
	const response = await send(url, {
		method: 'POST',
		headers: {...extraHeaders, 'content-type': 'application/json', accept: 'text/event-stream', ...(key ? {authorization: `Bearer ${key}`} : {})},
		body: JSON.stringify(chatBody(req, module.quirks)),
		signal: io.signal,
	});
	if (!response.ok) {
		const text = await response.text().catch(() => '');
		throw Object.assign(new Error(`HTTP ${response.status} from ${url}: ${serverMessage(text, [key, ...Object.values(extraHeaders)])}`), {status: response.status});
	}

	if (!response.body) throw new Error(`${url} answered without a body`);
	const assembler = new ChunkAssembler(module.quirks);
	io.emit({type: 'start'});
	for await (const data of readSse(response.body)) {
		// Between frames: the earliest point to stop paying for tokens nobody will see.
		if (io.control.isCancelled(CONTENT)) break;
		for (const frame of assembler.push(data)) if (!io.emit(frame) && frame.type.endsWith('_delta')) return assembler.message();
		if (assembler.done) break;
	}

	return assembler.message();
}

/** The server's own message from an error body (`{"error":{"message"}}`), or the body, shortened, with any secret it echoed hidden. */
function serverMessage(body: string, secrets: ReadonlyArray<string | null>): string {
	let message = body.trim();
	try {
		const json = JSON.parse(body) as {error?: {message?: unknown} | string; message?: unknown};
		if (typeof json.error === 'string') message = json.error;
		else if (typeof json.error?.message === 'string') message = json.error.message;
		else if (typeof json.message === 'string') message = json.message;
	} catch {}

	for (const secret of secrets) if (secret && secret.length >= 4) message = message.split(secret).join('[redacted]');
	message = message.replace(/\s+/g, ' ');
	if (message === '') return '(empty body)';
	return message.length > MAX_ERROR_QUOTE ? `${message.slice(0, MAX_ERROR_QUOTE)}…` : message;
}
