import {type IncomingMessage, type OutgoingHttpHeaders, request, type ServerResponse} from 'node:http';
import type {Socket} from 'node:net';

/** Headers about one hop, not the message (RFC 9110 §7.6.1), plus Host and Expect, which the proxy sets or has already answered. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect']);

/** Raw headers as an object for Node to send, without hop-by-hop ones, Proxy-* ones, or those the Connection header names. */
export function endToEndHeaders(rawHeaders: readonly string[]): OutgoingHttpHeaders {
	const named = new Set<string>();
	for (let at = 0; at + 1 < rawHeaders.length; at += 2) {
		if (rawHeaders[at]!.toLowerCase() !== 'connection') continue;
		for (const token of rawHeaders[at + 1]!.split(',')) named.add(token.trim().toLowerCase());
	}
	const headers: Record<string, string[]> = {};
	for (let at = 0; at + 1 < rawHeaders.length; at += 2) {
		const name = rawHeaders[at]!.toLowerCase();
		if (HOP_BY_HOP.has(name) || name.startsWith('proxy-') || named.has(name)) continue;
		headers[name] = [...(headers[name] ?? []), rawHeaders[at + 1]!];
	}
	return Object.fromEntries(Object.entries(headers).map(([name, values]) => [name, values.length === 1 ? values[0]! : values]));
}

/** A short plain-text answer from the proxy itself. */
export function answerText(response: ServerResponse, status: number, text: string): void {
	if (response.headersSent) {
		response.destroy();
		return;
	}
	response.writeHead(status, {'content-type': 'text/plain; charset=utf-8'}).end(`${text}\n`);
}

/**
 * Sends a plain-HTTP request on to its server over an open connection and
 * streams the answer back, both bodies streamed; if either side goes away
 * the other is cut too, and a response cut short reaches the client as a
 * cut connection rather than a clean end.
 */
export function forwardRequest(incoming: IncomingMessage, response: ServerResponse, upstream: Socket, url: URL): void {
	const headers = {...endToEndHeaders(incoming.rawHeaders), host: url.host};
	const outgoing = request({method: incoming.method, path: `${url.pathname}${url.search}`, headers, setHost: false, createConnection: () => upstream});
	outgoing.on('error', error => answerText(response, 502, `i sandbox proxy: ${url.host} failed: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
	outgoing.on('response', answer => {
		answer.on('error', () => response.destroy());
		answer.on('close', () => {
			if (!answer.complete) response.destroy();
		});
		try {
			response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.rawHeaders));
		} catch (error) {
			// Node refuses to pass on some status lines it parsed (a reason with control characters); that is the server's fault, not i's.
			answer.destroy();
			return answerText(response, 502, `i sandbox proxy: ${url.host} answered a status line that cannot be passed on: ${(error as Error).message}`);
		}
		answer.pipe(response);
	});
	incoming.on('error', () => outgoing.destroy());
	response.on('close', () => {
		if (!response.writableFinished) outgoing.destroy();
		upstream.destroy();
	});
	incoming.pipe(outgoing);
}
