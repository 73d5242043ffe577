import assert from 'node:assert/strict';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {makeFolders, startOfficialWorker, type Folders} from './frame-worker.js';

const embedded = {prompt: 'You are i, working on /w.', extra: {kept: true}};

/** prompts.json in the config folder, with its prompt files in prompts/. */
async function configure(folders: Folders, config: Record<string, unknown>, files: Record<string, string | Buffer> = {}) {
	await mkdir(join(folders.config, 'prompts'), {recursive: true});
	await writeFile(join(folders.config, 'prompts.json'), JSON.stringify(config));
	for (const [name, text] of Object.entries(files)) await writeFile(join(folders.config, 'prompts', name), text);
}

test('prompts without prompts.json, or without "system", leaves the embedded default', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'prompts', [], {env: folders.env});
	assert.deepEqual(await worker.request({id: 1, event: 'system_prompt', workspace: folders.workspace, data: embedded}), {id: 1, data: embedded});
	assert.deepEqual(await worker.request({id: 2, event: 'before_compact', workspace: folders.workspace, data: embedded}), {id: 2, data: embedded});
	await worker.close();

	await configure(folders, {compact: 'prompts/compact.txt'}, {'compact.txt': 'Summarise.'});
	const again = startOfficialWorker(t, 'prompts', [], {env: folders.env});
	assert.deepEqual(await again.request({id: 3, event: 'system_prompt', workspace: folders.workspace, data: embedded}), {id: 3, data: embedded});
	const exit = await again.close();
	assert.equal(exit.code, 0);
	assert.equal(exit.stderr, '');
});

test('prompts replaces the system prompt with its file, {{workspace}} filled in from the request', async t => {
	const folders = await makeFolders(t);
	await configure(folders, {system: 'prompts/system.txt'}, {'system.txt': 'Work in {{workspace}}; again {{workspace}}.\n'});
	const worker = startOfficialWorker(t, 'prompts', [], {env: folders.env});
	const response = await worker.request({id: 1, event: 'system_prompt', workspace: '/srv/project', data: embedded});
	assert.deepEqual(response, {id: 1, data: {...embedded, prompt: 'Work in /srv/project; again /srv/project.\n'}});
	const missing = await worker.request({id: 2, event: 'system_prompt', data: embedded});
	assert.match(missing.error, /uses \{\{workspace\}\}, but the request carries no "workspace"$/);
	await worker.close();
});

test('prompts: a file of 32000 characters is used, 32001 is refused, an empty one too (characters, not bytes)', async t => {
	const folders = await makeFolders(t);
	const system = join(folders.config, 'prompts', 'system.txt');
	await configure(folders, {system: 'prompts/system.txt'});
	const worker = startOfficialWorker(t, 'prompts', [], {env: folders.env});
	const ask = async (text: string) => {
		await writeFile(system, text);
		return worker.request({id: 1, event: 'system_prompt', workspace: folders.workspace, data: embedded});
	};

	// CJK and an astral character: 3 and 4 bytes each, one character each.
	const limit = `{{workspace}}${'字'.repeat(31_986)}😀`;
	assert.equal([...limit].length, 32_000);
	const ok = await ask(limit);
	assert.equal(ok.data.prompt, `${folders.workspace}${'字'.repeat(31_986)}😀`);
	assert.equal((await ask('a'.repeat(32_000))).data.prompt.length, 32_000);
	assert.equal((await ask('a')).data.prompt, 'a');
	assert.equal((await ask(`${limit}x`)).error, `prompt file ${system} has 32001 characters; a prompt must have 1 to 32000`);
	assert.equal((await ask('')).error, `prompt file ${system} has 0 characters; a prompt must have 1 to 32000`);
	assert.match((await ask('😀'.repeat(32_001))).error, /more than 32000 characters can take$/);
	await writeFile(system, Buffer.from([0x68, 0x69, 0xff, 0xfe]));
	const invalid = await worker.request({id: 2, event: 'system_prompt', workspace: folders.workspace, data: embedded});
	assert.equal(invalid.error, `prompt file ${system} is not valid UTF-8`);
	await worker.close();
});

test('prompts: a missing prompt file is an error frame naming it', async t => {
	const folders = await makeFolders(t);
	await configure(folders, {system: 'prompts/gone.txt'});
	const worker = startOfficialWorker(t, 'prompts', [], {env: folders.env});
	const response = await worker.request({id: 1, event: 'system_prompt', workspace: folders.workspace, data: embedded});
	assert.equal(response.error, `prompt file ${join(folders.config, 'prompts', 'gone.txt')} does not exist`);
	await worker.close();
});

test('prompts: before_compact sets the compact prompt; paths are relative to an explicit prompts.json', async t => {
	const folders = await makeFolders(t);
	const own = join(folders.root, 'own');
	await mkdir(join(own, 'p'), {recursive: true});
	await writeFile(join(own, 'prompts.json'), JSON.stringify({system: 'p/s.txt', compact: 'p/c.txt'}));
	await writeFile(join(own, 'p', 's.txt'), 'system for {{workspace}}');
	await writeFile(join(own, 'p', 'c.txt'), 'compact {{workspace}}');
	const worker = startOfficialWorker(t, 'prompts', ['--config', 'own/prompts.json'], {env: folders.env, cwd: folders.root});
	const data = {prompt: 'default compact prompt', messages: [{role: 'user', content: 'x'}]};
	assert.deepEqual(await worker.request({id: 1, event: 'before_compact', workspace: '/w', data}), {id: 1, data: {...data, prompt: 'compact /w'}});
	assert.deepEqual(await worker.request({id: 2, event: 'system_prompt', workspace: '/w', data: embedded}), {
		id: 2,
		data: {...embedded, prompt: 'system for /w'},
	});
	await worker.close();
});

test('prompts: an invalid prompts.json is an error frame naming the file and field', async t => {
	const folders = await makeFolders(t);
	await configure(folders, {system: 3});
	const worker = startOfficialWorker(t, 'prompts', [], {env: folders.env});
	const response = await worker.request({id: 1, event: 'system_prompt', workspace: folders.workspace, data: embedded});
	assert.match(response.error, new RegExp(`^prompts config ${join(folders.config, 'prompts.json')}: field "system": `));
	await worker.close();
});

test("prompts: user_input expands /name from the workspace .i/prompts (then .pi/prompts), or from the request's resources in their order; anything else passes unchanged", async t => {
	const folders = await makeFolders(t);
	const own = join(folders.workspace, '.i', 'prompts');
	const first = join(folders.root, 'first');
	await mkdir(own, {recursive: true});
	await mkdir(first);
	await writeFile(join(own, 'fix.md'), 'Fix $1 in {{workspace}}; then $2.');
	await writeFile(join(own, 'both.md'), 'the workspace one');
	await writeFile(join(first, 'both.md'), 'the first folder wins a name');
	const worker = startOfficialWorker(t, 'prompts', [], {env: folders.env});
	let id = 0;
	const ask = async (content: unknown, resources?: Record<string, unknown>) => {
		const response = await worker.request({id: ++id, event: 'user_input', workspace: folders.workspace, paths: folders.paths, ...(resources ? {resources} : {}), data: {content, other: 1}});
		assert.ok(response.data, response.error);
		return response.data;
	};

	assert.deepEqual(await ask('/fix "the parser" test'), {content: `Fix the parser in ${folders.workspace}; then test.`, other: 1});
	// A missing argument is empty; text parts after the first stay as they are.
	const image = {type: 'image_url', image_url: {url: 'data:image/png;base64,AAAA'}};
	assert.deepEqual(await ask([{type: 'text', text: '/fix it'}, image]), {content: [{type: 'text', text: `Fix it in ${folders.workspace}; then .`}, image], other: 1});
	for (const untouched of ['fix it', '/nope x', '/fix.md', ' not/fix', [image]]) assert.deepEqual(await ask(untouched), {content: untouched, other: 1});
	const named = {
		prompts: [
			{path: first, origin: '--prompt-template'},
			{path: own, origin: 'the workspace'},
		],
	};
	assert.equal((await ask('/both', named)).content, 'the first folder wins a name');
	assert.equal((await ask('/both')).content, 'the workspace one');
	// The host's list replaces the default folder.
	assert.equal((await ask('/fix x', {prompts: [{path: first, origin: '--prompt-template'}]})).content, '/fix x');
	// pi's .pi/prompts is a default folder too, after .i/prompts.
	await mkdir(join(folders.workspace, '.pi', 'prompts'), {recursive: true});
	await writeFile(join(folders.workspace, '.pi', 'prompts', 'both.md'), 'pi loses a name to .i');
	await writeFile(join(folders.workspace, '.pi', 'prompts', 'pi.md'), 'from pi');
	assert.equal((await ask('/both')).content, 'the workspace one');
	assert.equal((await ask('/pi')).content, 'from pi');
	assert.equal((await worker.close()).code, 0);
});
