import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandbox(): Sandbox {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 2});
	return box;
}

const writeCall = (id: string, path: string) => ({id, name: 'write', arguments: JSON.stringify({files: [{path, content: 'planned\n'}]})});
const systemText = (index: number): string => mock.requests[index]!.body.messages[0]!.content as string;
const toolTexts = (index: number): string[] => mock.requests[index]!.body.messages.filter((message: any) => message.role === 'tool').map((message: any) => message.content as string);

test('-p --permission-mode plan: a write is refused with the reason the model reads, a read runs, and every request says it is planning', async () => {
	const box = sandbox();
	writeFileSync(join(box.workspace, 'notes.txt'), 'hello\n');
	mock.enqueue({toolCalls: [writeCall('w1', 'plan.txt'), {id: 'r1', name: 'read', arguments: JSON.stringify({files: [{path: 'notes.txt'}]})}]}, {text: 'The plan: write plan.txt.'});
	const first = mock.requests.length;
	const run = await runCli(['-p', 'make plan.txt', '--json', '--permission-mode', 'plan', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(existsSync(join(box.workspace, 'plan.txt')), false);
	const approvals = jsonEvents(run.stdout).filter(event => event.type === 'approval');
	assert.deepEqual(
		approvals.map(event => [event.id, event.decision, event.by]),
		[['w1', 'deny', 'mode']],
	);
	const [refused, read] = toolTexts(first + 1);
	assert.match(refused!, /^The call was not run: approval was denied\. Reason: plan mode: only read-only tools run \(read, glob, search, view_image, docs\); write was not run\. Present your plan instead$/);
	assert.match(read!, /hello/);
	for (const index of [first, first + 1]) assert.match(systemText(index), /\n\nYou are in plan mode: the person wants a plan before anything changes\./);
	// The note goes with each request, never into the saved session.
	const session = jsonEvents(run.stdout).find(event => event.type === 'session');
	if (session?.path) assert.doesNotMatch(readFileSync(session.path, 'utf8'), /You are in plan mode/);
});

test('-p --permission-mode acceptEdits: a write inside the workspace runs with no one to ask; a shell command is still refused', async () => {
	const box = sandbox();
	mock.enqueue({toolCalls: [writeCall('w1', 'accepted.txt'), {id: 's1', name: 'shell', arguments: JSON.stringify({command: 'touch shell.txt'})}]}, {text: 'done'});
	const first = mock.requests.length;
	const run = await runCli(['-p', 'go', '--json', '--permission-mode', 'acceptEdits', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(readFileSync(join(box.workspace, 'accepted.txt'), 'utf8'), 'planned\n');
	assert.equal(existsSync(join(box.workspace, 'shell.txt')), false);
	assert.deepEqual(
		jsonEvents(run.stdout)
			.filter(event => event.type === 'approval')
			.map(event => [event.id, event.decision, event.by]),
		[
			['w1', 'allow', 'mode'],
			['s1', 'deny', 'no_terminal'],
		],
	);
	assert.doesNotMatch(systemText(first), /plan mode/);
});

test('--permission-mode with an unknown mode, or another mode with --yolo, is a usage error that names the modes', async () => {
	const box = sandbox();
	const unknown = await runCli(['-p', 'hi', '--permission-mode', 'auto', '-C', box.workspace], {env: box.env});
	assert.equal(unknown.code, 2);
	assert.match(unknown.stderr, /--permission-mode must be one of default, acceptEdits, plan, bypassPermissions \(got "auto"\)/);
	const clash = await runCli(['-p', 'hi', '--yolo', '--permission-mode', 'plan', '-C', box.workspace], {env: box.env});
	assert.equal(clash.code, 2);
	assert.match(clash.stderr, /--yolo is --permission-mode bypassPermissions; it cannot go with --permission-mode plan/);
});
