import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {createApprovalGate, type ApprovalRequest} from '../../source/core/agent/approval-gate.js';
import {workspaceId, workspaceStateDir} from '../../source/core/config/workspace-registry.js';
import {UsageError} from '../../source/core/errors.js';
import {writeTrust} from '../../source/core/extensions/project-trust.js';
import {readRunSettings} from '../../source/core/extensions/settings-file.js';
import {readPermissions, type PermissionStart} from '../../source/core/session/start-permissions.js';
import {denyWithoutTerminal} from '../../source/core/session/setup-agent.js';
import {place} from './helpers.js';

type Lists = {allow?: string[]; ask?: string[]; deny?: string[]};

/** A workspace with the three settings files as given (a file not given is not written). */
async function workspaceWith(t: TestContext, files: {global?: Lists; project?: Lists; local?: Lists}) {
	const {root, workspace} = await place(t);
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	await Promise.all([mkdir(dirs.config_dir), mkdir(join(workspace, '.i'))]);
	const write = async (path: string, lists: Lists | undefined) => (lists ? writeFile(path, JSON.stringify({permissions: lists})) : undefined);
	await Promise.all([
		write(join(dirs.config_dir, 'settings.json'), files.global),
		write(join(workspace, '.i', 'settings.json'), files.project),
		write(join(workspace, '.i', 'settings.local.json'), files.local),
	]);
	const warnings: string[] = [];
	const start = async (options: Partial<PermissionStart> = {}) =>
		readPermissions({
			workspace,
			dirs,
			settings: await readRunSettings(workspace, dirs.config_dir),
			events: null,
			toolNames: [],
			trustProject: undefined,
			problems: 'fail',
			warn: message => warnings.push(message),
			...options,
		}).then(read => read.check);
	return {workspace, dirs, warnings, start};
}

const shell = (command: string): ApprovalRequest => ({id: 'c1', name: 'shell', arguments: {command}, ask: {title: `Run: ${command}`, detail: command}, external: false, owner: 'native'});

test("an untrusted project's allow rules, committed or local, do not count; its deny and ask rules and the global allow rules do", async t => {
	const box = await workspaceWith(t, {global: {allow: ['shell(git status)']}, project: {allow: ['shell(touch *)'], deny: ['shell(rm *)']}, local: {allow: ['shell(ls)'], ask: ['shell(git push*)']}});
	const check = (await box.start())!;
	assert.equal((await check(shell('touch a')))?.decision, undefined);
	assert.equal((await check(shell('ls')))?.decision, undefined);
	assert.equal((await check(shell('git status')))?.decision, 'allow');
	assert.match((await check(shell('rm -rf x')))!.reason, /^denied by the permission rule "shell\(rm \*\)" \(.*\.i\/settings\.json\)$/);
	assert.equal((await check(shell('git push')))?.decision, 'ask');
	assert.equal(box.warnings.length, 1);
	assert.match(box.warnings[0]!, /is not trusted, so the allow rules of .*\.i\/settings\.json and .*\.i\/settings\.local\.json do not count \(its deny and ask rules do\); pass --trust-project/);
});

test("a trusted project's allow rules count: --trust-project, or a remembered yes; a remembered no leaves them out", async t => {
	const box = await workspaceWith(t, {project: {allow: ['shell(touch *)']}, local: {allow: ['shell(ls)']}});
	const flagged = (await box.start({trustProject: true}))!;
	assert.equal((await flagged(shell('touch a')))?.decision, 'allow');
	assert.equal((await flagged(shell('ls')))?.decision, 'allow');
	assert.deepEqual(box.warnings, []);
	const stateDir = workspaceStateDir(box.dirs, await workspaceId(box.workspace, box.dirs));
	await writeTrust(stateDir, true, 'user');
	assert.equal((await (await box.start())!(shell('ls')))?.decision, 'allow');
	await writeTrust(stateDir, false, 'user');
	assert.equal(await box.start(), undefined, 'no rule counts, so there is nothing to check');
	assert.equal(box.warnings.length, 1);
});

test('a deny rule holds under --yolo through the gate, and the model is told which rule', async t => {
	const box = await workspaceWith(t, {project: {deny: ['shell(rm *)']}});
	const gate = createApprovalGate({mode: {current: 'bypassPermissions'}, askPerson: denyWithoutTerminal, rules: await box.start()});
	assert.deepEqual(await gate(shell('ls && rm -rf /')), {decision: 'deny', by: 'rule', reason: `denied by the permission rule "shell(rm *)" (${join(box.workspace, '.i', 'settings.json')})`});
	assert.deepEqual(await gate(shell('ls')), {decision: 'allow', by: 'yolo', reason: null});
});

test('a rule that cannot be used stops the start, naming the file, the rule and why', async t => {
	const box = await workspaceWith(t, {global: {allow: ['shell']}, local: {deny: ['shell(rm -rf *'], allow: ['edit(src/)']}});
	await assert.rejects(box.start(), (error: Error) => {
		assert.ok(error instanceof UsageError);
		const local = join(box.workspace, '.i', 'settings.local.json');
		assert.ok(error.message.includes(`${local}: permissions.deny[0] "shell(rm -rf *": a pattern ends with ")"`), error.message);
		assert.ok(error.message.includes(`${local}: permissions.allow[0] "edit(src/)": it ends with "/"`), error.message);
		return true;
	});
});

test('in the chat screen a rule that cannot be used is a notice, and then no allow rule counts while deny rules do', async t => {
	const box = await workspaceWith(t, {global: {allow: ['shell'], deny: ['shell(rm *)', 'shel(ls)']}});
	const check = (await box.start({problems: 'notice'}))!;
	assert.equal(box.warnings.length, 1);
	assert.match(box.warnings[0]!, /no allow rule counts until they are fixed[\s\S]*permissions\.deny\[1\] "shel\(ls\)": unknown tool "shel"/);
	assert.equal(await check(shell('ls')), null);
	assert.equal((await check(shell('rm x')))?.decision, 'deny');
});

test('without rules nothing is checked; malformed JSON or a misspelt list is an error naming the file', async t => {
	const box = await workspaceWith(t, {global: {}});
	assert.equal(await box.start(), undefined);
	await writeFile(join(box.workspace, '.i', 'settings.local.json'), JSON.stringify({permissions: {alow: ['shell']}}));
	await assert.rejects(box.start(), /settings .*settings\.local\.json: .*alow/);
	await writeFile(join(box.workspace, '.i', 'settings.local.json'), JSON.stringify({permissions: {allow: 'shell'}}));
	await assert.rejects(box.start(), /settings .*settings\.local\.json: .*permissions\.allow/);
});
