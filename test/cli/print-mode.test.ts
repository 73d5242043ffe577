import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync, existsSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli} from '../helpers/cli.js';
import {protocols} from '../../source/core/providers/types.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandboxFor(protocol: (typeof protocols)[number]) {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol, base_url: mock.baseUrl(protocol), model: `model-${protocol}`, max_retries: 2});
	return sandbox;
}

/** The text of every tool result the request carried back, whatever the protocol's shape. */
function carriedText(body: unknown): string {
	return JSON.stringify(body);
}

for (const protocol of protocols) {
	test(`${protocol}: a plain answer goes to stdout and nothing else does`, async () => {
		const sandbox = sandboxFor(protocol);
		mock.enqueue({text: `Hello from ${protocol}, 你好 👋`, usage: {input: 12, output: 5}});
		const before = mock.requests.length;
		const run = await runCli(['-p', 'hi there', '-C', sandbox.workspace], {env: sandbox.env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, `Hello from ${protocol}, 你好 👋\n`);
		const request = mock.requests[before]!;
		assert.match(carriedText(request.body), /hi there/);
		assert.equal(request.body.model, `model-${protocol}`);
		assert.equal(request.body.stream, true);
		if (protocol === 'anthropic') assert.equal(request.headers['x-api-key'], 'sk-test-secret-123');
		else assert.equal(request.headers.authorization, 'Bearer sk-test-secret-123');
	});

	test(`${protocol}: a tool round trip reads a file, edits it, and carries the results back`, async () => {
		const sandbox = sandboxFor(protocol);
		const file = join(sandbox.workspace, 'notes.txt');
		writeFileSync(file, 'hello world\n');
		mock.enqueue(
			{toolCalls: [{id: 'call_read', name: 'read', arguments: JSON.stringify({files: [{path: 'notes.txt'}]})}]},
			{toolCalls: [{id: 'call_edit', name: 'edit', arguments: JSON.stringify({path: 'notes.txt', old_text: 'world', new_text: 'there'})}]},
			{text: 'Edited the greeting.'},
		);
		const before = mock.requests.length;
		const run = await runCli(['-p', 'fix the greeting', '--yolo', '-C', sandbox.workspace], {env: sandbox.env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, 'Edited the greeting.\n');
		assert.equal(readFileSync(file, 'utf8'), 'hello there\n');
		const [, second, third] = mock.requests.slice(before);
		assert.ok(second && third, 'three requests were made');
		assert.match(carriedText(second.body), /call_read/);
		assert.match(carriedText(second.body), /hello world/);
		assert.match(carriedText(third.body), /call_edit/);
		assert.match(carriedText(third.body), /Edited/);
	});
}

test('print mode denies an edit it cannot ask about, tells the person how to allow it, and the model hears why', async () => {
	const sandbox = sandboxFor('openai');
	const file = join(sandbox.workspace, 'a.txt');
	writeFileSync(file, 'one\n');
	mock.enqueue({toolCalls: [{id: 'c1', name: 'edit', arguments: JSON.stringify({path: 'a.txt', old_text: 'one', new_text: 'two'})}]}, {text: 'I could not edit it.'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'change it', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(readFileSync(file, 'utf8'), 'one\n');
	assert.equal(run.stdout, 'I could not edit it.\n');
	assert.match(run.stderr, /not run: Edit .*a\.txt/);
	assert.match(run.stderr, /--yolo/);
	const toolMessage = mock.requests[before + 1]!.body.messages.find((message: any) => message.role === 'tool');
	assert.equal(toolMessage.tool_call_id, 'c1');
	assert.match(toolMessage.content, /approval was denied/);
	assert.match(toolMessage.content, /no terminal to ask on/);
});

test('stderr shows a command holding a right-to-left override with a mark and names the owner; --json keeps the string as data', async () => {
	const sandbox = sandboxFor('openai');
	const command = 'echo cleanup-temp-files #\u202E; rm -rf ./build';
	const call = {id: 'b1', name: 'shell', arguments: JSON.stringify({command})};
	mock.enqueue({toolCalls: [call]}, {text: 'Not run.'});
	const run = await runCli(['-p', 'clean up', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /i: tool shell command: echo cleanup-temp-files #⟨U\+202E⟩; rm -rf \.\/build\n/);
	assert.match(run.stderr, /i: not run: Run: echo cleanup-temp-files #⟨U\+202E⟩; rm -rf \.\/build \(native\): /);
	assert.ok(!run.stderr.includes('\u202E'), run.stderr);

	mock.enqueue({toolCalls: [call]}, {text: 'Not run.'});
	const json = await runCli(['-p', 'clean up', '--json', '-C', sandbox.workspace], {env: sandbox.env});
	const approval = jsonEvents(json.stdout).find(event => event.type === 'approval')!;
	assert.equal(approval.title, `Run: ${command}`, 'events are data: the consumer marks what it shows');
	assert.equal(approval.owner, 'native');
});

test('--dangerously-skip-permissions runs a shell command without asking', async () => {
	const sandbox = sandboxFor('deepseek');
	mock.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'echo made > made.txt'})}]}, {text: 'done'});
	const run = await runCli(['-p', 'make it', '--dangerously-skip-permissions', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(readFileSync(join(sandbox.workspace, 'made.txt'), 'utf8'), 'made\n');
});

test('without --yolo a shell command is not run', async () => {
	const sandbox = sandboxFor('openai');
	mock.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'echo made > made.txt'})}]}, {text: 'done'});
	const run = await runCli(['-p', 'make it', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(existsSync(join(sandbox.workspace, 'made.txt')), false);
});

test('a bad tool argument goes back to the model as a tool error, and the turn goes on', async () => {
	const sandbox = sandboxFor('openai');
	mock.enqueue(
		{
			toolCalls: [
				{id: 'b1', name: 'read', arguments: '{"files": [{"path": 7}]'},
				{id: 'b2', name: 'nope', arguments: '{}'},
			],
		},
		{text: 'ok'},
	);
	const before = mock.requests.length;
	const run = await runCli(['-p', 'x', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	const tools = mock.requests[before + 1]!.body.messages.filter((message: any) => message.role === 'tool');
	assert.deepEqual(
		tools.map((message: any) => message.tool_call_id),
		['b1', 'b2'],
	);
	assert.match(tools[0].content, /not valid JSON/);
	assert.match(tools[1].content, /no tool named "nope"/);
});

test('--json writes one event per line, each with the session UUID, and the answer is in text_delta events', async () => {
	const sandbox = sandboxFor('anthropic');
	mock.enqueue({thinking: 'let me think', text: 'Answer.', usage: {input: 100, output: 7, cacheRead: 80, cacheWrite: 10}});
	const run = await runCli(['-p', 'q', '--json', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	assert.equal(events[0]!.type, 'session');
	const id = events[0]!.id;
	assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
	for (const event of events) assert.equal(event.session, id);
	assert.equal(
		events
			.filter(event => event.type === 'text_delta')
			.map(event => event.text)
			.join(''),
		'Answer.',
	);
	assert.equal(
		events
			.filter(event => event.type === 'thinking_delta')
			.map(event => event.text)
			.join(''),
		'let me think',
	);
	const usage = events.find(event => event.type === 'usage')!;
	assert.deepEqual({input: usage.usage.input, output: usage.usage.output, cacheRead: usage.usage.cacheRead, cacheWrite: usage.usage.cacheWrite}, {input: 190, output: 7, cacheRead: 80, cacheWrite: 10});
	assert.deepEqual(events.at(-2), {type: 'done', reason: 'stop', steps: 1, session: id});
	assert.equal(events.at(-1)!.type, 'result', "the turn's result comes last");
});

test('echo TEXT | i -p reads the prompt from stdin', async () => {
	const sandbox = sandboxFor('responses');
	mock.enqueue({text: 'piped ok'});
	const before = mock.requests.length;
	const run = await runCli(['-p', '-C', sandbox.workspace], {env: sandbox.env, input: 'question from a pipe\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'piped ok\n');
	assert.match(JSON.stringify(mock.requests[before]!.body), /question from a pipe/);
});

test('i -p with stdin open but silent gives up with a clear error instead of waiting forever', async () => {
	const sandbox = sandboxFor('openai');
	const run = await runCli(['-p', '-C', sandbox.workspace], {env: sandbox.env, input: null, timeoutMs: 15_000});
	assert.equal(run.code, 2);
	assert.match(run.stderr, /no prompt arrived on standard input/);
});

test('the step cap stops a turn that keeps calling tools, with the session saved', async () => {
	const sandbox = sandboxFor('openai');
	mock.enqueue({toolCalls: [{id: 'g1', name: 'glob', arguments: JSON.stringify({pattern: '*'})}]}, {toolCalls: [{id: 'g2', name: 'glob', arguments: JSON.stringify({pattern: '*'})}]});
	const run = await runCli(['-p', 'loop', '--max-steps', '2', '--json', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 1);
	const events = jsonEvents(run.stdout);
	assert.match(events.find(event => event.type === 'error')!.message, /stopped after 2 model requests \(max_steps\)/);
	assert.deepEqual(events.at(-1)!.reason, 'max_steps');
	assert.equal(events.at(-1)!.steps, 2);
});

test('an image from view_image reaches the next request as a user message tagged with its call', async () => {
	const sandbox = sandboxFor('openai');
	// The smallest valid PNG: signature, IHDR, IDAT, IEND.
	const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d5e2ab0000000049454e44ae426082', 'hex');
	writeFileSync(join(sandbox.workspace, 'dot.png'), png);
	mock.enqueue({toolCalls: [{id: 'v1', name: 'view_image', arguments: JSON.stringify({paths: ['dot.png']})}]}, {text: 'a dot'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'look', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	const messages = mock.requests[before + 1]!.body.messages as Array<Record<string, any>>;
	const toolIndex = messages.findIndex(message => message.role === 'tool');
	const image = messages[toolIndex + 1]!;
	assert.equal(image.role, 'user');
	assert.match(JSON.stringify(image.content), /v1/);
	const part = image.content.find((item: any) => item.type === 'image_url');
	assert.equal(part.image_url.url, `data:image/png;base64,${png.toString('base64')}`);
});

test('the whole answer reaches a reader slower than the program', async () => {
	const sandbox = sandboxFor('openai');
	const answer = `${'0123456789'.repeat(12_000)}!`;
	mock.enqueue({text: answer});
	const run = await runCli(['-p', 'long', '-C', sandbox.workspace], {
		env: sandbox.env,
		onSpawn(child) {
			child.stdout!.pause();
			setTimeout(() => child.stdout!.resume(), 1500);
		},
	});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout.length, answer.length + 1);
	assert.ok(run.stdout.endsWith('!\n'));
});

test('control characters from the model never reach the terminal through status lines', async () => {
	const sandbox = sandboxFor('openai');
	mock.enqueue({toolCalls: [{id: 'e1', name: 'evil\u001B]0;pwned\u0007', arguments: '{"x":"\u001B[2J"}'}]}, {text: 'ok'});
	const run = await runCli(['-p', 'x', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /evil\uFFFD/);
	assert.doesNotMatch(run.stderr, /[\u001B\u0007]/);
});

test('a model running env through shell never sees its own API key: not in the session, not in the next request', async () => {
	const sandbox = sandboxFor('openai');
	// The same key under a second name is left out too.
	const env = {...sandbox.env, COPY_OF_KEY: sandbox.env.TEST_API_KEY, VISIBLE_TO_SHELL: 'yes'};
	mock.enqueue({toolCalls: [{id: 'e1', name: 'shell', arguments: JSON.stringify({command: 'env'})}]}, {text: 'done'});
	const before = mock.requests.length;
	const session = join(sandbox.root, 's.json');
	const run = await runCli(['-p', 'show env', '--yolo', '--session', session, '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const followUp = JSON.stringify(mock.requests[before + 1]!.body);
	assert.match(followUp, /VISIBLE_TO_SHELL=yes/, 'the shell ran env and its output went back');
	assert.doesNotMatch(followUp, /TEST_API_KEY|COPY_OF_KEY/);
	assert.doesNotMatch(followUp, new RegExp(sandbox.env.TEST_API_KEY!));
	assert.doesNotMatch(readFileSync(session, 'utf8'), new RegExp(sandbox.env.TEST_API_KEY!));
});

test('a batch of tool calls carries at most 8 images: a result that would pass the cap is refused, naming the tool', async () => {
	const sandbox = sandboxFor('openai');
	const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d5e2ab0000000049454e44ae426082', 'hex');
	writeFileSync(join(sandbox.workspace, 'dot.png'), png);
	const five = JSON.stringify({paths: Array.from({length: 5}, () => 'dot.png')});
	mock.enqueue(
		{
			toolCalls: [
				{id: 'v1', name: 'view_image', arguments: five},
				{id: 'v2', name: 'view_image', arguments: five},
			],
		},
		{text: 'seen'},
	);
	const before = mock.requests.length;
	const run = await runCli(['-p', 'look', '--json', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	const results = jsonEvents(run.stdout).filter(event => event.type === 'tool_result');
	assert.deepEqual(
		results.map(result => [result.id, result.images, result.is_error]),
		[
			['v1', 5, false],
			['v2', 0, true],
		],
	);
	assert.match(results[1]!.output, /^Error: view_image returned 5 images, which were refused: a batch of tool calls carries at most 8 images and earlier calls of this batch took 5/);
	const messages = mock.requests[before + 1]!.body.messages as Array<Record<string, any>>;
	const parts = messages.flatMap(message => (Array.isArray(message.content) ? message.content : [])).filter((part: any) => part.type === 'image_url');
	assert.equal(parts.length, 5);
});
