// AGENTS.md in nested folders reaches the request in the right order (issue
// 17 item 3), end to end through the built CLI against the mock provider:
// the global file, the repository root, a middle folder and the workspace,
// each under its path, after .i/SYSTEM.md and .i/APPEND_SYSTEM.md; a resumed
// session keeps what it started with; --no-agents-md gives none.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

interface Project {
	box: Sandbox;
	repo: string;
	middle: string;
	workspace: string;
}

/** A repository (a .git folder) in the sandbox with the workspace two folders down, an AGENTS.md in each and a global one. */
function project(): Project {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const repo = join(box.root, 'repo');
	const middle = join(repo, 'services');
	const workspace = join(middle, 'api');
	mkdirSync(workspace, {recursive: true});
	mkdirSync(join(repo, '.git'));
	writeFileSync(join(box.configDir, 'AGENTS.md'), 'GLOBAL: answer briefly.\n');
	writeFileSync(join(repo, 'AGENTS.md'), 'ROOT: run npm test before committing.\n');
	writeFileSync(join(middle, 'AGENTS.md'), 'MIDDLE: services share one logger.\n');
	writeFileSync(join(workspace, 'AGENTS.md'), 'WORKSPACE: the API uses zod.\n');
	return {box, repo, middle, workspace};
}

async function ask(p: Project, args: string[] = []): Promise<string> {
	mock.enqueue({text: 'ok'});
	const sent = mock.requests.length;
	const run = await runCli(['-p', 'hi', '-C', p.workspace, ...args], {env: p.box.env});
	assert.equal(run.code, 0, run.stderr);
	const system = mock.requests[sent]!.body.messages[0];
	assert.equal(system.role, 'system');
	return system.content as string;
}

function assertInOrder(text: string, parts: string[]): void {
	let from = 0;
	for (const part of parts) {
		const at = text.indexOf(part, from);
		assert.ok(at >= 0, `${JSON.stringify(part)} after offset ${from} in:\n${text}`);
		from = at + part.length;
	}
}

test('the global, root, middle and workspace AGENTS.md reach the system prompt in that order, each under its path, after APPEND_SYSTEM.md', async () => {
	const p = project();
	mkdirSync(join(p.workspace, '.i'));
	writeFileSync(join(p.workspace, '.i', 'SYSTEM.md'), 'You review code.\n');
	writeFileSync(join(p.workspace, '.i', 'APPEND_SYSTEM.md'), 'Answer in French.\n');
	const system = await ask(p);
	assert.ok(system.startsWith('You review code.\n\nAnswer in French.\n\n# Project instructions (AGENTS.md)\n'), system);
	assertInOrder(system, [
		`## ${join(p.box.configDir, 'AGENTS.md')}\n\nGLOBAL: answer briefly.`,
		`## ${join(p.repo, 'AGENTS.md')}\n\nROOT: run npm test before committing.`,
		`## ${join(p.middle, 'AGENTS.md')}\n\nMIDDLE: services share one logger.`,
		`## ${join(p.workspace, 'AGENTS.md')}\n\nWORKSPACE: the API uses zod.`,
	]);
});

test('without a repository root only the workspace (and the global file) count; --no-agents-md gives none', async () => {
	const p = project();
	const loose = join(p.box.root, 'loose', 'ws');
	mkdirSync(loose, {recursive: true});
	writeFileSync(join(p.box.root, 'loose', 'AGENTS.md'), 'PARENT: not read.\n');
	writeFileSync(join(loose, 'AGENTS.md'), 'LOOSE: read.\n');
	const system = await ask({...p, workspace: loose});
	assert.ok(system.includes('LOOSE: read.'));
	assert.ok(system.includes('GLOBAL: answer briefly.'));
	assert.ok(!system.includes('PARENT'), system);
	const off = await ask(p, ['--no-agents-md']);
	assert.ok(!off.includes('Project instructions') && !off.includes('ROOT:'), off);
});

test('a resumed session keeps the instructions it started with; a file that cannot be read is a warning, not a failed start', async () => {
	const p = project();
	const session = join(p.box.root, 'kept.json');
	assert.ok((await ask(p, ['--session', session])).includes('WORKSPACE: the API uses zod.'));
	writeFileSync(join(p.workspace, 'AGENTS.md'), 'WORKSPACE: changed.\n');
	const resumed = await ask(p, ['--session', session]);
	assert.ok(resumed.includes('WORKSPACE: the API uses zod.') && !resumed.includes('WORKSPACE: changed.'), resumed);

	mock.enqueue({text: 'ok'});
	const broken = project();
	writeFileSync(join(broken.box.root, 'target.md'), 'outside\n');
	rmSync(join(broken.workspace, 'AGENTS.md'));
	symlinkSync(join(broken.box.root, 'target.md'), join(broken.workspace, 'AGENTS.md'));
	const run = await runCli(['-p', 'hi', '-C', broken.workspace], {env: broken.box.env});
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stderr, /AGENTS\.md was not read: it is a symbolic link to .*target\.md, outside the repository/);
	assert.ok(!(mock.requests.at(-1)!.body.messages[0].content as string).includes('outside'));
});

test('line mode and --json give the model the same instructions as -p', async () => {
	const p = project();
	mock.enqueue({text: 'one'}, {text: 'two'});
	const sent = mock.requests.length;
	const run = await runCli(['--json', '-C', p.workspace], {env: p.box.env, input: 'first\nsecond\n'});
	assert.equal(run.code, 0, run.stderr);
	const systems = mock.requests.slice(sent).map(request => request.body.messages[0].content as string);
	assert.equal(systems.length, 2);
	assert.equal(systems[0], systems[1], 'every request of the session sends the same prompt');
	assertInOrder(systems[0]!, ['GLOBAL: answer briefly.', 'ROOT: run npm test', 'MIDDLE: services', 'WORKSPACE: the API uses zod.']);
	assert.ok(!run.stdout.includes('\u0007'), 'no bell outside the chat screen');
});

test('a 64 KiB AGENTS.md reaches the request whole; one byte more is cut with the note', async () => {
	const p = project();
	const limit = 64 * 1024;
	writeFileSync(join(p.workspace, 'AGENTS.md'), 'w'.repeat(limit));
	const whole = await ask(p);
	assert.ok(whole.includes(`${'w'.repeat(limit)}`) && !whole.includes('[cut:'));
	writeFileSync(join(p.workspace, 'AGENTS.md'), 'w'.repeat(limit + 1));
	const cut = await ask(p);
	assert.ok(cut.endsWith(`\n\n${'w'.repeat(limit)}\n\n[cut: this file is ${limit + 1} bytes; only its first ${limit} bytes are given]`), cut.slice(-200));
});
