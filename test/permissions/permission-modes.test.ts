import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createApprovalGate, type ApprovalRequest, type AskPerson, type PermissionCheck} from '../../source/core/agent/approval-gate.js';
import {PermissionMode, permissionModeNames, readPermissionMode, type PermissionModeName} from '../../source/core/agent/permission-mode.js';
import {createEditTool} from '../../source/core/tools/edit.js';
import {createWriteTool} from '../../source/core/tools/write.js';
import type {ToolContext} from '../../source/core/tools/types.js';
import {UsageError} from '../../source/core/errors.js';

function person(): AskPerson & {asked: string[]} {
	const asked: string[] = [];
	return Object.assign(
		async (request: Parameters<AskPerson>[0]) => {
			asked.push(request.ask.title);
			return {decision: 'deny' as const, by: 'user' as const, reason: 'no'};
		},
		{asked},
	);
}

const call = (name: string, ask: ApprovalRequest['ask'], owner = 'native'): ApprovalRequest => ({id: 'c1', name, arguments: {}, owner, ask, external: false});

/** Plans a real edit and write in a workspace, so the ask carries what the tools decide about inside and outside. */
async function plannedAsks(t: {after(fn: () => void): void}) {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-modes-')));
	t.after(() => rmSync(root, {recursive: true, force: true}));
	const workspace = join(root, 'ws');
	const outside = join(root, 'elsewhere.txt');
	mkdirSync(workspace);
	writeFileSync(join(workspace, 'a.txt'), 'one\n');
	writeFileSync(outside, 'one\n');
	const context: ToolContext = {workspace, signal: new AbortController().signal, outputLimit: 10_000};
	const edit = createEditTool();
	const write = createWriteTool();
	const editArgs = (path: string) => ({path, old_text: 'one', new_text: 'two'});
	return {
		editInside: call('edit', (await edit.plan(editArgs('a.txt'), context)).ask),
		editOutside: call('edit', (await edit.plan(editArgs(outside), context)).ask),
		writeInside: call('write', (await write.plan({files: [{path: 'new/b.txt', content: 'x'}]}, context)).ask),
		writeBoth: call(
			'write',
			(
				await write.plan(
					{
						files: [
							{path: 'c.txt', content: 'x'},
							{path: outside, content: 'x'},
						],
					},
					context,
				)
			).ask,
		),
	};
}

test('accept edits: edit and write inside the workspace run without asking; one file outside still asks', async t => {
	const asks = await plannedAsks(t);
	const someone = person();
	const gate = createApprovalGate({mode: {current: 'acceptEdits'}, askPerson: someone});
	assert.deepEqual(await gate(asks.editInside), {decision: 'allow', by: 'mode', reason: 'allowed in accept edits mode'});
	assert.deepEqual(await gate(asks.writeInside), {decision: 'allow', by: 'mode', reason: 'allowed in accept edits mode'});
	assert.equal((await gate(asks.editOutside)).by, 'user');
	assert.equal((await gate(asks.writeBoth)).by, 'user');
	assert.equal((await gate(call('shell', {title: 'Run: ls', detail: 'ls'}))).by, 'user');
	assert.equal(someone.asked.length, 3);
	// In the default mode the same workspace edit asks.
	assert.equal((await createApprovalGate({mode: {current: 'default'}, askPerson: someone})(asks.editInside)).by, 'user');
});

test('accept edits: an extension tool named edit, even claiming the workspace, still asks; so does an ask rule', async () => {
	const someone = person();
	const gate = createApprovalGate({mode: {current: 'acceptEdits'}, askPerson: someone});
	const claimed = {title: 'Edit a.txt', detail: 'd', insideWorkspace: true};
	assert.equal((await gate(call('edit', claimed, 'extension x (/x.js)'))).by, 'user');
	const askRule: PermissionCheck = async () => ({decision: 'ask', reason: 'the permission rule "edit" asks first'});
	assert.equal((await createApprovalGate({mode: {current: 'acceptEdits'}, askPerson: someone, rules: askRule})(call('edit', claimed))).by, 'user');
});

test("plan mode refuses write, edit, shell, delegate_task and other owners' tools with a reason for the model, and lets the read-only tools run", async () => {
	const someone = person();
	const allowAll: PermissionCheck = async () => ({decision: 'allow', reason: 'the permission rule "*" allows it'});
	const gate = createApprovalGate({mode: {current: 'plan'}, askPerson: someone, rules: allowAll});
	for (const name of ['write', 'edit', 'shell', 'delegate_task']) {
		const outcome = await gate(call(name, {title: name, detail: ''}));
		assert.equal(outcome.decision, 'deny', name);
		assert.equal(outcome.by, 'mode');
		assert.match(outcome.reason!, new RegExp(`^plan mode: only read-only tools run .*; ${name} was not run\\. Present your plan instead$`));
	}

	assert.equal((await gate(call('read', null, 'extension x (/x.js)'))).decision, 'deny');
	for (const name of ['read', 'glob', 'search', 'view_image', 'docs']) assert.deepEqual(await gate(call(name, null)), {decision: 'allow', by: 'rule', reason: 'the permission rule "*" allows it'});
	// A read outside the workspace still asks, as in the default mode.
	assert.equal((await createApprovalGate({mode: {current: 'plan'}, askPerson: someone})(call('read', {title: 'Read outside the workspace: /etc/hosts', detail: ''}))).by, 'user');
	assert.equal(someone.asked.length, 1);
});

test("a deny rule holds in every mode, bypass included, and comes before plan mode's refusal", async () => {
	const denyShell: PermissionCheck = async request => (request.name === 'shell' ? {decision: 'deny', reason: 'the permission rule "shell(rm *)" denies it'} : null);
	for (const mode of permissionModeNames) {
		const gate = createApprovalGate({mode: {current: mode}, askPerson: person(), rules: denyShell});
		assert.deepEqual(await gate(call('shell', {title: 'Run: rm x', detail: ''})), {decision: 'deny', by: 'rule', reason: 'the permission rule "shell(rm *)" denies it'}, mode);
	}

	const bypass = createApprovalGate({mode: {current: 'bypassPermissions'}, askPerson: person(), rules: denyShell});
	assert.deepEqual(await bypass(call('write', {title: 'Write', detail: ''})), {decision: 'allow', by: 'yolo', reason: null});
});

test('the gate reads the mode at each call, not a copy', async () => {
	const mode = new PermissionMode('default');
	const gate = createApprovalGate({mode, askPerson: person()});
	const write = call('write', {title: 'Write a', detail: ''});
	assert.equal((await gate(write)).by, 'user');
	mode.set('plan');
	assert.equal((await gate(write)).by, 'mode');
});

test("Shift+Tab's order: default, accept edits, plan, back to default; bypass only when the run started with it", () => {
	const mode = new PermissionMode();
	const seen: PermissionModeName[] = [mode.current];
	for (let index = 0; index < 3; index++) seen.push(mode.cycle());
	assert.deepEqual(seen, ['default', 'acceptEdits', 'plan', 'default']);
	assert.throws(() => mode.set('bypassPermissions'), /--yolo or --permission-mode bypassPermissions/);
	const bypass = new PermissionMode('bypassPermissions');
	assert.deepEqual([bypass.cycle(), bypass.cycle(), bypass.cycle(), bypass.cycle()], ['default', 'acceptEdits', 'plan', 'bypassPermissions']);
});

test('--permission-mode: each name, --yolo as bypass, an unknown name or a clash with --yolo is a usage error', () => {
	for (const name of permissionModeNames) assert.equal(readPermissionMode(name, false), name);
	assert.equal(readPermissionMode(undefined, false), 'default');
	assert.equal(readPermissionMode(undefined, true), 'bypassPermissions');
	assert.equal(readPermissionMode('bypassPermissions', true), 'bypassPermissions');
	assert.throws(
		() => readPermissionMode('yolo', false),
		(error: Error) => error instanceof UsageError && error.message === '--permission-mode must be one of default, acceptEdits, plan, bypassPermissions (got "yolo")',
	);
	assert.throws(() => readPermissionMode('plan', true), UsageError);
});
