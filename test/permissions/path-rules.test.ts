import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdir, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {context, place, rulesOf, verdictOf} from './helpers.js';

test('edit(src/**): everything under src, hidden names too; not a neighbour with a longer name, not a way out with ..', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['edit(src/**)']}, ruleContext);
	const edit = async (path: string) => verdictOf(rules, ruleContext, 'edit', {path, old_text: 'a', new_text: 'b'});
	assert.equal(await edit('src/a.ts'), 'allow edit(src/**)');
	assert.equal(await edit('./src/deep/er/b.ts'), 'allow edit(src/**)');
	assert.equal(await edit('src/.env'), 'allow edit(src/**)');
	assert.equal(await edit(join(workspace, 'src', 'a.ts')), 'allow edit(src/**)');
	assert.equal(await edit('srcx/a.ts'), null);
	assert.equal(await edit('sr/a.ts'), null);
	assert.equal(await edit('src/../secret.txt'), null);
	assert.equal(await edit('src/../../workspace/src/a.ts'), 'allow edit(src/**)');
});

test('a symlink that leads out is judged where it leads: an allow needs both, a deny either', async t => {
	const {root, workspace, home} = await place(t);
	const outside = join(root, 'outside');
	await mkdir(outside);
	await writeFile(join(outside, 'f.txt'), 'x');
	await mkdir(join(workspace, 'src'));
	await symlink(outside, join(workspace, 'src', 'link'));
	const ruleContext = context(workspace, home);
	const allow = rulesOf({allow: ['edit(src/**)']}, ruleContext);
	assert.equal(await verdictOf(allow, ruleContext, 'edit', {path: 'src/link/f.txt'}), null);
	const deny = rulesOf({allow: ['read'], deny: [`read(${outside}/**)`]}, ruleContext);
	assert.equal(await verdictOf(deny, ruleContext, 'read', {files: [{path: 'src/link/f.txt'}]}), `deny read(${outside}/**)`);
});

test('read(~/.ssh/**): under the home folder, however the path is written; the folder itself too', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({deny: ['read(~/.ssh/**)']}, ruleContext);
	const read = async (path: string) => verdictOf(rules, ruleContext, 'read', {files: [{path}]});
	assert.equal(await read(join(home, '.ssh', 'id_ed25519')), 'deny read(~/.ssh/**)');
	assert.equal(await read(join(home, '.ssh', 'keys', '.hidden')), 'deny read(~/.ssh/**)');
	assert.equal(await read(join(home, 'x', '..', '.ssh', 'id_rsa')), 'deny read(~/.ssh/**)');
	assert.equal(await read(join(home, '.sshx', 'id_rsa')), null);
	assert.equal(await read(join(home, '.ss')), null);
	// Every tool that reads files: a search or glob of the folder, an image in it.
	assert.equal(await verdictOf(rules, ruleContext, 'search', {pattern: 'BEGIN', path: join(home, '.ssh')}), 'deny read(~/.ssh/**)');
	assert.equal(await verdictOf(rules, ruleContext, 'glob', {pattern: '.ssh/*', path: home}), 'deny read(~/.ssh/**)');
	assert.equal(await verdictOf(rules, ruleContext, 'view_image', {paths: ['a.png', join(home, '.ssh', 'x.png')]}), 'deny read(~/.ssh/**)');
	assert.equal(await verdictOf(rules, ruleContext, 'write', {files: [{path: join(home, '.ssh', 'id_rsa'), content: ''}]}), null);
});

test('.. in the literal part of a pattern is resolved; an absolute pattern is absolute', async t => {
	const {root, workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['edit(../shared/**)', `write(${root}/out/*.txt)`]}, ruleContext);
	assert.equal(await verdictOf(rules, ruleContext, 'edit', {path: join(root, 'shared', 'a.ts')}), 'allow edit(../shared/**)');
	assert.equal(await verdictOf(rules, ruleContext, 'edit', {path: '../shared/a.ts'}), 'allow edit(../shared/**)');
	assert.equal(await verdictOf(rules, ruleContext, 'edit', {path: 'shared/a.ts'}), null);
	assert.equal(await verdictOf(rules, ruleContext, 'write', {files: [{path: join(root, 'out', 'a.txt'), content: ''}]}), `allow write(${root}/out/*.txt)`);
	assert.equal(await verdictOf(rules, ruleContext, 'write', {files: [{path: join(root, 'out', 'a', 'b.txt'), content: ''}]}), null);
});

test('edit covers write, write only write; read covers read, view_image, glob and search', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({deny: ['edit(.env)'], allow: ['write(out/**)']}, ruleContext);
	assert.equal(await verdictOf(rules, ruleContext, 'write', {files: [{path: '.env', content: ''}]}), 'deny edit(.env)');
	assert.equal(await verdictOf(rules, ruleContext, 'edit', {path: '.env'}), 'deny edit(.env)');
	assert.equal(await verdictOf(rules, ruleContext, 'edit', {path: '.envrc'}), null);
	assert.equal(await verdictOf(rules, ruleContext, 'write', {files: [{path: 'out/a', content: ''}]}), 'allow write(out/**)');
	assert.equal(await verdictOf(rules, ruleContext, 'edit', {path: 'out/a'}), null);
});

test('a call with several paths is allowed only when every path is, and denied when any is', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['read(docs/**)', 'read(notes/**)'], deny: ['read(secret/**)']}, ruleContext);
	const read = async (...paths: string[]) => verdictOf(rules, ruleContext, 'read', {files: paths.map(path => ({path}))});
	assert.equal(await read('docs/a.md', 'notes/b.md'), 'allow read(docs/**) + read(notes/**)');
	assert.equal(await read('docs/a.md', 'other/b.md'), null);
	assert.equal(await read('docs/a.md', 'secret/b.md'), 'deny read(secret/**)');
});

test('tool names: a bare name is every call of it, MCP names with *, other tools untouched', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['mcp__github__*', 'todo_add'], deny: ['mcp__github__delete_repo'], ask: ['docs']}, ruleContext);
	assert.equal(await verdictOf(rules, ruleContext, 'mcp__github__create_issue', {}), 'allow mcp__github__*');
	assert.equal(await verdictOf(rules, ruleContext, 'mcp__github__delete_repo', {}), 'deny mcp__github__delete_repo');
	assert.equal(await verdictOf(rules, ruleContext, 'mcp__gitlab__create_issue', {}), null);
	assert.equal(await verdictOf(rules, ruleContext, 'todo_add', {text: 'x'}), 'allow todo_add');
	assert.equal(await verdictOf(rules, ruleContext, 'docs', {}), 'ask docs');
	assert.equal(await verdictOf(rules, ruleContext, 'shell', {command: 'ls'}), null);
});
