// Extension transforms checked like hook answers, and a MessageEnd
// replacement reaching every head, end to end through the built CLI against
// the mock provider (issue 47, points 6 and 7).
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {startGateServer, textChunk, finishChunk, done, gate, type GateServer} from '../fixtures/gate-server.js';
import {jsonEvents, makeSandbox, runCli, waitFor, writeExtensionFile, type Sandbox} from '../helpers/cli.js';
import {MAX_MESSAGE_END_BYTES} from '../../source/core/extensions/event-answers.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function setup(name: string, source: string): {sandbox: Sandbox; args: string[]} {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	return {sandbox, args: ['--extension', writeExtensionFile(sandbox, name, source), '-C', sandbox.workspace]};
}

/** The text of each step of a session file, in order. */
function savedAnswers(path: string): string[] {
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '')
		.map(line => JSON.parse(line) as {type: string; messages?: Array<{role: string; content: unknown}>})
		.flatMap(line => (line.type === 'step' ? (line.messages ?? []) : []))
		.filter(message => message.role === 'assistant')
		.map(message => String(message.content));
}

test('a Context transform that appends an orphan tool message is refused, naming the extension; the request goes out well-formed', async () => {
	const {sandbox, args} = setup('orphan.mjs', `export default api => api.registerEventHandler('Context', event => ({messages: [...event.messages, {role: 'tool', tool_call_id: 'ghost', content: 'stray'}]}));`);
	mock.enqueue({text: 'Fine.'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'hi', '--json', ...args], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	const [request] = mock.requests.slice(before);
	const sent = request!.body.messages as Array<{role: string; content: unknown}>;
	assert.deepEqual(
		sent.map(message => message.role),
		['system', 'user'],
	);
	assert.equal(sent[1]!.content, 'hi');
	const warnings = jsonEvents(run.stdout)
		.filter(event => event.type === 'warning')
		.map(event => event.message as string);
	assert.deepEqual(warnings, [
		'extension orphan: Context handler answered "messages" is a history the provider would refuse: message 2 (tool): the tool result for "ghost" answers no tool call of the assistant message before it; the value is kept',
	]);
	assert.equal(jsonEvents(run.stdout).find(event => event.type === 'result')!.text, 'Fine.');
});

test('a Context transform with a message the provider cannot take is refused; a well-formed one is applied', async () => {
	const {sandbox, args} = setup(
		'context.mjs',
		`export default api => {
			api.registerEventHandler('Context', event => ({messages: [...event.messages, {role: 'user', content: 42}]}));
			api.registerEventHandler('Context', event => ({messages: [...event.messages, {role: 'user', content: 'a note from the extension'}]}));
		};`,
	);
	mock.enqueue({text: 'Fine.'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'hi', '--json', ...args], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	const sent = mock.requests.slice(before)[0]!.body.messages as Array<{role: string; content: unknown}>;
	assert.deepEqual(sent.map(message => message.content).slice(1), ['hi', 'a note from the extension']);
	const [warning] = jsonEvents(run.stdout).filter(event => event.type === 'warning');
	assert.match(warning!.message, /^extension context: Context handler answered "messages" holds a message the provider cannot take: message 2: content: .*; the value is kept$/);
});

test(`a MessageEnd replacement of ${MAX_MESSAGE_END_BYTES} bytes is taken and one of a byte more refused, naming the extension`, async () => {
	const source = `export default api => api.registerEventHandler('MessageEnd', () => ({content: 'é' + 'x'.repeat(Number(process.env.REPLACEMENT_BYTES) - 2)}));`;
	for (const bytes of [MAX_MESSAGE_END_BYTES, MAX_MESSAGE_END_BYTES + 1]) {
		const {sandbox, args} = setup('big.mjs', source);
		mock.enqueue({text: 'Short.'});
		const run = await runCli(['-p', 'hi', '--json', ...args], {env: {...sandbox.env, REPLACEMENT_BYTES: String(bytes)}});
		assert.equal(run.code, 0, run.stderr);
		const events = jsonEvents(run.stdout);
		const end = events.find(event => event.type === 'message_end')!;
		const saved = savedAnswers(events.find(event => event.type === 'session')!.path);
		const warnings = events.filter(event => event.type === 'warning').map(event => event.message);
		if (bytes === MAX_MESSAGE_END_BYTES) {
			assert.equal(end.replaced_by, 'big');
			assert.equal(Buffer.byteLength(end.text), bytes);
			assert.equal(Buffer.byteLength(saved[0]!), bytes);
			assert.deepEqual(warnings, []);
		} else {
			assert.deepEqual({replaced_by: end.replaced_by, text: end.text}, {replaced_by: null, text: 'Short.'});
			assert.deepEqual(saved, ['Short.']);
			assert.deepEqual(warnings, [
				`extension big: MessageEnd handler answered "content" is ${bytes} bytes, over the limit of ${MAX_MESSAGE_END_BYTES} (256 KiB) and longer than the answer it replaces; the value is kept`,
			]);
		}
	}
});

const REDACTOR = `export default api => api.registerEventHandler('MessageEnd', event => ({content: event.message.content.replaceAll(/secret-\\w+/g, '[REDACTED]')}));`;
const ANSWER = 'The key is secret-abc123, and it is a long enough answer to come in several deltas.';
const REDACTED = 'The key is [REDACTED], and it is a long enough answer to come in several deltas.';

test('a redacting MessageEnd handler: -p prints only the redacted text', async () => {
	const {sandbox, args} = setup('redactor.mjs', REDACTOR);
	mock.enqueue({text: ANSWER});
	const run = await runCli(['-p', 'the key?', ...args], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, `${REDACTED}\n`);
	assert.doesNotMatch(run.stderr, /secret-abc123/);
});

test('a redacting MessageEnd handler: --json prints only the redacted text and marks the replacement', async () => {
	const {sandbox, args} = setup('redactor.mjs', REDACTOR);
	mock.enqueue({text: ANSWER});
	const run = await runCli(['-p', 'the key?', '--json', ...args], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.doesNotMatch(run.stdout, /secret-abc123/);
	const events = jsonEvents(run.stdout);
	const text = events
		.filter(event => event.type === 'text_delta')
		.map(event => event.text)
		.join('');
	assert.equal(text, REDACTED);
	const end = events.find(event => event.type === 'message_end')!;
	assert.deepEqual({text: end.text, replaced_by: end.replaced_by}, {text: REDACTED, replaced_by: 'redactor'});
	assert.equal(events.find(event => event.type === 'result')!.text, REDACTED);
});

test('a redacting MessageEnd handler: line mode prints only the redacted text, the text before a tool call too', async () => {
	const {sandbox, args} = setup('redactor.mjs', REDACTOR);
	mock.enqueue({text: 'Looking for secret-first now.', toolCalls: [{id: 'call_1', name: 'glob', arguments: JSON.stringify({pattern: '*.md'})}]}, {text: ANSWER});
	const run = await runCli(['--yolo', ...args], {env: sandbox.env, input: 'the key?\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, `Looking for [REDACTED] now.\n${REDACTED}\n`);
	assert.doesNotMatch(run.stderr, /secret-/);
});

test('without a MessageEnd handler the answer still streams: the first delta is out before the reply ends', async () => {
	const server: GateServer = await startGateServer();
	try {
		const sandbox = makeSandbox();
		sandbox.writeConfig({protocol: 'openai', base_url: server.baseUrl, model: 'm', max_retries: 0});
		// An extension with other handlers does not hold the answer back.
		const file = writeExtensionFile(sandbox, 'observer.mjs', `export default api => { api.registerEventHandler('MessageUpdate', () => {}); api.registerEventHandler('Input', () => ({})); };`);
		for (const json of [false, true]) {
			const rest = gate();
			server.enqueue({parts: [textChunk('First part, '), rest.promise, textChunk('then the rest.'), finishChunk(), done]});
			let seen: () => string = () => '';
			const running = runCli(['-p', 'hi', '--extension', file, '-C', sandbox.workspace, ...(json ? ['--json'] : [])], {
				env: sandbox.env,
				onSpawn: (_child, output) => {
					seen = output.stdout;
				},
			});
			try {
				await waitFor(() => seen().includes('First part, '), 20_000, 'the first delta on stdout');
				assert.doesNotMatch(seen(), /then the rest/);
			} finally {
				rest.open();
			}

			const run = await running;
			assert.equal(run.code, 0, run.stderr);
			assert.match(run.stdout, /then the rest\./);
		}
	} finally {
		await server.close();
	}
});
