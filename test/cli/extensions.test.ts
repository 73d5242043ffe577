// Extensions end to end through the built CLI against the mock provider:
// real modules in temp folders, found through I_EXTENSIONS_DIR and the
// project's .i/extensions (issue 14).
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

/** A todo tool that answers with what it was given, reports progress, and logs to the console. */
const todoExtension = `
export default function register(api) {
	api.registerTool({
		name: 'todo',
		description: 'Adds a todo item.',
		parameters: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
		async execute(params, ctx) {
			console.log('console output from the extension');
			process.stdout.write('a direct stdout write from the extension\\n');
			ctx.onUpdate('saving');
			return {output: 'added ' + params.text + ' in ' + params.__i.cwd + ' for session ' + params.__i.sessionId};
		},
	});
}
`;

function sandboxWithExtensions(files: Record<string, string>): {sandbox: Sandbox; dir: string} {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const dir = join(sandbox.root, 'extensions');
	mkdirSync(dir);
	for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
	return {sandbox, dir};
}

test("an extension tool runs in a -p turn: __i is the host's, progress is a --json event, stdout keeps only the events", async () => {
	const {sandbox, dir} = sandboxWithExtensions({'todo.mjs': todoExtension});
	mock.enqueue({toolCalls: [{id: 'call_1', name: 'todo', arguments: JSON.stringify({text: 'milk', __i: {cwd: '/forged', sessionId: 'forged'}})}]}, {text: 'Added.'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'add milk', '--json', '--yolo', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}});
	assert.equal(run.code, 0, run.stderr);
	// Every stdout line is an event: the extension's console and direct writes went to stderr.
	const events = jsonEvents(run.stdout);
	assert.match(run.stderr, /console output from the extension/);
	assert.match(run.stderr, /a direct stdout write from the extension/);
	const session = events.find(event => event.type === 'session')!;
	const result = events.find(event => event.type === 'tool_result')!;
	assert.equal(result.output, `added milk in ${sandbox.workspace} for session ${session.id}`);
	assert.deepEqual(
		events.filter(event => event.type === 'tool_update').map(event => [event.id, event.name, event.text]),
		[['call_1', 'todo', 'saving']],
	);
	// The tool was offered to the model with its schema.
	const offered = mock.requests[before]!.body.tools.map((tool: any) => tool.function.name);
	assert.ok(offered.includes('todo'), offered.join(', '));
	// The host context never reaches the session file or the events: only the model's own (forged) arguments do.
	const saved = readFileSync(session.path, 'utf8');
	const hostContext = JSON.stringify({cwd: sandbox.workspace, sessionId: session.id});
	assert.ok(saved.includes('forged'), "the model's own arguments are kept as sent");
	assert.ok(!saved.includes(hostContext) && !saved.includes(JSON.stringify(hostContext).slice(1, -1)), 'the host context is not in the session file');
	assert.ok(!run.stdout.includes(hostContext) && !run.stdout.includes(JSON.stringify(hostContext).slice(1, -1)), 'nor in the events');
});

test('an extension tool asks for approval like an external tool: without a terminal it is denied', async () => {
	const {sandbox, dir} = sandboxWithExtensions({'todo.mjs': todoExtension});
	mock.enqueue({toolCalls: [{id: 'call_2', name: 'todo', arguments: JSON.stringify({text: 'eggs'})}]}, {text: 'Could not.'});
	const run = await runCli(['-p', 'add eggs', '--json', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}});
	assert.equal(run.code, 0, run.stderr);
	const approval = jsonEvents(run.stdout).find(event => event.type === 'approval')!;
	assert.equal(approval.decision, 'deny');
	assert.equal(approval.title, 'Run todo');
	assert.equal(approval.owner, `extension todo (${join(dir, 'todo.mjs')})`);
});

test('a broken extension is reported with its path and the turn goes on', async () => {
	const {sandbox, dir} = sandboxWithExtensions({'broken.mjs': 'export default function register(api) { throw new Error("boom"); }', 'todo.mjs': todoExtension});
	mock.enqueue({text: 'Hi.'});
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Hi.\n');
	assert.match(run.stderr, new RegExp(`i: warning: extension ${join(dir, 'broken.mjs')} \\(from I_EXTENSIONS_DIR\\) was not loaded: register failed: boom`));
});

test('an unhandled rejection from extension code is reported with its name, never a crash', async () => {
	const {sandbox, dir} = sandboxWithExtensions({
		'leaky.mjs': `export default function register(api) {
			api.registerTool({name: 'leak', description: 'd', parameters: {type: 'object'}, execute() {
				Promise.reject(new Error('forgotten promise'));
				return new Promise(resolve => setTimeout(() => resolve({output: 'ok'}), 50));
			}});
		}`,
	});
	mock.enqueue({toolCalls: [{id: 'call_3', name: 'leak', arguments: '{}'}]}, {text: 'Done.'});
	const run = await runCli(['-p', 'leak', '--yolo', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'Done.\n');
	assert.match(run.stderr, /i: warning: extension leaky: an unhandled rejection: forgotten promise/);
});

test('project extensions need trust in -p: skipped with a message, loaded with --trust-project', async () => {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const projectDir = join(sandbox.workspace, '.i', 'extensions');
	mkdirSync(projectDir, {recursive: true});
	writeFileSync(join(projectDir, 'todo.mjs'), todoExtension);
	mock.enqueue({text: 'One.'});
	const before = mock.requests.length;
	const skipped = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(skipped.code, 0, skipped.stderr);
	assert.match(skipped.stderr, new RegExp(`is not trusted, so its own extension was skipped: ${join(projectDir, 'todo.mjs')}; pass --trust-project`));
	assert.ok(!mock.requests[before]!.body.tools.some((tool: any) => tool.function.name === 'todo'));
	mock.enqueue({text: 'Two.'});
	const trusted = await runCli(['-p', 'hi', '--trust-project', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(trusted.code, 0, trusted.stderr);
	assert.doesNotMatch(trusted.stderr, /not trusted/);
	assert.ok(mock.requests.at(-1)!.body.tools.some((tool: any) => tool.function.name === 'todo'));
});

test('--no-extensions loads none', async () => {
	const {sandbox, dir} = sandboxWithExtensions({'broken.mjs': 'export default function register() { throw new Error("boom"); }'});
	mock.enqueue({text: 'Hi.'});
	const run = await runCli(['-p', 'hi', '--no-extensions', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stderr, '');
});

test('i extensions lists what a run loads, where from and what each registered, and what was not loaded and why', async () => {
	const {sandbox, dir} = sandboxWithExtensions({
		'todo.mjs': todoExtension.replace(
			'api.registerTool({',
			"api.declare({priority: 5, platforms: ['linux', 'macos']}); api.registerEventHandler('ToolCall', () => {}); api.registerBeforeAgentStart(() => {}); api.registerMessageRenderer('todo.note', message => String(message.content)); api.registerEntryRenderer('todo.state', () => 'state'); console.log('noise from register'); api.registerTool({",
		),
		'broken.mjs': 'export default function register() { throw new Error("boom"); }',
	});
	const run = await runCli(['extensions', '--json', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /noise from register/);
	const listing = JSON.parse(run.stdout);
	assert.equal(listing.workspace, sandbox.workspace);
	assert.deepEqual(
		listing.loaded.filter((extension: {origin: string}) => extension.origin !== 'bundled'),
		[
			{
				name: 'todo',
				path: join(dir, 'todo.mjs'),
				from: 'I_EXTENSIONS_DIR',
				origin: 'env',
				priority: 5,
				platforms: ['linux', 'macos'],
				tools: ['todo'],
				flags: [],
				commands: [],
				markdownTransformers: 0,
				providers: [],
				renderers: {message: ['todo.note'], entry: ['todo.state']},
				resourcesDiscover: 0,
				beforeAgentStart: 1,
				events: ['ToolCall'],
			},
		],
	);
	assert.deepEqual(listing.notLoaded, [{path: join(dir, 'broken.mjs'), from: 'I_EXTENSIONS_DIR', why: 'failed', reason: 'register failed: boom'}]);
	// The whole text, so without the provider package that ships with i (its own listing is in test/catalogue).
	writeFileSync(join(sandbox.configDir, 'settings.json'), JSON.stringify({providerPackage: false}));
	const plain = await runCli(['extensions', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}});
	assert.equal(plain.code, 0, plain.stderr);
	assert.match(
		plain.stdout,
		/^todo {2}.*todo\.mjs\n {2}loaded from I_EXTENSIONS_DIR; priority 5; platforms linux, macos\n {2}tools: todo\n {2}message renderers: todo\.note\n {2}entry renderers: todo\.state\n {2}system prompt transforms \(BeforeAgentStart\): 1\n {2}events: ToolCall\n\nnot loaded:\n {2}.*broken\.mjs \(from I_EXTENSIONS_DIR\)\n {4}failed to load: register failed: boom\n {2}.*providers \(from i itself.*\)\n {4}refused, disabled: "providerPackage": false in .*settings\.json\n$/,
	);
	const bad = await runCli(['extensions', '--bogus'], {env: sandbox.env});
	assert.equal(bad.code, 2);
	assert.match(bad.stderr, /i: extensions: unknown flag --bogus/);
});

test('an image in the shape the extension types name (ExtensionImagePart) reaches the next request', async () => {
	const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d5e2ab0000000049454e44ae426082', 'hex');
	const url = `data:image/png;base64,${png.toString('base64')}`;
	const {sandbox, dir} = sandboxWithExtensions({
		'snap.mjs': `export default api => api.registerTool({name: 'snap', description: 'Takes a picture.', parameters: {type: 'object', properties: {}},
			execute: () => ({output: 'one dot', images: [{type: 'image_url', image_url: {url: ${JSON.stringify(url)}}}]})});`,
	});
	mock.enqueue({toolCalls: [{id: 's1', name: 'snap', arguments: '{}'}]}, {text: 'A dot.'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'snap', '--json', '--yolo', '-C', sandbox.workspace], {env: {...sandbox.env, I_EXTENSIONS_DIR: dir}});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(jsonEvents(run.stdout).find(event => event.type === 'tool_result')!.images, 1);
	const messages = mock.requests[before + 1]!.body.messages as Array<Record<string, any>>;
	const part = messages.flatMap(message => (Array.isArray(message.content) ? message.content : [])).find((item: any) => item.type === 'image_url');
	assert.equal(part.image_url.url, url);
});
