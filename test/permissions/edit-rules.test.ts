import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {addPermissionRule, removePermissionRule} from '../../source/core/permissions/edit-rules.js';
import {localSettingsPath, projectSettingsPath} from '../../source/core/permissions/rule-files.js';
import {MAX_SETTINGS_ENTRIES} from '../../source/core/extensions/settings-file.js';
import {context, place} from './helpers.js';

test('adding a rule to a new local file creates it and adds it to .gitignore once, in a git repository', async t => {
	const {workspace, home} = await place(t);
	await mkdir(join(workspace, '.git'));
	const where = {...context(workspace, home), workspace};
	const local = localSettingsPath(workspace);
	assert.equal(await addPermissionRule(local, 'allow', 'shell(npm test*)', where), true);
	assert.deepEqual(JSON.parse(await readFile(local, 'utf8')), {permissions: {allow: ['shell(npm test*)']}});
	assert.equal(await readFile(join(workspace, '.gitignore'), 'utf8'), '.i/settings.local.json\n');
	assert.equal(await addPermissionRule(local, 'allow', 'shell(npm test*)', where), false, 'a rule already there is not added twice');
	assert.equal(await addPermissionRule(local, 'deny', 'shell(rm *)', where), true);
	assert.deepEqual(JSON.parse(await readFile(local, 'utf8')), {permissions: {allow: ['shell(npm test*)'], deny: ['shell(rm *)']}});
	assert.equal(await readFile(join(workspace, '.gitignore'), 'utf8'), '.i/settings.local.json\n');
	assert.equal(await removePermissionRule(local, 'allow', 'shell(npm test*)'), true);
	assert.equal(await removePermissionRule(local, 'allow', 'shell(npm test*)'), false);
	assert.deepEqual(JSON.parse(await readFile(local, 'utf8')), {permissions: {allow: [], deny: ['shell(rm *)']}});
});

test('.gitignore: a line already there is kept as it is; a last line without a newline gets one; no repository, no .gitignore', async t => {
	const {workspace, home} = await place(t);
	const where = {...context(workspace, home), workspace};
	await writeFile(join(workspace, '.gitignore'), 'node_modules\n/.i/settings.local.json');
	await addPermissionRule(localSettingsPath(workspace), 'allow', 'read', where);
	assert.equal(await readFile(join(workspace, '.gitignore'), 'utf8'), 'node_modules\n/.i/settings.local.json');
	const other = await place(t);
	const there = {...context(other.workspace, other.home), workspace: other.workspace};
	await writeFile(join(other.workspace, '.gitignore'), 'dist');
	await addPermissionRule(localSettingsPath(other.workspace), 'allow', 'read', there);
	assert.equal(await readFile(join(other.workspace, '.gitignore'), 'utf8'), 'dist\n.i/settings.local.json\n');
	const bare = await place(t);
	await addPermissionRule(localSettingsPath(bare.workspace), 'allow', 'read', {...context(bare.workspace, bare.home), workspace: bare.workspace});
	assert.equal(existsSync(join(bare.workspace, '.gitignore')), false);
});

test("the project's committed file keeps its other keys and indentation and is never added to .gitignore", async t => {
	const {workspace, home} = await place(t);
	await mkdir(join(workspace, '.i'));
	await mkdir(join(workspace, '.git'));
	const project = projectSettingsPath(workspace);
	await writeFile(project, '{\n  "skills": ["skills"]\n}\n');
	await addPermissionRule(project, 'deny', 'read(.env)', {...context(workspace, home), workspace});
	assert.equal(await readFile(project, 'utf8'), '{\n  "skills": [\n    "skills"\n  ],\n  "permissions": {\n    "deny": [\n      "read(.env)"\n    ]\n  }\n}\n');
	assert.equal(existsSync(join(workspace, '.gitignore')), false);
});

test('a rule that cannot be used is never written; a full list takes no more', async t => {
	const {workspace, home} = await place(t);
	const where = {...context(workspace, home), workspace};
	const local = localSettingsPath(workspace);
	await assert.rejects(addPermissionRule(local, 'allow', 'shel(ls)', where), /settings\.local\.json: permissions\.allow: "shel\(ls\)": unknown tool "shel"/);
	assert.equal(existsSync(local), false);
	await mkdir(join(workspace, '.i'));
	const full = Array.from({length: MAX_SETTINGS_ENTRIES}, (_, index) => `shell(echo ${index})`);
	await writeFile(local, JSON.stringify({permissions: {allow: full.slice(0, -1)}}));
	assert.equal(await addPermissionRule(local, 'allow', full.at(-1)!, where), true);
	await assert.rejects(addPermissionRule(local, 'allow', 'shell(ls)', where), new RegExp(`holds ${MAX_SETTINGS_ENTRIES} rules, the most it may`));
});
