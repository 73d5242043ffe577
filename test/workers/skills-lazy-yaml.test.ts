// The yaml package is the skills module's alone, and loaded only when a
// SKILL.md is read: the official host of the default profile (unbundled,
// so its module graph shows) answers a turn in a workspace without skills
// without it. Every build of the worker reads a SKILL.md with it.
import assert from 'node:assert/strict';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {importRecorder} from '../helpers/import-log.js';
import {binPath, cliPath, unbundledCliPath} from '../helpers/cli.js';
import {makeFolders, startWorker} from './frame-worker.js';

test('the official host loads yaml with the first SKILL.md it reads, not before', async t => {
	const folders = await makeFolders(t);
	const log = join(folders.root, 'imports.log');
	const worker = startWorker(t, [process.execPath, `--import=${importRecorder}`, unbundledCliPath, '--runtime', 'worker', 'official'], {
		env: {...folders.env, I_TEST_IMPORT_LOG: log},
	});
	const turn = async (id: number) => worker.request({id, event: 'before_turn', module: 'skills', workspace: folders.workspace, paths: folders.paths, data: {messages: [{role: 'user', content: 'hi'}]}});
	const yaml = async () => (await readFile(log, 'utf8')).split('\n').filter(url => url.includes('/node_modules/yaml/'));

	assert.deepEqual((await turn(1)).data.messages.length, 1, 'no skills: nothing added');
	assert.match(await readFile(log, 'utf8'), /\/workers\/skills\/skills\.js$/m, 'the recorder saw the skills module load');
	assert.deepEqual(await yaml(), []);

	await mkdir(join(folders.workspace, '.agents', 'skills', 'one'), {recursive: true});
	await writeFile(join(folders.workspace, '.agents', 'skills', 'one', 'SKILL.md'), '---\nname: one\ndescription: The one.\n---\nbody\n');
	assert.equal((await turn(2)).data.messages.length, 2, 'the skill is shown');
	assert.notDeepEqual(await yaml(), []);
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
});

test('every build of the skills worker reads a SKILL.md: the headless bundle, the host bundle, the ES module bundle, the unbundled tree', async t => {
	const folders = await makeFolders(t);
	await mkdir(join(folders.workspace, '.agents', 'skills', 'one'), {recursive: true});
	await writeFile(join(folders.workspace, '.agents', 'skills', 'one', 'SKILL.md'), '---\nname: one\ndescription: >\n  The\n  one.\nmetadata: {a: {b: c}}\n---\nbody\n');
	const builds: Array<[string, string[]]> = [
		['bin/i.js (headless.cjs)', [binPath, '--runtime', 'worker', 'skills']],
		['bin/i.js (official.cjs)', [binPath, '--runtime', 'worker', 'official']],
		['dist/bundle/cli.js', [cliPath, '--runtime', 'worker', 'skills']],
		['dist/source/cli.js', [unbundledCliPath, '--runtime', 'worker', 'skills']],
	];
	for (const [build, args] of builds) {
		const worker = startWorker(t, [process.execPath, ...args], {env: folders.env});
		const answer = await worker.request({id: 1, event: 'before_turn', module: 'skills', workspace: folders.workspace, paths: folders.paths, data: {messages: [{role: 'user', content: 'hi'}]}});
		assert.ok(answer.data, `${build}: ${answer.error}`);
		assert.match(answer.data.messages[1].content, /"one":"The one\.\\nsource: \.agents\/skills\/one\/SKILL\.md"/, build);
		await worker.close();
	}
});
