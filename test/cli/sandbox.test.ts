import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
let outside: string;
before(async () => {
	mock = await startMockProvider();
	outside = realpathSync(mkdtempSync(join('/var/tmp', 'i-cli-sandbox-')));
});
after(async () => {
	await mock.close();
	rmSync(outside, {recursive: true, force: true});
});

function sandbox(): Sandbox {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	return box;
}

const shellCall = (id: string, command: string, extra: Record<string, unknown> = {}) => ({toolCalls: [{id, name: 'shell', arguments: JSON.stringify({command, ...extra})}]});
const toolText = (index: number, id: string): string => mock.requests[index]!.body.messages.find((message: any) => message.role === 'tool' && message.tool_call_id === id)?.content ?? '';

test('-p --yolo keeps the sandbox: a write outside the workspace is refused and the model reads why; sandbox: false is denied without a terminal', async () => {
	const box = sandbox();
	const target = join(outside, 'yolo.txt');
	mock.enqueue(shellCall('s1', `echo x > ${target}`), shellCall('s2', `echo x > ${target}`, {sandbox: false}), {text: 'done'});
	const first = mock.requests.length;
	const run = await runCli(['-p', 'write it', '--yolo', '--json', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(existsSync(target), false);
	assert.match(toolText(first + 1, 's1'), /Read-only file system[\s\S]*\[sandbox\] This command ran in i’s sandbox/);
	assert.match(toolText(first + 2, 's2'), /outside the sandbox, which only a person can allow/);
	const approvals = jsonEvents(run.stdout).filter(event => event.type === 'approval');
	assert.deepEqual(
		approvals.map(event => [event.id, event.decision, event.by]),
		[
			['s1', 'allow', 'yolo'],
			['s2', 'deny', 'no_terminal'],
		],
	);
});

test('--no-sandbox runs the command as before, and so does "sandbox": {"enabled": false} in the global settings', async () => {
	const box = sandbox();
	for (const [name, args] of [
		['flag.txt', ['--no-sandbox']],
		['settings.txt', []],
	] as const) {
		if (name === 'settings.txt') writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({sandbox: {enabled: false}}));
		mock.enqueue(shellCall('s1', `echo x > ${join(outside, name)}`), {text: 'done'});
		const run = await runCli(['-p', 'write it', '--yolo', ...args, '-C', box.workspace], {env: box.env});
		assert.equal(run.code, 0, run.stderr);
		assert.equal(readFileSync(join(outside, name), 'utf8'), 'x\n');
	}
});

test("a sandbox setting of the wrong type or a folder that does not exist stops the start naming the file and the field; a project's counts only when trusted", async () => {
	const box = sandbox();
	const settings = join(box.configDir, 'settings.json');
	writeFileSync(settings, JSON.stringify({sandbox: {enabled: 'no'}}));
	const wrong = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(wrong.code, 2);
	assert.match(wrong.stderr, new RegExp(`settings ${settings.replaceAll('.', '\\.')}: .*sandbox\\.enabled`));
	writeFileSync(settings, JSON.stringify({sandbox: {allowWrite: ['/no/such/folder']}}));
	const missing = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(missing.code, 2);
	assert.match(missing.stderr, /field "sandbox\.allowWrite\[0\]": \/no\/such\/folder does not exist; a sandbox lets a program write only in folders that exist/);
	writeFileSync(settings, JSON.stringify({sandbox: {allowedDomains: ['https://example.com/']}}));
	const domain = await runCli(['-p', 'hi', '-C', box.workspace], {env: box.env});
	assert.equal(domain.code, 2);
	assert.match(domain.stderr, /sandbox\.allowedDomains: entry 1 \("https:\/\/example\.com\/"\) gives a scheme; write the host alone, as in example\.com/);
	rmSync(settings);

	mkdirSync(join(box.workspace, '.i'), {recursive: true});
	writeFileSync(join(box.workspace, '.i', 'settings.json'), JSON.stringify({sandbox: {allowWrite: [outside]}}));
	mock.enqueue(shellCall('s1', `echo x > ${join(outside, 'project.txt')}`), {text: 'done'});
	const untrusted = await runCli(['-p', 'write it', '--yolo', '-C', box.workspace], {env: box.env});
	assert.equal(untrusted.code, 0, untrusted.stderr);
	assert.match(untrusted.stderr, /is not trusted, so the sandbox settings of .*\.i\/settings\.json do not count/);
	assert.equal(existsSync(join(outside, 'project.txt')), false);
	mock.enqueue(shellCall('s1', `echo x > ${join(outside, 'project.txt')}`), {text: 'done'});
	const trusted = await runCli(['-p', 'write it', '--yolo', '--trust-project', '-C', box.workspace], {env: box.env});
	assert.equal(trusted.code, 0, trusted.stderr);
	assert.equal(readFileSync(join(outside, 'project.txt'), 'utf8'), 'x\n');
});

test('a machine where bubblewrap cannot start (simulated) says so once, and every shell command asks: without a terminal, denied even with --yolo; --no-sandbox says the sandbox is off', async () => {
	const box = sandbox();
	// A bwrap first on PATH that fails as one without user namespaces does.
	const bin = join(box.root, 'bin');
	mkdirSync(bin);
	writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', {mode: 0o755});
	const env = {...box.env, PATH: `${bin}:${process.env.PATH ?? ''}`};
	mock.enqueue(shellCall('s1', 'echo one'), shellCall('s2', 'echo two'), {text: 'done'});
	const first = mock.requests.length;
	const run = await runCli(['-p', 'run them', '--yolo', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const said = run.stderr.split('\n').filter(line => line.includes('cannot start'));
	assert.equal(said.length, 1, run.stderr);
	assert.match(said[0]!, /the sandbox for the model's shell commands cannot start \(.*bwrap failed: bwrap: No permissions to create new namespace\): every shell command asks before it runs/);
	for (const [index, id] of [
		[first + 1, 's1'],
		[first + 2, 's2'],
	] as const)
		assert.match(toolText(index, id), /outside the sandbox, which only a person can allow/);

	mock.enqueue({text: 'done'});
	const off = await runCli(['-p', 'hi', '--no-sandbox', '-C', box.workspace], {env});
	assert.equal(off.code, 0, off.stderr);
	assert.match(off.stderr, /the sandbox is off \(--no-sandbox\): the model's shell commands run with your full rights/);
});
