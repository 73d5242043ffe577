// The system prompt a request carries: the workspace's .i/SYSTEM.md and
// .i/APPEND_SYSTEM.md, and the extensions' registerBeforeAgentStart chain
// (spec/extensions.md §5, §8), end to end through the built CLI
// against the mock provider.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** A sandbox with the mock as its model and, optionally, extensions (name → source) in an I_EXTENSIONS_DIR folder. */
function setup(extensions: Record<string, string> = {}): {sandbox: Sandbox; env: NodeJS.ProcessEnv; log: string} {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const dir = join(sandbox.root, 'extensions');
	mkdirSync(dir);
	const log = join(sandbox.root, 'calls.log');
	writeFileSync(log, '');
	for (const [name, source] of Object.entries(extensions)) writeFileSync(join(dir, `${name}.mjs`), source.replaceAll('LOG', JSON.stringify(log)));
	return {sandbox, env: {...sandbox.env, I_EXTENSIONS_DIR: dir}, log};
}

function writeProjectFile(sandbox: Sandbox, name: string, text: string | Buffer): string {
	mkdirSync(join(sandbox.workspace, '.i'), {recursive: true});
	const path = join(sandbox.workspace, '.i', name);
	writeFileSync(path, text);
	return path;
}

const logLines = (log: string) =>
	readFileSync(log, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map(line => JSON.parse(line) as [string, any]);

/** Every message a session file saved, its steps in order (the file is a header line, then one line per step). */
const savedMessages = (path: string): any[] =>
	readFileSync(path, 'utf8')
		.split('\n')
		.filter(Boolean)
		.slice(1)
		.flatMap(line => JSON.parse(line).messages);

const systemOf = (request: {body: any}) => (request.body.messages[0].role === 'system' ? request.body.messages[0].content : undefined);

test('.i/SYSTEM.md replaces the system prompt and .i/APPEND_SYSTEM.md extends it, {{workspace}} filled in; the session keeps that prompt', async () => {
	const {sandbox, env} = setup();
	writeProjectFile(sandbox, 'SYSTEM.md', 'You review code in {{workspace}}.\n');
	writeProjectFile(sandbox, 'APPEND_SYSTEM.md', 'Answer in French.\n');
	mock.enqueue({text: 'Bonjour.'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'hi', '--json', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const expected = `You review code in ${sandbox.workspace}.\n\nAnswer in French.\n`;
	assert.equal(systemOf(mock.requests[sent]!), expected);
	const session = jsonEvents(run.stdout).find(event => event.type === 'session')!;
	assert.deepEqual(savedMessages(session.path)[0], {role: 'system', content: expected});

	// APPEND_SYSTEM.md alone extends the embedded default.
	const alone = setup();
	writeProjectFile(alone.sandbox, 'APPEND_SYSTEM.md', 'Run npm test before you say done.');
	mock.enqueue({text: 'OK.'});
	const next = mock.requests.length;
	const second = await runCli(['-p', 'hi', '-C', alone.sandbox.workspace], {env: alone.env});
	assert.equal(second.code, 0, second.stderr);
	const prompt = systemOf(mock.requests[next]!);
	assert.match(prompt, new RegExp(`^You are i, a coding agent working in the terminal on the workspace ${alone.sandbox.workspace}\\.`));
	assert.ok(prompt.endsWith('If something failed, say so plainly.\n\nRun npm test before you say done.'), prompt);
});

test('a project prompt file holds 1–32000 characters: at the limit it is used, one past it, empty, not UTF-8 or not a file is exit 2 naming it', async () => {
	const {sandbox, env} = setup();
	const limit = 'é'.repeat(32_000);
	writeProjectFile(sandbox, 'SYSTEM.md', limit);
	mock.enqueue({text: 'OK.'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(systemOf(mock.requests[sent]!), limit);

	for (const [name, content, problem] of [
		['SYSTEM.md', `${limit}x`, /has 32001 characters; a prompt must have 1 to 32000/],
		['APPEND_SYSTEM.md', '', /has 0 characters; a prompt must have 1 to 32000/],
		['APPEND_SYSTEM.md', Buffer.from([0x66, 0xff, 0x66]), /is not valid UTF-8/],
		['SYSTEM.md', null, /is a folder, not a regular file/],
	] as const) {
		const bad = setup();
		const path = join(bad.sandbox.workspace, '.i', name);
		if (content === null) mkdirSync(path, {recursive: true});
		else writeProjectFile(bad.sandbox, name, content);
		const failed = await runCli(['-p', 'hi', '-C', bad.sandbox.workspace], {env: bad.env});
		assert.equal(failed.code, 2, failed.stderr);
		assert.ok(failed.stderr.includes(path), failed.stderr);
		assert.match(failed.stderr, problem);
	}
});

/** Records what it was given, then wraps the prompt in NAME(…): the order of a chain shows in the result. */
const wrapping = (name: string, priority: number) => `
	import {appendFileSync} from 'node:fs';
	export default function register(api) {
		api.declare({priority: ${priority}});
		api.registerBeforeAgentStart((event, ctx) => {
			appendFileSync(LOG, JSON.stringify([${JSON.stringify(name)}, event, ctx]) + '\\n');
			return {systemPrompt: ${JSON.stringify(name)} + '(' + event.systemPrompt + ')'};
		});
	}
`;

test('registerBeforeAgentStart: chained by priority, {} unchanged, a throw keeps the value; once per user prompt however many tool rounds; never saved', async () => {
	const {sandbox, env, log} = setup({
		outer: wrapping('outer', 1),
		inner: wrapping('inner', 30),
		quiet: `
			import {appendFileSync} from 'node:fs';
			export default function register(api) {
				api.declare({priority: 20});
				api.registerBeforeAgentStart(() => ({}));
				api.registerEventHandler('BeforeAgentStart', event => appendFileSync(LOG, JSON.stringify(['observed', event]) + '\\n'));
			}
		`,
		broken: `export default api => { api.declare({priority: 10}); api.registerBeforeAgentStart(() => { throw new Error('transform bug'); }); };`,
		wrong: `export default api => { api.declare({priority: 5}); api.registerBeforeAgentStart(() => ({systemPrompt: 42})); };`,
	});
	writeProjectFile(sandbox, 'SYSTEM.md', 'BASE');
	writeFileSync(join(sandbox.workspace, 'a.txt'), 'hello\n');
	mock.enqueue({toolCalls: [{id: 'call_1', name: 'read', arguments: JSON.stringify({files: [{path: 'a.txt'}]})}]}, {text: 'It says hello.'}, {text: 'Second answer.'});
	const sent = mock.requests.length;
	// Line mode: two user prompts, the first with a tool round (two requests).
	const run = await runCli(['--json', '--yolo', '-C', sandbox.workspace], {env, input: 'read a.txt\nand again\n'});
	assert.equal(run.code, 0, run.stderr);
	const requests = mock.requests.slice(sent);
	assert.equal(requests.length, 3);
	for (const request of requests) assert.equal(systemOf(request), 'outer(inner(BASE))');

	const calls = logLines(log);
	const session = jsonEvents(run.stdout).find(event => event.type === 'session')!;
	// Each transform ran once per user prompt: twice, not three times.
	assert.deepEqual(
		calls.filter(([name]) => name === 'inner').map(([, event]) => event.prompt),
		['read a.txt', 'and again'],
	);
	assert.deepEqual(calls.find(([name]) => name === 'inner')!.slice(1), [
		{prompt: 'read a.txt', imageCount: 0, sessionId: session.id, host: 'i', systemPrompt: 'BASE'},
		{tag: 'BeforeAgentStart', extension: 'inner'},
	]);
	// The lower priority saw what the higher one made.
	assert.equal(calls.find(([name]) => name === 'outer')![1].systemPrompt, 'inner(BASE)');
	// Observers hear the prompt the run sends.
	assert.equal(calls.find(([name]) => name === 'observed')![1].systemPrompt, 'outer(inner(BASE))');

	const warnings = jsonEvents(run.stdout)
		.filter(event => event.type === 'warning')
		.map(event => event.message);
	assert.ok(warnings.includes('extension broken: BeforeAgentStart transform failed: transform bug; the system prompt is kept'), warnings.join('\n'));
	assert.ok(warnings.includes('extension wrong: BeforeAgentStart transform answered "systemPrompt" as a number, not a string; the system prompt is kept'), warnings.join('\n'));

	const saved = readFileSync(session.path, 'utf8');
	assert.equal(savedMessages(session.path)[0].content, 'BASE');
	assert.doesNotMatch(saved, /inner\(|outer\(/);
});

test('registerBeforeAgentStart: "" clears the prompt (the request has no system message); the session still has its own', async () => {
	const {sandbox, env} = setup({clear: `export default api => api.registerBeforeAgentStart(() => ({systemPrompt: ''}));`});
	mock.enqueue({text: 'OK.'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'hi', '--json', '-C', sandbox.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const {messages} = mock.requests[sent]!.body;
	assert.deepEqual(
		messages.map((message: any) => message.role),
		['user'],
	);
	const session = jsonEvents(run.stdout).find(event => event.type === 'session')!;
	assert.match(savedMessages(session.path)[0].content, /^You are i, a coding agent/);
});
