import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

interface Box extends Sandbox {
	session: string;
	/** The workspace's memory.json, once the workspace is registered. */
	memoryFile(): string | undefined;
	/** One `i -p` turn on the box's session; the model first makes `calls` (if any), then answers. Returns every request body the turn sent. */
	turn(text: string, options?: {calls?: Array<{key: string; text: string}>; yolo?: boolean}): Promise<{requests: any[]; stderr: string}>;
}

/** The `memory` profile alone, as a built-in plugin descriptor. */
function memoryBox(): Box {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'memory', tools: []}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0, plugins: ['builtin.json']});
	const session = join(box.root, 'session.json');
	let call = 0;
	return Object.assign(box, {
		session,
		memoryFile() {
			const workspaces = join(box.root, 'data', 'workspaces');
			const ids = existsSync(workspaces) ? readdirSync(workspaces) : [];
			assert.ok(ids.length <= 1, `one workspace, got ${ids.join(', ')}`);
			return ids[0] === undefined ? undefined : join(workspaces, ids[0], 'memory.json');
		},
		async turn(text: string, options: {calls?: Array<{key: string; text: string}>; yolo?: boolean} = {}) {
			const calls = options.calls ?? [];
			if (calls.length > 0) {
				mock.enqueue({toolCalls: calls.map(args => ({id: `c${++call}`, name: 'memory_write', arguments: JSON.stringify(args)}))});
			}

			mock.enqueue({text: `answer to ${text}`});
			const sent = mock.requests.length;
			const run = await runCli(['-p', text, '--session', session, '-C', box.workspace, ...(options.yolo ? ['--yolo'] : [])], {env: box.env});
			assert.equal(run.code, 0, run.stderr);
			assert.equal(mock.requests.length, sent + (calls.length > 0 ? 2 : 1));
			return {requests: mock.requests.slice(sent).map(request => request.body), stderr: run.stderr};
		},
	});
}

/** The memory context messages of a request, each as its kind and JSON body, read from the wire text. */
function memorySnapshots(body: any): Array<{kind: string; body: any}> {
	return body.messages
		.filter((message: any) => typeof message.content === 'string' && message.content.includes('<context source="memory"'))
		.map((message: any) => {
			const match = /<context source="memory" kind="(full|delta)" trust="untrusted">\n(.*)\n<\/context>$/s.exec(message.content);
			assert.ok(match, message.content);
			return {kind: match[1]!, body: JSON.parse(match[2]!)};
		});
}

test('the memory profile: the model sees the three memory tools; a memory_write needs approval and is denied in print mode, nothing stored', async () => {
	const box = memoryBox();
	const {requests, stderr} = await box.turn('remember the indent', {calls: [{key: 'style/indent', text: 'tabs'}]});
	const tools = requests[0].tools.map((tool: any) => tool.function.name);
	for (const name of ['memory_read', 'memory_write', 'memory_delete']) assert.ok(tools.includes(name), `${name} in ${tools.join(', ')}`);
	const result = requests[1].messages.find((message: any) => message.role === 'tool');
	assert.match(result.content, /approval was denied/);
	// Named by its module (issue 43): never the official host's command line (`… --runtime worker official`).
	assert.match(stderr, /not run: Run memory_write \(official module memory\): /);
	assert.doesNotMatch(stderr, /--runtime/);
	const file = box.memoryFile();
	assert.ok(file === undefined || !existsSync(file), 'nothing was stored');
});

test('with --yolo memory_write stores the entry, and later turns carry it as a snapshot: full, nothing while unchanged, then a delta', async () => {
	const box = memoryBox();
	const first = await box.turn('remember the indent', {calls: [{key: 'style/indent', text: 'tabs'}], yolo: true});
	const result = first.requests[1].messages.find((message: any) => message.role === 'tool');
	assert.equal(result.content, 'created memory entry "style/indent" (4 bytes; 1 entry in all)');
	const file = box.memoryFile()!;
	assert.equal(JSON.parse(readFileSync(file, 'utf8')).entries['style/indent'].text, 'tabs');
	// The memory was empty when this turn began: no snapshot yet.
	assert.deepEqual(memorySnapshots(first.requests[0]), []);

	const second = await box.turn('what is the indent?');
	assert.deepEqual(memorySnapshots(second.requests[0]), [{kind: 'full', body: {entries: {'style/indent': 'tabs'}}}]);
	const snapshot = second.requests[0].messages.find((message: any) => String(message.content).includes('<context source="memory"'));
	assert.deepEqual(Object.keys(snapshot), ['role', 'content'], 'the local _context metadata never goes on the wire');

	const third = await box.turn('and now?');
	assert.equal(memorySnapshots(third.requests[0]).length, 1, 'unchanged: no new snapshot message');

	await box.turn('switch to spaces', {
		calls: [
			{key: 'style/indent', text: 'two spaces'},
			{key: 'lang', text: 'TypeScript'},
		],
		yolo: true,
	});
	const fifth = await box.turn('what changed?');
	assert.deepEqual(memorySnapshots(fifth.requests[0]), [
		{kind: 'full', body: {entries: {'style/indent': 'tabs'}}},
		{kind: 'delta', body: {upsert: {lang: 'TypeScript', 'style/indent': 'two spaces'}, remove: []}},
	]);
});

test('a secret-shaped memory_write is refused with --yolo too, as a tool error the model sees, and nothing is stored', async () => {
	const box = memoryBox();
	const secret = `sk-proj-${'Qw3rT'.repeat(8)}`;
	const {requests} = await box.turn('keep my key', {calls: [{key: 'openai', text: `key ${secret}`}], yolo: true});
	const result = requests[1].messages.find((message: any) => message.role === 'tool');
	assert.match(result.content, /an OpenAI-style API key \(sk-…\), and memory never stores secrets; nothing was stored/);
	assert.ok(!result.content.includes(secret));
	const file = box.memoryFile();
	assert.ok(file === undefined || !existsSync(file));
});

test('with memory.json {"inject": false} entries are stored but no snapshot is appended', async () => {
	const box = memoryBox();
	writeFileSync(join(box.configDir, 'memory.json'), JSON.stringify({inject: false}));
	await box.turn('remember', {calls: [{key: 'lang', text: 'Go'}], yolo: true});
	assert.equal(JSON.parse(readFileSync(box.memoryFile()!, 'utf8')).entries.lang.text, 'Go');
	const next = await box.turn('what language?');
	assert.deepEqual(memorySnapshots(next.requests[0]), []);
	assert.ok(
		next.requests[0].tools.some((tool: any) => tool.function.name === 'memory_read'),
		'the tools stay',
	);
});
