// Extension handlers against the worker hooks (spec/platform.md §6) at the
// same moment (spec/extensions.md §5: transforms run before the worker hooks,
// gates AND together with approval, observers run after commit), end to end
// through the built CLI with a real hook worker and the mock provider.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

const lifecycle = fileURLToPath(new URL('../../../test/fixtures/workers/lifecycle.py', import.meta.url));

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function setup(extension: string, events: string[]): {box: Sandbox; file: string; hookLog: () => Array<{event: string; data: any}>; extensionLog: string} {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'hooks.json'), JSON.stringify({hooks: [{events, exec: ['python3', lifecycle, 'w']}]}));
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['hooks.json']});
	const extensionLog = join(box.root, 'extension.log');
	const file = join(box.root, 'order.mjs');
	writeFileSync(file, extension.replaceAll('LOG', JSON.stringify(extensionLog)));
	const hookLog = () => {
		const path = join(box.workspace, '.lifecycle.log');
		return existsSync(path)
			? readFileSync(path, 'utf8')
					.split('\n')
					.filter(Boolean)
					.map(line => JSON.parse(line))
			: [];
	};

	return {box, file, hookLog, extensionLog};
}

test('transforms run before the worker hooks of the same moment: user_input, before_request and after_tool see what the extension made', async () => {
	const {box, file, hookLog} = setup(
		`export default function register(api) {
			api.registerEventHandler('Input', event => ({text: event.text + ' [extension]'}));
			api.registerEventHandler('BeforeProviderRequest', event => ({body: {...event.body, extension_mark: true}}));
			api.registerEventHandler('ToolResult', event => ({output: event.output.toUpperCase()}));
		}`,
		['user_input', 'before_request', 'after_tool'],
	);
	writeFileSync(join(box.workspace, 'a.txt'), 'quiet words\n');
	mock.enqueue({toolCalls: [{id: 'c1', name: 'read', arguments: JSON.stringify({files: [{path: 'a.txt'}]})}]}, {text: 'done'});
	const run = await runCli(['-p', 'read it', '--extension', file, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const log = hookLog();
	const userInput = log.find(entry => entry.event === 'user_input')!;
	assert.equal(userInput.data.content, 'read it [extension]');
	const requests = log.filter(entry => entry.event === 'before_request');
	assert.equal(requests.length, 2);
	for (const request of requests) assert.equal(request.data.body.extension_mark, true);
	const afterTool = log.find(entry => entry.event === 'after_tool')!;
	assert.match(afterTool.data.output, /QUIET WORDS/);
});

test('a ToolCall gate ANDs with approval: a gate block stands under --yolo, and a gate that allows never overrides a tool_approval denial', async () => {
	const {box, file, hookLog} = setup(
		`export default function register(api) {
			api.registerEventHandler('ToolCall', event => (event.arguments.files?.[0]?.path === 'secret.txt' ? {block: true, reason: 'not that one'} : undefined));
		}`,
		['tool_approval'],
	);
	writeFileSync(join(box.workspace, 'secret.txt'), 'hidden\n');
	writeFileSync(join(box.workspace, 'open.txt'), 'visible\n');
	writeFileSync(join(box.workspace, '.lifecycle.json'), JSON.stringify({w: {tool_approval: {set: {decision: 'deny', reason: 'the policy says no'}}}}));
	mock.enqueue({toolCalls: [{id: 'c1', name: 'write', arguments: JSON.stringify({files: [{path: 'open.txt', content: 'changed'}]})}]}, {text: 'ok'});
	let run = await runCli(['-p', 'write', '--extension', file, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(readFileSync(join(box.workspace, 'open.txt'), 'utf8'), 'visible\n', 'the policy denied it; the gate allowing it changed nothing');
	assert.ok(
		hookLog().some(entry => entry.event === 'tool_approval'),
		'approval was asked after the gate let it through',
	);

	writeFileSync(join(box.workspace, '.lifecycle.log'), '');
	mock.enqueue({toolCalls: [{id: 'c2', name: 'read', arguments: JSON.stringify({files: [{path: 'secret.txt'}]})}]}, {text: 'ok'});
	const before = mock.requests.length;
	run = await runCli(['-p', 'read', '--yolo', '--extension', file, '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const toolMessage = (mock.requests[before + 1]!.body.messages as Array<{role: string; content: string}>).find(message => message.role === 'tool')!;
	assert.match(toolMessage.content, /not that one/);
	assert.doesNotMatch(toolMessage.content, /hidden/);
	assert.deepEqual(
		hookLog().filter(entry => entry.event === 'tool_approval'),
		[],
		'a blocked call never reaches approval',
	);
});

test('observers run after commit: at TurnEnd the step is already in the session file', async () => {
	const {box, file, extensionLog} = setup(
		`import {appendFileSync, readFileSync} from 'node:fs';
		let path;
		export default function register(api) {
			api.registerEventHandler('SessionStart', event => { path = event.path; });
			api.registerEventHandler('TurnEnd', () => appendFileSync(LOG, String(readFileSync(path, 'utf8').includes('the saved answer')) + '\\n'));
		}`,
		['before_request'],
	);
	mock.enqueue({text: 'the saved answer'});
	const run = await runCli(['-p', 'hi', '--extension', file, '--session', join(box.root, 's.json'), '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(readFileSync(extensionLog, 'utf8'), 'true\n');
});
