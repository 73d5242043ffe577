import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdir, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {narrowestRule} from '../../source/core/permissions/narrowest-rule.js';
import {context, place} from './helpers.js';

test('shell: the first word, the second when it names a subcommand, and " *" when more words follow', async t => {
	const {workspace, home} = await place(t);
	const rule = async (command: string, cwd?: string) => narrowestRule('shell', cwd === undefined ? {command} : {command, cwd}, context(workspace, home));
	assert.equal(await rule('npm test'), 'shell(npm test)');
	assert.equal(await rule('npm test -- --watch'), 'shell(npm test *)');
	assert.equal(await rule('git status'), 'shell(git status)');
	assert.equal(await rule('ls'), 'shell(ls)');
	assert.equal(await rule('ls -la'), 'shell(ls *)');
	assert.equal(await rule('cat src/a.ts'), 'shell(cat *)');
	assert.equal(await rule('\'git\' "status" -s'), 'shell(git status *)');
	assert.equal(await rule('echo hi'), 'shell(echo hi)');
});

test('shell: no rule for a compound, not understood, wrapped or outside command line', async t => {
	const {workspace, home} = await place(t);
	const rule = async (command: string, cwd?: string) => narrowestRule('shell', cwd === undefined ? {command} : {command, cwd}, context(workspace, home));
	for (const command of ['npm test && rm -rf x', 'ls | wc -l', 'echo $(whoami)', 'if true; then ls; fi', 'FOO=1 npm test', 'sudo npm test', 'env ls', "'my tool' run", '', 'echo "unclosed']) {
		assert.equal(await rule(command), null, command);
	}

	assert.equal(await rule('ls', '/'), null, 'a command run outside the workspace is never allowed by a pattern');
	assert.equal(await narrowestRule('shell', {}, context(workspace, home)), null);
});

test("edit and write: the file's folder with /**, the file itself at the top level, nothing outside or across folders", async t => {
	const {root, workspace, home} = await place(t);
	await mkdir(join(workspace, 'src', 'deep'), {recursive: true});
	const rule = async (name: string, args: Record<string, unknown>) => narrowestRule(name, args, context(workspace, home));
	assert.equal(await rule('edit', {path: 'src/deep/a.ts'}), 'edit(src/deep/**)');
	assert.equal(await rule('edit', {path: 'README.md'}), 'edit(README.md)');
	assert.equal(await rule('write', {files: [{path: 'src/a.ts'}, {path: 'src/b.ts'}]}), 'write(src/**)');
	assert.equal(await rule('write', {files: [{path: 'new/dir/file.txt'}]}), 'write(new/dir/**)', 'a folder that does not exist yet');
	assert.equal(await rule('write', {files: [{path: 'src/a.ts'}, {path: 'lib/b.ts'}]}), null);
	assert.equal(await rule('write', {files: [{path: 'a.txt'}, {path: 'b.txt'}]}), null);
	assert.equal(await rule('write', {files: []}), null);
	assert.equal(await rule('edit', {path: '../outside.txt'}), null);
	assert.equal(await rule('edit', {path: join(root, 'home', 'x.txt')}), null);
	assert.equal(await rule('edit', {path: 'a[1]/x.ts'}), null, 'a folder name a glob would read otherwise');
	await writeFile(join(root, 'secret.txt'), '');
	await symlink(root, join(workspace, 'out'));
	assert.equal(await rule('edit', {path: 'out/secret.txt'}), null, 'a link that leads out of the workspace');
});

test("other tools: the tool's name; the reading tools and names a rule cannot hold: none", async t => {
	const {workspace, home} = await place(t);
	const rule = async (name: string) => narrowestRule(name, {}, context(workspace, home));
	assert.equal(await rule('mcp__github__create_issue'), 'mcp__github__create_issue');
	assert.equal(await rule('todo_add'), 'todo_add');
	assert.equal(await rule('delegate_task'), 'delegate_task');
	assert.equal(await rule('read'), null);
	assert.equal(await rule('search'), null);
	assert.equal(await rule('mcp__odd.server__tool'), null);
});
