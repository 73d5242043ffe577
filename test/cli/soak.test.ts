import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {renderStream} from '../fixtures/mock-streams.js';
import {binPath, jsonEvents, makeSandbox} from '../helpers/cli.js';
import {DEFAULT_COMPACT_PROMPT} from '../../workers/compact/compact.js';

// About 9k: the byte estimate counts the 7.4 KB of native tool schemas (delegate_task's among them) and system prompt
// as 7.4k tokens before the first usage anchors it (spec/platform.md §7: unknown is never zero), so a compacted history, which
// starts unanchored, needs a little more than 9k to fit with its kept turn.
const WINDOW = 11_000;
const TURNS = 300;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.alloc(600, 7)]);
const sizes = [40, 300, 1200, 5000, 20_000, 90_000];

interface Seen {
	tokens: number;
	rejected: boolean;
	summary: boolean;
	body: any;
}

/**
 * A model endpoint with an 8k window that, like a real one, refuses any
 * request over it (tokens: a quarter of the request's bytes, as the mock
 * reports usage). It answers a question with a tool call (a file of varied
 * size, or an image), a tool result with an answer, and the compaction
 * prompt with a short summary.
 */
async function startWindowedModel() {
	const seen: Seen[] = [];
	const server = createServer((request, response) => {
		answer(request, response).catch(() => response.destroy());
	});

	async function answer(request: IncomingMessage, response: ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const bytes = Buffer.concat(chunks);
		const body = JSON.parse(bytes.toString('utf8'));
		const tokens = Math.ceil(bytes.length / 4);
		const summary = body.messages[0]?.content === DEFAULT_COMPACT_PROMPT;
		const rejected = tokens > WINDOW;
		seen.push({tokens, rejected, summary, body});
		if (rejected) {
			response.writeHead(400, {'content-type': 'application/json'});
			response.end(JSON.stringify({error: {message: `This model's maximum context length is ${WINDOW} tokens; the request has ${tokens}`, type: 'invalid_request_error', code: 'context_length_exceeded'}}));
			return;
		}

		const last = body.messages.at(-1);
		let reply;
		if (summary) {
			reply = {text: `Summary of turns so far (request ${seen.length}): the person asked numbered questions; each was answered after reading a file or an image.`};
		} else if (last.role === 'user' && typeof last.content === 'string' && last.content.startsWith('question ')) {
			const turn = Number(last.content.slice('question '.length));
			reply =
				turn % 7 === 0
					? {toolCalls: [{id: `call_${turn}`, name: 'view_image', arguments: JSON.stringify({paths: ['picture.png']})}]}
					: {toolCalls: [{id: `call_${turn}`, name: 'read', arguments: JSON.stringify({files: [{path: `file-${turn % sizes.length}.txt`}]})}]};
		} else {
			const question = [...body.messages].reverse().find((message: any) => message.role === 'user' && typeof message.content === 'string' && message.content.startsWith('question '));
			reply = {text: `Answer to ${question?.content ?? 'nothing'}.`};
		}

		response.writeHead(200, {'content-type': 'text/event-stream'});
		for (const event of renderStream('openai', reply, body, bytes.length)) response.write(event);
		response.end();
	}

	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {baseUrl: `http://127.0.0.1:${port}/v1`, seen, close: async () => new Promise<void>(resolve => server.close(() => resolve()))};
}

test(`soak: ${TURNS} turns in an ${WINDOW}-token window with tool outputs of varied size and images; nothing over the window is sent, compaction keeps the session going`, {timeout: 600_000}, async () => {
	const model = await startWindowedModel();
	try {
		const box = makeSandbox();
		writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'compact', tools: []}));
		box.writeConfig({protocol: 'openai', base_url: model.baseUrl, model: 'soak-model', max_tokens: 300, max_retries: 0, budget: {window: WINDOW, threshold: 0.9, image_tokens: 500}, plugins: ['builtin.json']});
		for (const [index, size] of sizes.entries())
			writeFileSync(join(box.workspace, `file-${index}.txt`), `file ${index}: ${'the quick brown fox jumps over the lazy dog. '.repeat(Math.ceil(size / 45))}`.slice(0, size));
		writeFileSync(join(box.workspace, 'picture.png'), PNG);
		const session = join(box.root, 'soak.json');

		const child = spawn(process.execPath, [binPath, '--json', '-C', box.workspace, '--session', session], {env: box.env, stdio: ['pipe', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', chunk => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', chunk => (stderr += chunk));
		child.stdin.end(Array.from({length: TURNS}, (_, index) => `question ${index + 1}\n`).join(''));
		const code = await new Promise<number | null>(resolve => child.on('close', resolve));

		const events = jsonEvents(stdout);
		const errors = events.filter(event => event.type === 'error');
		assert.deepEqual(errors.slice(0, 3), [], `errors (of ${errors.length}); stderr: ${stderr.slice(-2000)}`);
		assert.equal(code, 0, stderr.slice(-2000));
		const rejected = model.seen.filter(request => request.rejected);
		assert.equal(rejected.length, 0, `requests over the window: ${rejected.map(request => request.tokens).join(', ')}`);
		const done = events.filter(event => event.type === 'done');
		assert.equal(done.length, TURNS);
		assert.ok(
			done.every(event => event.reason === 'stop'),
			JSON.stringify(done.find(event => event.reason !== 'stop')),
		);
		const compactions = events.filter(event => event.type === 'compaction');
		assert.ok(compactions.length >= 5, `${compactions.length} compactions`);
		assert.ok(model.seen.some(request => request.summary));
		assert.ok(
			events.some(event => event.type === 'budget' && event.window === WINDOW),
			'the budget is reported live',
		);
		const peak = Math.max(...model.seen.map(request => request.tokens));
		assert.ok(peak <= WINDOW, `peak ${peak}`);
		// Anchored on real usage, the budget lets the history use the window, not a quarter of it (the byte estimate alone).
		assert.ok(peak > WINDOW / 2, `peak ${peak}: the window is used`);

		// The last request carries the latest question verbatim and, after it, its own step whole.
		const last = model.seen.filter(request => !request.summary).at(-1)!.body.messages;
		const asked = last.findIndex((message: any) => message.content === `question ${TURNS}`);
		assert.ok(asked > 0, 'the latest request is in the last request, verbatim');
		assert.equal(last[0].role, 'system');
		assert.equal(last[asked + 1].tool_calls[0].id, `call_${TURNS}`);
		assert.equal(last[asked + 2].tool_call_id, `call_${TURNS}`);

		// The saved history ends with the whole last turn, verbatim, after the system prompt and a summary.
		const lines = readFileSync(session, 'utf8')
			.trim()
			.split('\n')
			.map(line => JSON.parse(line));
		let history: any[] = [];
		for (const line of lines) {
			if (line.type === 'step') history = line.replaces_history ? line.messages : [...history, ...line.messages];
		}

		assert.equal(history[0].role, 'system');
		assert.ok(
			history.some(message => message._compact_summary === true),
			'a summary stands in for the old turns',
		);
		assert.deepEqual(
			history.slice(-4).map(message => message.content ?? message.tool_calls?.[0]?.id),
			[`question ${TURNS}`, `call_${TURNS}`, history.at(-2).content, `Answer to question ${TURNS}.`],
		);
		assert.ok(history.length < TURNS, `${history.length} messages kept of ${TURNS * 4}`);
	} finally {
		await model.close();
	}
});
