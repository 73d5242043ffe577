import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {readRunSettings} from '../../source/core/extensions/settings-file.js';
import {RunPermissions} from '../../source/core/session/run-permissions.js';
import {changeRules, formatRules, parsePermissionsArgs} from '../../source/tui/commands/permissions-slash.js';

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

test('/permissions remove takes a rule from the file chosen, and names the file it is in when that is another', async t => {
	const root = await realpath(await mkdtemp(join(tmpdir(), 'i-permissions-slash-')));
	t.after(async () => rm(root, {recursive: true, force: true}));
	const workspace = join(root, 'workspace');
	const dirs = {config_dir: join(root, 'config'), data_dir: join(root, 'data'), cache_dir: join(root, 'cache'), runtime_dir: join(root, 'runtime')};
	await mkdir(join(workspace, '.i'), {recursive: true});
	await mkdir(dirs.config_dir);
	await writeFile(join(workspace, '.i', 'settings.json'), JSON.stringify({permissions: {deny: ['shell(rm *)']}}));
	const settings = await readRunSettings(workspace, dirs.config_dir);
	const permissions = await RunPermissions.start({workspace, dirs, settings, events: null, toolNames: [], trustProject: undefined, problems: 'notice', warn() {}});
	const change = async (args: string) => changeRules(permissions, parsePermissionsArgs(args) as Parameters<typeof changeRules>[1]);
	assert.equal(await change('remove shell(rm *)'), 'shell(rm *) is not in .i/settings.local.json; it is in .i/settings.json (project): add --project or --global to remove it there.');
	assert.equal(await change('remove shell(rm *) --project'), 'Removed shell(rm *) from deny in .i/settings.json.');
	assert.equal(permissions.rules.length, 0);
	assert.equal(await change('remove shell(rm *) --project'), 'shell(rm *) is not in .i/settings.json.');
	assert.equal(await change('deny shell(rm *)'), 'Added shell(rm *) to deny in .i/settings.local.json; it counts from the next tool call.');
	assert.equal(await change('deny shell(rm *)'), 'shell(rm *) is already in deny in .i/settings.local.json.');
});
