// The digest beside a state file `i` writes (written-digest.ts): a file as
// written is read without its schema check, anything else is checked in full.
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {registryPath, workspaceId} from '../../source/core/config/workspace-registry.js';
import {isAsWritten, noteWritten, writtenDigestPath} from '../../source/core/fs/written-digest.js';
import {readSessionIndex, sessionIndexPath, updateSessionIndex} from '../../source/core/session/session-index.js';
import {dirsUnder, tempDir} from './helpers.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('noteWritten notes the text’s SHA-256 beside the file; isAsWritten holds for that text only', async t => {
	const root = await tempDir(t);
	const path = join(root, 'state.json');
	assert.equal(isAsWritten(path, '{}\n'), false, 'no digest yet');
	await writeFile(path, '{}\n');
	await noteWritten(path, '{}\n');
	assert.equal(await readFile(writtenDigestPath(path), 'utf8'), sha256('{}\n'));
	assert.equal(isAsWritten(path, '{}\n'), true);
	assert.equal(isAsWritten(path, '{} \n'), false, 'one byte more');
	// A torn digest matches nothing; a digest that cannot be written is no error of the write.
	await writeFile(writtenDigestPath(path), sha256('{}\n').slice(0, 20));
	assert.equal(isAsWritten(path, '{}\n'), false);
	await rm(writtenDigestPath(path));
	await mkdir(writtenDigestPath(path));
	await noteWritten(path, '{}\n');
	assert.equal(isAsWritten(path, '{}\n'), false);
});

test('the workspace registry as written is taken as it is; edited by hand, it is checked and refused as before', async t => {
	const root = await tempDir(t);
	const dirs = dirsUnder(root);
	const id = await workspaceId('/projects/a', dirs);
	const path = registryPath(dirs);
	const text = await readFile(path, 'utf8');
	assert.equal(isAsWritten(path, text), true, 'the registration noted its text');

	// An entry only the schema would refuse, in a file with the right digest beside it: read unchecked.
	const unchecked = text.replace(id, 'not-a-uuid');
	await writeFile(path, unchecked);
	await noteWritten(path, unchecked);
	assert.equal(await workspaceId('/projects/a', dirs), 'not-a-uuid');
	// The same file without its digest (a person's edit): checked, refused, never replaced.
	await rm(writtenDigestPath(path));
	await assert.rejects(workspaceId('/projects/a', dirs), /workspace registry .*workspaces\.json is corrupt/);
	assert.equal(await readFile(path, 'utf8'), unchecked);
});

test('the session index as written is taken as it is; one whose text changed is checked, and a damaged one is none', async t => {
	const folder = await tempDir(t);
	await updateSessionIndex(folder, sessions => {
		sessions.a = {id: 'a-id', title: 'hello', messages: 2, updated: '2026-12-02T00:00:00.000Z', size: 10};
	});
	const path = sessionIndexPath(folder);
	const text = await readFile(path, 'utf8');
	assert.equal(isAsWritten(path, text), true, 'every update notes its text');
	assert.equal(readSessionIndex(folder).a?.title, 'hello');

	const unchecked = text.replace('"messages":2', '"messages":-2');
	await writeFile(path, unchecked);
	assert.deepEqual(readSessionIndex(folder), {}, 'changed behind the digest: checked, and a bad entry makes it none');
	await noteWritten(path, unchecked);
	assert.equal(readSessionIndex(folder).a?.messages, -2, 'with its digest: read unchecked');

	// The next update starts from what it read and notes its own text.
	await updateSessionIndex(folder, sessions => {
		delete sessions.a;
	});
	const after = await readFile(path, 'utf8');
	assert.equal(isAsWritten(path, after), true);
	assert.deepEqual(readSessionIndex(folder), {});
});
