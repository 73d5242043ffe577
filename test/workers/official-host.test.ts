import {test} from 'node:test';
import assert from 'node:assert/strict';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {runCli} from '../helpers/cli.js';
import {makeFolders, startOfficialWorker, startWorker} from './frame-worker.js';

const bin = fileURLToPath(new URL('../../../bin/i.js', import.meta.url));

test('the official host dispatches each request on its top-level "module", modules keeping their own config', async t => {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'prompts.json'), JSON.stringify({system: 'system.txt'}));
	await writeFile(join(folders.config, 'system.txt'), 'Work in {{workspace}}.');
	await writeFile(join(folders.config, 'approval.json'), JSON.stringify({mode: 'auto', deny_tools: ['shell']}));
	// Both ways of starting it: the CLI's path, and bin/i.js with the host's own bundle.
	for (const host of [startOfficialWorker(t, 'official', [], {env: folders.env}), startWorker(t, [process.execPath, bin, '--runtime', 'worker', 'official'], {env: folders.env})]) {
		const base = {workspace: folders.workspace, paths: folders.paths};
		const prompt = await host.request({id: 1, event: 'system_prompt', module: 'prompts', ...base, data: {prompt: 'default', workspace: folders.workspace}});
		assert.equal(prompt.data.prompt, `Work in ${folders.workspace}.`);
		const denied = await host.request({id: 2, event: 'tool_approval', module: 'approval', ...base, data: {name: 'shell', decision: 'ask'}});
		assert.equal(denied.data.decision, 'deny');
		// The same event for another module is that module's: prompts leaves tool_approval alone.
		const passed = await host.request({id: 3, event: 'tool_approval', module: 'prompts', ...base, data: {name: 'shell', decision: 'ask'}});
		assert.equal(passed.data.decision, 'ask');
		const exit = await host.close();
		assert.equal(exit.code, 0, exit.stderr);
	}
});

test('a request to the host without a module, or naming none it serves, gets an error frame naming the modules', async t => {
	const folders = await makeFolders(t);
	const host = startOfficialWorker(t, 'official', [], {env: folders.env});
	const none = await host.request({id: 1, event: 'system_prompt', data: {prompt: 'x'}});
	assert.match(
		none.error,
		/^the official worker serves several modules, so each request names one in a top-level "module" \(got none\); modules: approval, budget, cache, compact, memory, prompts, responses, skills, smoke, smoke-thinking, web$/,
	);
	const unknown = await host.request({id: 2, event: 'system_prompt', module: 'search', data: {prompt: 'x'}});
	assert.match(unknown.error, /\(got "search"\); modules: approval,/);
	await host.close();
	const options = await runCli(['--runtime', 'worker', 'official', '--config', 'x.json'], {env: folders.env});
	assert.equal(options.code, 2);
	assert.match(options.stderr, /^i: worker official takes no options \(got --config x\.json\); to give a module options, bind it/);
	const viaBin = await runCli(['--runtime', 'worker', 'official', '--config', 'x.json'], {env: folders.env, entry: bin});
	assert.equal(viaBin.code, 2);
	assert.equal(viaBin.stderr, options.stderr);
});

test('a worker answers every complete request, also when its stdin closes right after the frame', async t => {
	const folders = await makeFolders(t);
	const frame = JSON.stringify({id: 7, event: 'system_prompt', workspace: folders.workspace, paths: folders.paths, data: {prompt: 'kept', workspace: folders.workspace}});
	const alone = await runCli(['--runtime', 'worker', 'prompts'], {env: folders.env, input: `${frame}\n`});
	assert.equal(alone.code, 0, alone.stderr);
	assert.equal(alone.stdout, `{"id":7,"data":{"prompt":"kept","workspace":${JSON.stringify(folders.workspace)}}}\n`);
	const hosted = JSON.stringify({...JSON.parse(frame), module: 'prompts'});
	const host = await runCli(['--runtime', 'worker', 'official'], {env: folders.env, input: `${hosted}\n${hosted.replace('"id":7', '"id":8')}\n`, entry: bin});
	assert.equal(host.code, 0, host.stderr);
	assert.deepEqual(
		host.stdout
			.trim()
			.split('\n')
			.map(line => JSON.parse(line).id),
		[7, 8],
	);
});

test('the budget worker refuses --config with a clear error instead of ignoring it', async t => {
	const folders = await makeFolders(t);
	const run = await runCli(['--runtime', 'worker', 'budget', '--config', join(folders.config, 'budget.json')], {env: folders.env});
	assert.equal(run.code, 2);
	assert.equal(run.stderr, `i: worker budget takes no --config: it reads no file of its own; its budget is the model config's "budget" field, which the core sends with each context_budget request\n`);
	const other = await runCli(['--runtime', 'worker', 'budget', '--fast'], {env: folders.env});
	assert.equal(other.code, 2);
	assert.match(other.stderr, /^i: worker budget takes no options \(got --fast\)/);
});
