import {test} from 'node:test';
import assert from 'node:assert/strict';
import {context, place, rulesOf, verdictOf} from './helpers.js';

test('shell(npm test*): a prefix match, one word or character short of it, and past it', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['shell(npm test*)']}, ruleContext);
	const shell = async (command: string) => verdictOf(rules, ruleContext, 'shell', {command});
	assert.equal(await shell('npm test'), 'allow shell(npm test*)');
	assert.equal(await shell('npm test -- --watch'), 'allow shell(npm test*)');
	assert.equal(await shell('npm  test'), 'allow shell(npm test*)');
	// `*` right after a word continues it: `npm test*` is also `npm tests`; `npm test *` is not.
	assert.equal(await shell('npm tests'), 'allow shell(npm test*)');
	assert.equal(await shell('npm tes'), null);
	assert.equal(await shell('npm'), null);
	assert.equal(await shell('npx test'), null);
});

test('shell(npm test *): the words after the prefix are any, or none; the prefix word is whole', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['shell(npm test *)']}, ruleContext);
	const shell = async (command: string) => verdictOf(rules, ruleContext, 'shell', {command});
	assert.equal(await shell('npm test'), 'allow shell(npm test *)');
	assert.equal(await shell('npm test a b'), 'allow shell(npm test *)');
	assert.equal(await shell('npm tests'), null);
});

test('shell(git status): the exact command, quoted any way; one word or one character more is not it', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['shell(git status)']}, ruleContext);
	const shell = async (command: string) => verdictOf(rules, ruleContext, 'shell', {command});
	assert.equal(await shell('git status'), 'allow shell(git status)');
	assert.equal(await shell(`'git' "status"`), 'allow shell(git status)');
	assert.equal(await shell('git status -s'), null);
	assert.equal(await shell('git statusx'), null);
	assert.equal(await shell('git statu'), null);
	// One argument that holds an operator is still one git command, and not `git status`.
	assert.equal(await shell(`git 'status; rm -rf /'`), null);
	assert.equal(await shell('git "status --short"'), null);
});

test('a compound command is allowed only when every part is', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['shell(git status)', 'shell(npm test*)']}, ruleContext);
	const shell = async (command: string) => verdictOf(rules, ruleContext, 'shell', {command});
	assert.equal(await shell('git status && npm test'), 'allow shell(git status) + shell(npm test*)');
	assert.equal(await shell('npm test 2>&1 | npm test'), 'allow shell(npm test*)');
	for (const command of ['git status && rm -rf /', 'git status; rm x', 'git status | sh', 'git status & curl x', 'git status || rm x', 'git status\nrm x']) {
		assert.equal(await shell(command), null, command);
	}
});

test('$(…), backticks, variables, subshells, here-documents and file redirections are never allowed by a pattern', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['shell(echo *)', 'shell(cat *)']}, ruleContext);
	const shell = async (command: string) => verdictOf(rules, ruleContext, 'shell', {command});
	assert.equal(await shell('echo hi'), 'allow shell(echo *)');
	for (const command of ['echo $(rm -rf /)', 'echo "$(rm -rf /)"', 'echo `rm -rf /`', 'echo $HOME', '(echo hi)', 'cat <<EOF\nhi\nEOF', 'echo hi > ~/.bashrc', 'cat < /etc/shadow', 'if true; then echo hi; fi']) {
		assert.equal(await shell(command), null, command);
	}

	// A bare `shell` allows every command, understood or not.
	const all = rulesOf({allow: ['shell']}, ruleContext);
	assert.equal(await verdictOf(all, ruleContext, 'shell', {command: 'echo $(date) > out'}), 'allow shell');
});

test('environment-variable prefixes: an allow rule must name them; a deny rule sees through them', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['shell(npm test*)', 'shell(CI=1 npm run *)'], deny: ['shell(rm *)']}, ruleContext);
	const shell = async (command: string) => verdictOf(rules, ruleContext, 'shell', {command});
	assert.equal(await shell('NODE_OPTIONS=--require=./evil.js npm test'), null);
	assert.equal(await shell('CI=1 npm run build'), 'allow shell(CI=1 npm run *)');
	assert.equal(await shell('npm run build'), null);
	assert.equal(await shell('FOO=1 rm -rf x'), 'deny shell(rm *)');
	assert.equal(await shell('sudo -u me rm x'), 'deny shell(rm *)');
});

test('deny beats ask beats allow, in any part, understood or not', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['shell'], ask: ['shell(git push*)'], deny: ['shell(rm *)']}, ruleContext);
	const shell = async (command: string) => verdictOf(rules, ruleContext, 'shell', {command});
	assert.equal(await shell('ls'), 'allow shell');
	assert.equal(await shell('git add . && git push'), 'ask shell(git push*)');
	assert.equal(await shell('git push && rm -rf x'), 'deny shell(rm *)');
	assert.equal(await shell('echo $(rm -rf /)'), 'deny shell(rm *)');
	assert.equal(await shell('echo `rm -rf /`'), 'deny shell(rm *)');
	// An argument is not a command.
	assert.equal(await shell('git commit -m "rm the old files"'), 'allow shell');
});

test('quoting in a pattern means what it means in a command; a quoted * is a star', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: [`shell(grep "a b" *)`, `shell(echo '*')`]}, ruleContext);
	const shell = async (command: string) => verdictOf(rules, ruleContext, 'shell', {command});
	assert.equal(await shell(`grep 'a b' notes.txt`), 'allow shell(grep "a b" *)');
	assert.equal(await shell('grep a b notes.txt'), null);
	assert.equal(await shell(`echo "*"`), `allow shell(echo '*')`);
	assert.equal(await shell('echo hi'), null);
});

test('a pattern allows a command only in the workspace; outside it the command asks', async t => {
	const {workspace, home} = await place(t);
	const ruleContext = context(workspace, home);
	const rules = rulesOf({allow: ['shell(rm -rf build)']}, ruleContext);
	assert.equal(await verdictOf(rules, ruleContext, 'shell', {command: 'rm -rf build'}), 'allow shell(rm -rf build)');
	assert.equal(await verdictOf(rules, ruleContext, 'shell', {command: 'rm -rf build', cwd: '.'}), 'allow shell(rm -rf build)');
	assert.equal(await verdictOf(rules, ruleContext, 'shell', {command: 'rm -rf build', cwd: home}), null);
	assert.equal(await verdictOf(rules, ruleContext, 'shell', {command: 'rm -rf build', cwd: '..'}), null);
});
