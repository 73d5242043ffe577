// The extension as i runs it: the repository's built `i` loads it (this
// package's folder, its "exports") for a config whose protocol is
// `local-openai`, against an OpenAI-compatible server of the test's own.
// The server holds the rest of the reply until the test has seen the first
// delta come out of `i`: the answer streams, it is not shown at the end.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {ExtensionApi, ExtensionStreamingProvider, ProviderFrame} from 'i-agent/extension';
import register, {API_KEY_ENV, BASE_URL_ENV, PROVIDER_ID} from '../src/index.js';

const packageFolder = fileURLToPath(new URL('../../', import.meta.url));
const cli = fileURLToPath(new URL('../../../../bin/i.js', import.meta.url));

interface ChatBody {
	model?: string;
	messages?: unknown[];
}

type Handler = (request: IncomingMessage, response: ServerResponse, body: ChatBody | null) => void | Promise<void>;
let handler: Handler = (_request, response) => void response.writeHead(500).end();
let origin = '';
const server = createServer(async (request, response) => {
	let text = '';
	for await (const piece of request) text += piece;
	await handler(request, response, text === '' ? null : (JSON.parse(text) as ChatBody));
});
before(async () => {
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
	server.closeAllConnections();
	server.close();
});

const sse = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const text = (content: string) => sse({choices: [{index: 0, delta: {content}, finish_reason: null}]});

function sandbox(): {env: NodeJS.ProcessEnv; workspace: string; close(): void} {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-provider-example-')));
	const workspace = join(root, 'workspace');
	mkdirSync(workspace);
	mkdirSync(join(root, 'config'));
	// No api_key_env: the provider finds its own key.
	writeFileSync(join(root, 'config', 'config.json'), JSON.stringify({protocol: PROVIDER_ID, model: 'small-model'}));
	const env = {
		PATH: process.env.PATH,
		HOME: root,
		I_CONFIG_DIR: join(root, 'config'),
		I_DATA_DIR: join(root, 'data'),
		I_CACHE_DIR: join(root, 'cache'),
		I_RUNTIME_DIR: join(root, 'runtime'),
		[BASE_URL_ENV]: `${origin}/v1`,
	};
	return {env, workspace, close: () => rmSync(root, {recursive: true, force: true})};
}

function run(args: string[], env: NodeJS.ProcessEnv, onStdout?: (stdout: string) => void): Promise<{code: number | null; stdout: string; stderr: string}> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cli, ...args], {env, stdio: ['ignore', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', chunk => {
			stdout += chunk;
			onStdout?.(stdout);
		});
		child.stderr.setEncoding('utf8').on('data', chunk => (stderr += chunk));
		const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
		child.on('error', reject);
		child.on('close', code => {
			clearTimeout(timer);
			resolve({code, stdout, stderr});
		});
	});
}

test('through i: the first delta is shown before the server sends the rest; the whole answer and its usage follow', async () => {
	const box = sandbox();
	let open!: () => void;
	const shown = new Promise<void>(resolve => (open = resolve));
	let seen: {path: string | undefined; body: ChatBody | null} | undefined;
	handler = async (request, response, body) => {
		seen = {path: request.url, body};
		response.writeHead(200, {'content-type': 'text/event-stream'});
		response.write(text('Hello'));
		await shown;
		response.write(text(', world'));
		response.write(sse({choices: [{index: 0, delta: {}, finish_reason: 'stop'}]}));
		response.write(sse({choices: [], usage: {prompt_tokens: 9, completion_tokens: 3}}));
		response.end('data: [DONE]\n\n');
	};
	try {
		const result = await run(['-p', 'hi', '--json', '--extension', packageFolder, '-C', box.workspace], box.env, stdout => {
			if (stdout.includes('"text_delta"')) open();
		});
		assert.equal(result.code, 0, result.stderr);
		const events = result.stdout
			.split('\n')
			.filter(Boolean)
			.map(line => JSON.parse(line));
		const deltas = events.filter(event => event.type === 'text_delta').map(event => event.text);
		assert.deepEqual(deltas, ['Hello', ', world']);
		const usage = events.find(event => event.type === 'usage');
		assert.deepEqual([usage.model, usage.usage.input, usage.usage.output], ['small-model', 9, 3]);
		assert.equal(seen?.path, '/v1/chat/completions');
		assert.equal(seen?.body?.model, 'small-model');
	} finally {
		box.close();
	}
});

test('through i: an HTTP 401 fails the turn with the status, the URL and the server’s message, the key hidden', async () => {
	const box = sandbox();
	handler = (_request, response) => void response.writeHead(401, {'content-type': 'application/json'}).end(JSON.stringify({error: {message: 'bad key sk-example-key-77'}}));
	try {
		const result = await run(['-p', 'hi', '--extension', packageFolder, '-C', box.workspace], {...box.env, [API_KEY_ENV]: 'sk-example-key-77'});
		assert.equal(result.code, 1);
		assert.match(result.stderr, /provider "local-openai": request failed: HTTP 401 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: bad key \[redacted\]/);
		assert.doesNotMatch(result.stderr + result.stdout, /sk-example-key-77/);
	} finally {
		box.close();
	}
});

/** Registers the extension with an api of only the provider slots, as an older host would have. */
function registered(slots: 'both' | 'one-shot'): {streaming?: ExtensionStreamingProvider; oneShot?: unknown} {
	const found: {streaming?: ExtensionStreamingProvider; oneShot?: unknown} = {};
	const api: ExtensionApi = {
		apiVersion: '1.0',
		registerProvider(provider) {
			found.oneShot = provider;
		},
		...(slots === 'both'
			? {
					registerStreamingProvider(provider: ExtensionStreamingProvider) {
						found.streaming = provider;
					},
				}
			: {}),
	};
	register(api);
	return found;
}

test('capability detection: without any provider slot it says what it needs; with only the one-shot slot it registers that', () => {
	assert.throws(() => register({apiVersion: '1.0'}), /i-extension-provider needs api\.registerStreamingProvider or api\.registerProvider/);
	const oneShot = registered('one-shot');
	assert.ok(oneShot.oneShot && !oneShot.streaming);
});

test('a cancel between frames stops reading and drops the connection: the server sees the client go', async () => {
	const previous = process.env[BASE_URL_ENV];
	process.env[BASE_URL_ENV] = `${origin}/v1`;
	let gone!: () => void;
	const closed = new Promise<void>(resolve => (gone = resolve));
	handler = (_request, response) => {
		response.writeHead(200, {'content-type': 'text/event-stream'});
		response.on('close', () => gone());
		response.write(text('one'));
		// Then nothing: a slow model. The cancel must not wait for it.
	};
	try {
		const {streaming} = registered('both');
		let cancelled = false;
		const controller = new AbortController();
		const frames: ProviderFrame[] = [];
		const answer = streaming!.request(
			{model: 'm', messages: [{role: 'user', content: 'hi'}], tools: [], maxTokens: null, extra: {}},
			{
				emit: frame => {
					frames.push(frame);
					if (frame.type === 'text_delta') {
						cancelled = true;
						controller.abort();
					}

					return !(cancelled && frame.type.endsWith('_delta'));
				},
				control: {isCancelled: () => cancelled, waitCancelled: async () => cancelled},
				signal: controller.signal,
			},
		);
		await closed;
		// It returns what it had (or rejects with the abort): the host has ended the request already and ignores it.
		const settled = await Promise.resolve(answer).then(
			message => message,
			(error: Error) => error,
		);
		assert.ok(settled instanceof Error ? settled.name === 'AbortError' : settled.content === 'one', String(settled));
		assert.deepEqual(
			frames.map(frame => frame.type),
			['start', 'text_start', 'text_delta'],
		);
	} finally {
		if (previous === undefined) delete process.env[BASE_URL_ENV];
		else process.env[BASE_URL_ENV] = previous;
	}
});
