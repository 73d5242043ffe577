import {test} from 'node:test';
import assert from 'node:assert/strict';
import {formatRules, parsePermissionsArgs} from '../../source/tui/commands/permissions-slash.js';

test('/permissions reads a verb, a rule that may hold spaces, and one file flag before or after it', () => {
	assert.deepEqual(parsePermissionsArgs(''), {kind: 'list'});
	assert.deepEqual(parsePermissionsArgs('  '), {kind: 'list'});
	assert.deepEqual(parsePermissionsArgs('allow shell(npm test *)'), {kind: 'allow', rule: 'shell(npm test *)', where: 'local'});
	assert.deepEqual(parsePermissionsArgs('deny --global shell(rm -rf *)'), {kind: 'deny', rule: 'shell(rm -rf *)', where: 'global'});
	assert.deepEqual(parsePermissionsArgs('ask shell(git push*) --project'), {kind: 'ask', rule: 'shell(git push*)', where: 'project'});
	assert.deepEqual(parsePermissionsArgs('remove edit(src/**) --local'), {kind: 'remove', rule: 'edit(src/**)', where: 'local'});
	for (const wrong of ['allow', 'allow --project', 'grant shell(ls)', 'allow --project shell(ls) --global', 'list']) assert.equal(parsePermissionsArgs(wrong), null, wrong);
});

test('the listing puts deny before ask before allow, names each file, and says why a rule does not count', () => {
	const text = formatRules(
		[
			{text: 'shell(ls)', list: 'allow', file: '/w/.i/settings.local.json', source: 'local', counts: false, why: 'the workspace is not trusted'},
			{text: 'shell(rm *)', list: 'deny', file: '/config/settings.json', source: 'global', counts: true, why: null},
			{text: 'shell(git push*)', list: 'ask', file: '/w/.i/settings.json', source: 'project', counts: true, why: null},
		],
		[],
		'/w',
	);
	assert.equal(
		text,
		[
			'Permission rules (deny beats ask beats allow):',
			'  deny  shell(rm *)       /config/settings.json (global)',
			'  ask   shell(git push*)  .i/settings.json (project)',
			'  allow shell(ls)         .i/settings.local.json (local) — does not count: the workspace is not trusted',
		].join('\n'),
	);
	assert.match(formatRules([], [], '/w'), /^No permission rules\./);
	assert.match(formatRules([], ['/w/.i/settings.json: permissions.allow[0] "shel(ls)": unknown tool'], '/w'), /Rules that cannot be used:\n {2}.*shel\(ls\)/);
});
