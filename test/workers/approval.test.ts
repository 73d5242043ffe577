import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {officialWorkers} from '../../source/commands/worker.js';
import {makeFolders, startOfficialWorker, type FrameWorker} from './frame-worker.js';

function approval(name: string, decision: string) {
	return {name, arguments: '{"path":"a.txt"}', external: false, decision};
}

async function decide(worker: FrameWorker, id: number, name: string, decision: string, context: Record<string, unknown> = {}) {
	const response = await worker.request({id, event: 'tool_approval', ...context, data: approval(name, decision)});
	assert.equal(response.id, id);
	assert.ok(response.data, response.error);
	// Hooks return the full data: everything but the decision comes back as sent.
	assert.deepEqual({...response.data, decision: undefined}, {...approval(name, decision), decision: undefined});
	return response.data.decision as string;
}

test('approval without approval.json is ask mode: the proposed decision stands', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'approval', [], {env: folders.env});
	assert.equal(await decide(worker, 1, 'write', 'ask'), 'ask');
	assert.equal(await decide(worker, 2, 'read', 'allow'), 'allow');
	assert.equal(await decide(worker, 3, 'shell', 'deny'), 'deny');
	const exit = await worker.close();
	assert.equal(exit.code, 0, exit.stderr);
	assert.equal(exit.stderr, '');
});

test('approval auto mode allows what is not denied; deny_tools deny in any mode', async t => {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'approval.json'), JSON.stringify({mode: 'auto', deny_tools: ['shell']}));
	const worker = startOfficialWorker(t, 'approval', [], {env: folders.env});
	assert.equal(await decide(worker, 1, 'write', 'ask'), 'allow');
	assert.equal(await decide(worker, 2, 'edit', 'allow'), 'allow');
	assert.equal(await decide(worker, 3, 'shell', 'ask'), 'deny');
	assert.equal(await decide(worker, 4, 'shell', 'allow'), 'deny');
	// A veto proposed by the core or an earlier hook is not overruled.
	assert.equal(await decide(worker, 5, 'write', 'deny'), 'deny');
	await worker.close();
});

test('approval ask mode with deny_tools', async t => {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'approval.json'), JSON.stringify({deny_tools: ['write', 'my_tool']}));
	const worker = startOfficialWorker(t, 'approval', [], {env: folders.env});
	assert.equal(await decide(worker, 1, 'my_tool', 'allow'), 'deny');
	assert.equal(await decide(worker, 2, 'edit', 'ask'), 'ask');
	await worker.close();
});

test('approval --config FILE resolves against the worker cwd and wins over the default file', async t => {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'approval.json'), JSON.stringify({mode: 'ask'}));
	await mkdir(join(folders.root, 'elsewhere'));
	await writeFile(join(folders.root, 'elsewhere', 'mine.json'), JSON.stringify({mode: 'auto'}));
	const worker = startOfficialWorker(t, 'approval', ['--config', 'elsewhere/mine.json'], {env: folders.env, cwd: folders.root});
	assert.equal(await decide(worker, 1, 'write', 'ask'), 'allow');
	await worker.close();
});

test('approval reads approval.json from the request paths when given', async t => {
	const folders = await makeFolders(t);
	const other = join(folders.root, 'host-config');
	await mkdir(other);
	await writeFile(join(other, 'approval.json'), JSON.stringify({mode: 'auto'}));
	const worker = startOfficialWorker(t, 'approval', [], {env: folders.env});
	const paths = {...folders.paths, config_dir: other};
	assert.equal(await decide(worker, 1, 'write', 'ask', {workspace: folders.workspace, paths}), 'allow');
	assert.equal(await decide(worker, 2, 'write', 'ask'), 'ask');
	await worker.close();
});

test('approval config errors and bad data are error frames naming the file and field', async t => {
	const folders = await makeFolders(t);
	const file = join(folders.config, 'approval.json');
	const worker = startOfficialWorker(t, 'approval', [], {env: folders.env});
	const errorFor = async (config: string) => {
		await writeFile(file, config);
		const response = await worker.request({id: 1, event: 'tool_approval', data: approval('write', 'ask')});
		return response.error as string;
	};

	assert.match(await errorFor('{"mode":"yolo"}'), new RegExp(`^approval config ${file}: field "mode": `));
	assert.equal(await errorFor('{"mode":"auto","deny":["x"]}'), `approval config ${file}: unknown field "deny"`);
	assert.match(await errorFor('{"deny_tools":"shell"}'), new RegExp(`^approval config ${file}: field "deny_tools": `));
	assert.match(await errorFor('{mode'), new RegExp(`^approval config ${file}: not valid JSON`));
	// A fixed file is read on the next request.
	assert.equal(await errorFor('{"mode":"auto"}'), undefined);

	const bad = await worker.request({id: 2, event: 'tool_approval', data: {name: 'write', decision: 'maybe'}});
	assert.match(bad.error, /^tool_approval data: field "decision": /);
	await worker.close();

	const missing = startOfficialWorker(t, 'approval', ['--config', join(folders.root, 'none.json')], {env: folders.env});
	const response = await missing.request({id: 3, event: 'tool_approval', data: approval('write', 'ask')});
	assert.equal(response.error, `approval config ${join(folders.root, 'none.json')} does not exist (named by --config)`);
	await missing.close();
});

test('an unknown option or worker name is a usage error (exit 2)', async t => {
	const folders = await makeFolders(t);
	const option = await startOfficialWorker(t, 'approval', ['--mode', 'auto'], {env: folders.env}).close();
	assert.equal(option.code, 2);
	assert.match(option.stderr, /^i: worker approval: Unknown option '--mode'/);
	const name = await startOfficialWorker(t, 'nope', [], {env: folders.env}).close();
	assert.equal(name.code, 2);
	assert.equal(name.stderr, `i: --runtime worker has no worker "nope"; workers: ${officialWorkers.join(', ')}, official\n`);
	assert.ok(['approval', 'budget', 'cache', 'compact', 'prompts', 'smoke'].every(worker => officialWorkers.includes(worker)));
});
