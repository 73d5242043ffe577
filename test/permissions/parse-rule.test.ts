import {test} from 'node:test';
import assert from 'node:assert/strict';
import {compileRules} from '../../source/core/permissions/load-permissions.js';
import {MAX_RULE_CHARS, parseRule, RuleError} from '../../source/core/permissions/parse-rule.js';
import {context} from './helpers.js';

const ruleContext = context('/work/space', '/home/me');
const why = (text: string) => {
	try {
		parseRule(text, 'allow', '/w/.i/settings.json', ruleContext);
	} catch (error) {
		assert.ok(error instanceof RuleError, String(error));
		return error.message;
	}

	return 'no error';
};

test('a malformed rule, an unknown tool or a pattern that cannot match says why', () => {
	assert.match(why('shell(npm test'), /ends with "\)"/);
	assert.match(why('(npm test)'), /names no tool/);
	assert.match(why('she ll'), /not a tool name/);
	assert.match(why('shel(ls)'), /unknown tool "shel" \(did you mean shell\?\)/);
	assert.match(why('Read'), /unknown tool "Read" \(did you mean read\?\)/);
	assert.match(why('glob(src/**)'), /glob takes no pattern; only shell, read, edit and write do/);
	assert.match(why('mcp__github__*(x)'), /takes no pattern/);
	assert.match(why('shell()'), /pattern is empty/);
	assert.match(why('shell(  )'), /pattern is empty/);
	assert.match(why('shell(npm test && rm *)'), /names 2 commands/);
	assert.match(why('shell(echo $(date))'), /holds `\$`/);
	assert.match(why('shell(cat > out)'), /redirection/);
	assert.match(why('edit(src/)'), /ends with "\/"/);
	assert.match(why('edit(src/**/../secret)'), /after a wildcard/);
	assert.match(why('read(~bob/x)'), /only "~" and "~\/"/);
	assert.match(why('read(!src/**)'), /cannot be negated/);
	assert.match(why('foo_*'), /"foo_\*" matches no tool/);
	assert.match(why('x'.repeat(MAX_RULE_CHARS + 1)), new RegExp(`at most ${MAX_RULE_CHARS} characters`));
});

test('good rules: native and extension tools, MCP names with or without *, any tool glob that matches one, a rule at the length limit', () => {
	for (const text of [
		'shell',
		'shell(npm test*)',
		'read(~/.ssh/**)',
		'read(~)',
		'edit(src/**)',
		'write(/tmp/x)',
		'todo_add',
		'todo_*',
		'mcp__github__*',
		'mcp__github__create_issue',
		'*',
		'view_image',
		`shell(${'x'.repeat(MAX_RULE_CHARS - 7)})`,
	]) {
		assert.equal(why(text), 'no error', text);
	}
});

test('every unusable rule of every file is named with its file, its list and place, and why', () => {
	const {rules, problems} = compileRules(
		[
			{source: 'global', path: '/c/settings.json', lists: {allow: ['shell', 'sehll(ls)'], ask: [], deny: []}},
			{source: 'project', path: '/w/.i/settings.json', lists: {allow: [], ask: [], deny: ['read(src/)']}},
		],
		ruleContext,
	);
	assert.deepEqual(
		rules.map(rule => rule.text),
		['shell'],
	);
	assert.deepEqual(problems, [
		'/c/settings.json: permissions.allow[1] "sehll(ls)": unknown tool "sehll" (did you mean shell?); tools are read, write, edit, shell, glob, search, view_image, docs, delegate_task, todo_add and MCP tools mcp__SERVER__TOOL',
		'/w/.i/settings.json: permissions.deny[0] "read(src/)": it ends with "/", and a path pattern matches files: write DIR/** for everything under a folder',
	]);
});
