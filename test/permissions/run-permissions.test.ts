import {test, type TestContext} from 'node:test';
import assert from 'node:assert/strict';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {ApprovalRequest} from '../../source/core/agent/approval-gate.js';
import {UsageError} from '../../source/core/errors.js';
import {readRunSettings} from '../../source/core/extensions/settings-file.js';
import {RunPermissions} from '../../source/core/session/run-permissions.js';
import {place} from './helpers.js';

async function start(t: TestContext, project?: Record<string, string[]>, trustProject?: boolean) {
	const {root, workspace} = await place(t);
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	await Promise.all([mkdir(dirs.config_dir), mkdir(join(workspace, '.i'))]);
	if (project) await writeFile(join(workspace, '.i', 'settings.json'), JSON.stringify({permissions: project}));
	const warnings: string[] = [];
	const permissions = await RunPermissions.start({
		workspace,
		dirs,
		settings: await readRunSettings(workspace, dirs.config_dir),
		events: null,
		toolNames: [],
		trustProject,
		problems: 'notice',
		warn: message => warnings.push(message),
	});
	return {workspace, dirs, warnings, permissions};
}

const shell = (command: string): ApprovalRequest => ({id: 'c1', name: 'shell', arguments: {command}, ask: {title: command, detail: command}, external: false, owner: 'native'});

test('a rule the person adds counts from the next call, even in a workspace that is not trusted; removing it stops it', async t => {
	const box = await start(t);
	assert.equal(await box.permissions.check(shell('echo hi')), null);
	const added = await box.permissions.add('allow', 'shell(echo *)', 'local');
	assert.deepEqual({file: added.file, changed: added.changed}, {file: join(box.workspace, '.i', 'settings.local.json'), changed: true});
	assert.deepEqual(added.warnings, ['the workspace is not trusted: shell(echo *) counts for this run, and in later runs only once it is trusted (--trust-project, or yes when asked)']);
	assert.equal((await box.permissions.check(shell('echo hi')))?.decision, 'allow');
	assert.deepEqual(
		box.permissions.rules.map(rule => [rule.list, rule.text, rule.source, rule.counts]),
		[['allow', 'shell(echo *)', 'local', true]],
	);
	assert.equal((await box.permissions.add('allow', 'shell(echo *)', 'local')).changed, false, 'a rule there already');
	const removed = await box.permissions.remove('shell(echo *)', 'local');
	assert.deepEqual([removed.changed, removed.lists], [true, ['allow']]);
	assert.equal(await box.permissions.check(shell('echo hi')), null);
	assert.equal((await box.permissions.remove('shell(echo *)', 'local')).changed, false);
});

test("a project's allow rule written by someone else still does not count untrusted; a file changed on disk is read again on reload", async t => {
	const box = await start(t, {allow: ['shell(ls)']});
	assert.equal(box.permissions.rules[0]?.counts, false);
	assert.equal(await box.permissions.check(shell('ls')), null);
	await writeFile(join(box.workspace, '.i', 'settings.json'), JSON.stringify({permissions: {allow: ['shell(ls)'], deny: ['shell(rm *)']}}));
	const {warnings, changed} = await box.permissions.reload();
	assert.ok(changed);
	assert.match(warnings.join('\n'), /is not trusted, so the allow rules of .*settings\.json do not count/);
	assert.equal((await box.permissions.reload()).changed, false, 'read again unchanged');
	assert.equal((await box.permissions.check(shell('rm x')))?.decision, 'deny');
	await box.permissions.add('deny', 'shell(git push*)', 'global');
	assert.match(await readFile(join(box.dirs.config_dir, 'settings.json'), 'utf8'), /git push\*/);
	assert.equal((await box.permissions.check(shell('git push')))?.decision, 'deny');
});

test('in a trusted workspace a project allow rule added brings no warning; a global one never does', async t => {
	const box = await start(t, undefined, true);
	assert.deepEqual((await box.permissions.add('allow', 'shell(ls)', 'project')).warnings, []);
	const untrusted = await start(t);
	assert.deepEqual((await untrusted.permissions.add('allow', 'shell(ls)', 'global')).warnings, []);
	assert.equal((await untrusted.permissions.check(shell('ls')))?.decision, 'allow');
});

test("a malformed rule is refused with the parser's reason and nothing is written", async t => {
	const box = await start(t);
	await assert.rejects(box.permissions.add('allow', 'shell(', 'local'), (error: Error) => error instanceof UsageError && /a pattern ends with "\)"/.test(error.message));
	await assert.rejects(readFile(join(box.workspace, '.i', 'settings.local.json'), 'utf8'));
});

test('ruleFor gives the narrowest rule for a call, and none where an ask rule would still ask', async t => {
	const box = await start(t);
	assert.equal(await box.permissions.ruleFor(shell('npm test -- --watch')), 'shell(npm test *)');
	assert.equal(await box.permissions.ruleFor(shell('a && b')), null);
	await box.permissions.add('ask', 'shell(git push*)', 'local');
	assert.equal(await box.permissions.ruleFor(shell('git push origin')), null, 'an ask rule would still ask');
	assert.equal(await box.permissions.ruleFor(shell('git pull origin')), 'shell(git pull *)');
});
