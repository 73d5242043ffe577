import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {test} from 'node:test';
import {workspaceEntries} from '../../source/core/mentions/workspace-entries.js';
import {tempDir} from '../tools/helpers.js';

async function files(root: string, names: string[]): Promise<void> {
	for (const name of names) {
		await mkdir(dirname(join(root, name)), {recursive: true});
		await writeFile(join(root, name), '');
	}
}

const listed = async (root: string) => (await workspaceEntries(root, new AbortController().signal)).entries.map(entry => (entry.directory ? `${entry.path}/` : entry.path));

test('the picker lists folders and files, without what .gitignore ignores', async t => {
	const dir = await tempDir(t);
	await files(dir, ['a.txt', 'secret.env', 'logs/x.log', 'src/keep.ts', 'src/gen/out.js', 'src/notes.log', 'node_modules/p/i.js', '.hidden/h.txt']);
	await writeFile(join(dir, '.gitignore'), 'secret.env\nlogs/\n*.log\n');
	await writeFile(join(dir, 'src', '.gitignore'), 'gen/\n!notes.log\n');
	assert.deepEqual(await listed(dir), ['src/', 'a.txt', 'src/keep.ts', 'src/notes.log']);
});

test('rules from the repository above the workspace and .git/info/exclude count', async t => {
	const repo = await tempDir(t);
	await mkdir(join(repo, '.git', 'info'), {recursive: true});
	await writeFile(join(repo, '.git', 'info', 'exclude'), 'excluded.txt\n');
	await writeFile(join(repo, '.gitignore'), 'packages/app/dropped.txt\n*.tmp\n');
	const workspace = join(repo, 'packages', 'app');
	await files(workspace, ['kept.txt', 'dropped.txt', 'excluded.txt', 'x.tmp']);
	assert.deepEqual(await listed(workspace), ['kept.txt']);
});

test('without a repository above, folders above the workspace are not read', async t => {
	const above = await tempDir(t);
	await writeFile(join(above, '.gitignore'), '*\n');
	const workspace = join(above, 'ws');
	await files(workspace, ['a.txt']);
	assert.deepEqual(await listed(workspace), ['a.txt']);
});
