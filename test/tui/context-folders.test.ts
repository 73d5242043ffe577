// /context's list of the skill and prompt folders found (issue 45 point 12):
// those that exist, first first with where they were named; missing ones
// only counted; a kind no module reads left out.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {formatFoundFolders} from '../../source/tui/commands/context-folders.js';

test('the folders that exist are listed with their origin; the missing ones are counted; a kind no module reads is left out', async () => {
	const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'i-context-folders-')));
	mkdirSync(join(workspace, '.claude', 'skills'), {recursive: true});
	mkdirSync(join(workspace, '.pi', 'prompts'), {recursive: true});
	const at = (path: string, origin = 'the workspace') => ({path: join(workspace, path), origin});
	const text = await formatFoundFolders({
		skills: [at('.agents/skills'), at('.i/skills'), at('.claude/skills'), at('.pi/skills')],
		prompts: [at('.i/prompts'), at('.pi/prompts')],
	});
	assert.equal(
		text,
		[
			'Skill folders found, first first; 3 more searched do not exist:',
			`  ${join(workspace, '.claude/skills')}  (the workspace)`,
			'Prompt template folders found, first first; 1 more searched does not exist:',
			`  ${join(workspace, '.pi/prompts')}  (the workspace)`,
		].join('\n'),
	);
	assert.equal(await formatFoundFolders({skills: [at('.i/skills')], prompts: null}), 'Skill folders: none found (1 searched)');
	assert.equal(await formatFoundFolders({skills: null, prompts: null}), '');
});
