// An OpenAI-compatible streaming endpoint that sends a fixed answer one
// token per SSE event at a steady rate, like a real model, for the chat
// screen benchmark. Every POST to /v1/chat/completions gets the same answer.
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

export interface PacedServer {
	baseUrl: string;
	close(): Promise<void>;
}

const TICK_MS = 10;

function event(payload: unknown): string {
	return `data: ${JSON.stringify(payload)}\n\n`;
}

export async function startPacedServer(tokens: readonly string[], tokensPerSecond: number): Promise<PacedServer> {
	const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
		event({id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{index: 0, delta, finish_reason: finish}]});

	const answer = async (request: IncomingMessage, response: ServerResponse) => {
		for await (const _ of request) {
			// The request body is not needed: drain it.
		}

		response.writeHead(200, {'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache'});
		response.write(chunk({role: 'assistant', content: ''}));
		const start = performance.now();
		let sent = 0;
		let gone = false;
		response.on('close', () => {
			gone = true;
		});
		while (sent < tokens.length && !gone) {
			const due = Math.min(tokens.length, Math.floor(((performance.now() - start) * tokensPerSecond) / 1000) + 1);
			let batch = '';
			for (; sent < due; sent++) batch += chunk({content: tokens[sent]});
			if (batch !== '') response.write(batch);
			await new Promise(resolve => setTimeout(resolve, TICK_MS));
		}

		response.write(chunk({}, 'stop'));
		response.write(
			event({id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [], usage: {prompt_tokens: 100, completion_tokens: tokens.length, total_tokens: 100 + tokens.length}}),
		);
		response.end('data: [DONE]\n\n');
	};

	const server = createServer((request, response) => {
		if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
			response.writeHead(404).end();
			return;
		}

		answer(request, response).catch(() => response.destroy());
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		close: async () =>
			new Promise<void>((resolve, reject) => {
				server.close(error => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
