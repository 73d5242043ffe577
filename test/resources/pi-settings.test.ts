// pi's .pi/settings.json (issue 45 point 12): only `skills` and `prompts`, as
// folders relative to .pi/, are read; every other key is left alone, and a
// broken file is a warning, never a failed start.
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {homedir, tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {isPlainFolder, MAX_PI_SETTINGS_ENTRIES, readPiSettings} from '../../source/core/extensions/pi-settings.js';
import {readRunSettings} from '../../source/core/extensions/settings-file.js';

function workspaceWith(settings: unknown): string {
	const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'i-pi-settings-')));
	mkdirSync(join(workspace, '.pi'));
	writeFileSync(join(workspace, '.pi', 'settings.json'), typeof settings === 'string' ? settings : JSON.stringify(settings));
	return workspace;
}

test('skills and prompts are folders against .pi/ (~ is the home folder); globs, filters and single .md files are left out; other keys are not read', async () => {
	const workspace = workspaceWith({
		skills: ['../.claude/skills', '/abs/skills', '~/pi-skills', 'skills/*', '!skills/old', '+exact', '-gone', 'one/SKILL.md'],
		prompts: ['prompts-shared'],
		// pi's own: code for its API, its model and its packages' object form, none of which i's settings would read the same.
		extensions: ['./ext.ts'],
		packages: [{source: 'pi-skills', skills: ['brave-search']}],
		defaultModel: 'claude-sonnet-4',
		permissions: "not i's shape",
	});
	const read = await readPiSettings(workspace);
	assert.deepEqual(read, {
		path: join(workspace, '.pi', 'settings.json'),
		skillDirs: [join(workspace, '.claude/skills'), '/abs/skills', join(homedir(), 'pi-skills')],
		promptDirs: [join(workspace, '.pi', 'prompts-shared')],
		problems: [],
	});
	assert.deepEqual(['dir', 'a.md', 'a?', '{a,b}', ' '].map(isPlainFolder), [true, false, false, false, false]);
	// Beside i's own settings it is its own member: i's readers never see pi's keys.
	const run = await readRunSettings(workspace, join(workspace, 'no-config'));
	assert.equal(run.project, undefined);
	assert.deepEqual(run.pi?.skillDirs, read?.skillDirs);
});

test('no .pi/settings.json: nothing; a broken one, or a field of another shape, is a warning and the rest is read', async () => {
	const bare = realpathSync(mkdtempSync(join(tmpdir(), 'i-pi-none-')));
	assert.equal(await readPiSettings(bare), undefined);
	const broken = await readPiSettings(workspaceWith('{"skills": ['));
	assert.deepEqual([broken?.skillDirs, broken?.promptDirs], [[], []]);
	assert.match(broken!.problems[0]!, /pi's settings .*\.pi\/settings\.json was not read: .*JSON/);
	assert.match((await readPiSettings(workspaceWith('[]')))!.problems[0]!, /not a JSON object/);
	const mixed = await readPiSettings(workspaceWith({skills: 'one-folder', prompts: ['p']}));
	assert.deepEqual(mixed?.promptDirs, [join(mixed!.path, '..', 'p')]);
	assert.deepEqual(mixed?.skillDirs, []);
	assert.match(mixed!.problems[0]!, /"skills" is not a list of paths, so it is not read/);
});

test(`at most MAX_PI_SETTINGS_ENTRIES (${MAX_PI_SETTINGS_ENTRIES}) entries a list: at the limit all are read, one past it the list is a warning`, async () => {
	const list = (length: number) => Array.from({length}, (_, index) => `d${index}`);
	const at = await readPiSettings(workspaceWith({skills: list(MAX_PI_SETTINGS_ENTRIES)}));
	assert.equal(at?.skillDirs.length, MAX_PI_SETTINGS_ENTRIES);
	assert.deepEqual(at?.problems, []);
	const past = await readPiSettings(workspaceWith({skills: list(MAX_PI_SETTINGS_ENTRIES + 1)}));
	assert.deepEqual(past?.skillDirs, []);
	assert.match(past!.problems[0]!, new RegExp(`has ${MAX_PI_SETTINGS_ENTRIES + 1} entries, more than ${MAX_PI_SETTINGS_ENTRIES}`));
});
