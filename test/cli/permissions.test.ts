import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

function sandboxWith(files: {global?: unknown; project?: unknown}): Sandbox {
	const sandbox = makeSandbox();
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 2});
	if (files.global) writeFileSync(join(sandbox.configDir, 'settings.json'), JSON.stringify(files.global));
	if (files.project) {
		mkdirSync(join(sandbox.workspace, '.i'));
		writeFileSync(join(sandbox.workspace, '.i', 'settings.json'), JSON.stringify(files.project));
	}

	return sandbox;
}

const touch = (id: string, file: string) => ({id, name: 'shell', arguments: JSON.stringify({command: `touch ${file}`})});

/** The tool messages the model got back in the request after the one at `index`. */
function toolMessages(index: number): string[] {
	return mock.requests[index + 1]!.body.messages.filter((message: any) => message.role === 'tool').map((message: any) => message.content as string);
}

test('-p: a settings allow rule runs a shell command without --yolo; a command the rule does not cover is still refused', async () => {
	const sandbox = sandboxWith({global: {permissions: {allow: ['shell(touch allowed.txt)']}}});
	mock.enqueue({toolCalls: [touch('s1', 'allowed.txt'), touch('s2', 'other.txt')]}, {text: 'done'});
	const run = await runCli(['-p', 'make them', '--json', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(existsSync(join(sandbox.workspace, 'allowed.txt')), true);
	assert.equal(existsSync(join(sandbox.workspace, 'other.txt')), false);
	const approvals = jsonEvents(run.stdout).filter(event => event.type === 'approval');
	assert.deepEqual(
		approvals.map(event => [event.id, event.decision, event.by]),
		[
			['s1', 'allow', 'rule'],
			['s2', 'deny', 'no_terminal'],
		],
	);
	assert.match(approvals[0]!.reason, /allowed by the permission rule "shell\(touch allowed\.txt\)" \(.*settings\.json\)/);
});

test('line mode: an allow rule runs the command, and an ask rule refuses it naming the rule', async () => {
	const sandbox = sandboxWith({global: {permissions: {allow: ['shell(touch *)'], ask: ['shell(touch asked.txt)']}}});
	mock.enqueue({toolCalls: [touch('s1', 'line.txt')]}, {text: 'one'}, {toolCalls: [touch('s2', 'asked.txt')]}, {text: 'two'});
	const run = await runCli(['-C', sandbox.workspace], {env: sandbox.env, input: 'first\nsecond\n'});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(existsSync(join(sandbox.workspace, 'line.txt')), true);
	assert.equal(existsSync(join(sandbox.workspace, 'asked.txt')), false);
	assert.match(run.stderr, /not run: Run: touch asked\.txt \(native\): the permission rule "shell\(touch asked\.txt\)" \(.*\) asks first; approval is needed/);
});

test('-p --yolo: a deny rule refuses the call; the person and the model are told which rule', async () => {
	const sandbox = sandboxWith({project: {permissions: {deny: ['shell(touch *)']}}});
	mock.enqueue({toolCalls: [{id: 's1', name: 'shell', arguments: JSON.stringify({command: 'ls && touch denied.txt'})}]}, {text: 'done'});
	const before = mock.requests.length;
	const run = await runCli(['-p', 'make it', '--yolo', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(existsSync(join(sandbox.workspace, 'denied.txt')), false);
	assert.match(run.stderr, /not run: Run: ls && touch denied\.txt \(native\): denied by the permission rule "shell\(touch \*\)" \(.*\.i\/settings\.json\)/);
	assert.match(toolMessages(before)[0]!, /The call was not run: approval was denied\. Reason: denied by the permission rule "shell\(touch \*\)"/);
});

test("-p: an untrusted project's allow rule does not count, and says so; --trust-project makes it count", async () => {
	const sandbox = sandboxWith({project: {permissions: {allow: ['shell(touch *)']}}});
	mock.enqueue({toolCalls: [touch('s1', 'untrusted.txt')]}, {text: 'done'});
	const untrusted = await runCli(['-p', 'make it', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(untrusted.code, 0, untrusted.stderr);
	assert.equal(existsSync(join(sandbox.workspace, 'untrusted.txt')), false);
	assert.match(untrusted.stderr, /is not trusted, so the allow rules of .*\.i\/settings\.json do not count/);
	mock.enqueue({toolCalls: [touch('s1', 'trusted.txt')]}, {text: 'done'});
	const trusted = await runCli(['-p', 'make it', '--trust-project', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(trusted.code, 0, trusted.stderr);
	assert.equal(existsSync(join(sandbox.workspace, 'trusted.txt')), true);
});

test('a malformed rule stops the run with exit 2, naming the file, the rule and why', async () => {
	const sandbox = sandboxWith({project: {permissions: {deny: ['shell(rm -rf *']}}});
	const requests = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 2, run.stderr);
	assert.ok(run.stderr.includes(`${join(sandbox.workspace, '.i', 'settings.json')}: permissions.deny[0] "shell(rm -rf *": a pattern ends with ")"`), run.stderr);
	assert.equal(mock.requests.length, requests, 'no model request was made');
});

test("the approval module's auto mode does not waive a rule's ask, and its deny_tools beat an allow rule", async () => {
	const sandbox = sandboxWith({global: {permissions: {allow: ['write'], ask: ['shell(touch *)']}}});
	writeFileSync(join(sandbox.configDir, 'builtin.json'), JSON.stringify({builtin_profile: 'configured', tools: []}));
	writeFileSync(join(sandbox.configDir, 'plugins.json'), JSON.stringify({profile: 'approval', disabled: []}));
	writeFileSync(join(sandbox.configDir, 'approval.json'), JSON.stringify({mode: 'auto', deny_tools: ['write']}));
	sandbox.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', plugins: ['builtin.json']});
	const write = {id: 'w1', name: 'write', arguments: JSON.stringify({files: [{path: 'written.txt', content: 'x'}]})};
	mock.enqueue({toolCalls: [touch('s1', 'asked.txt'), write]}, {text: 'done'});
	const run = await runCli(['-p', 'make them', '--json', '-C', sandbox.workspace], {env: sandbox.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(existsSync(join(sandbox.workspace, 'asked.txt')), false);
	assert.equal(existsSync(join(sandbox.workspace, 'written.txt')), false);
	const approvals = jsonEvents(run.stdout).filter(event => event.type === 'approval');
	assert.deepEqual(
		approvals.map(event => [event.id, event.decision, event.by]),
		[
			['s1', 'deny', 'no_terminal'],
			['w1', 'deny', 'policy'],
		],
	);
	assert.match(approvals[0]!.reason, /^the permission rule "shell\(touch \*\)" \(.*\) asks first; approval is needed and there is no terminal/);
});
