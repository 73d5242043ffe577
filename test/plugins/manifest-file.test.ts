import assert from 'node:assert/strict';
import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {MAX_PLUGIN_FILE_BYTES} from '../../source/core/plugins/read-json-file.js';
import {executable, load, rejectsWith, tempRoot, writeJson} from './helpers.js';

const objectSchema = {type: 'object', properties: {text: {type: 'string'}}, required: ['text']};

/** A folder holding an executable `worker` and a function writing manifests beside it. */
function setup(t: TestContext) {
	const {root, dirs} = tempRoot(t);
	const folder = join(root, 'plugins');
	const worker = executable(join(folder, 'worker'));
	const tool = (name: string, more: Record<string, unknown> = {}) => ({name, description: 'd', parameters: objectSchema, exec: ['./worker'], ...more});
	const hook = (events: string[], more: Record<string, unknown> = {}) => ({events, exec: ['./worker'], ...more});
	const manifest = (name: string, content: unknown) => writeJson(join(folder, name), content);
	return {root, dirs, folder, worker, tool, hook, manifest};
}

test('a valid manifest loads: tools, hooks and provider resolved against the manifest folder', async t => {
	const {dirs, folder, worker, tool, hook, manifest} = setup(t);
	const path = manifest('m.json', {tools: [tool('my_tool', {module: 'mine'})], hooks: [hook(['before_turn'])], provider: {exec: ['./worker', 'provide']}});
	const {plugins, warnings} = await load(dirs, [path]);
	assert.deepEqual(warnings, []);
	assert.deepEqual(plugins.tools, [{name: 'my_tool', description: 'd', parameters: objectSchema, worker: {exec: [worker], cwd: folder}, module: 'mine', manifest: path}]);
	assert.deepEqual(plugins.hooks, [{events: ['before_turn'], worker: {exec: [worker], cwd: folder}, manifest: path}]);
	assert.deepEqual(plugins.provider, {exec: [worker, 'provide'], cwd: folder});
});

test('tool names: 64 characters load, 65 do not', async t => {
	const {dirs, tool, manifest} = setup(t);
	const ok = 'a'.repeat(64);
	const {plugins} = await load(dirs, [manifest('ok.json', {tools: [tool(ok)]})]);
	assert.equal(plugins.tools[0]!.name, ok);
	const long = 'a'.repeat(65);
	const path = manifest('long.json', {tools: [tool('fine'), tool(long)]});
	await rejectsWith(load(dirs, [path]), `manifest ${path}`, `tools[1] "${long}"`, /1–64 ASCII letters, digits, "_" or "-" \(this one has 65 characters\)/);
});

test('tool names: every allowed character loads; a space, a dot, non-ASCII or empty do not', async t => {
	const {dirs, tool, manifest} = setup(t);
	await load(dirs, [manifest('ok.json', {tools: [tool('Az09_-')]})]);
	for (const [name, got] of [
		['my tool', '" "'],
		['tool.x', '"."'],
		['café', '"é"'],
		['', 'this one is empty'],
	] as const) {
		const path = manifest('bad.json', {tools: [tool(name)]});
		await rejectsWith(load(dirs, [path]), `manifest ${path}`, `tools[0] ${JSON.stringify(name)}`, 'a tool name must be', got);
	}
});

test('a tool name may not repeat, across manifests or within one', async t => {
	const {dirs, tool, manifest} = setup(t);
	const first = manifest('a.json', {tools: [tool('x'), tool('y')]});
	const second = manifest('b.json', {tools: [tool('z'), tool('y')]});
	await rejectsWith(load(dirs, [first, second]), `manifest ${second}: tools[1] "y": tool "y" is already declared by tools[1] "y" in manifest ${first}`, 'unique across all manifests');
	const same = manifest('c.json', {tools: [tool('q'), tool('q')]});
	await rejectsWith(load(dirs, [same]), `manifest ${same}: tools[1] "q"`, `already declared by tools[0] "q" in manifest ${same}`);
});

test('a tool may not shadow a built-in tool', async t => {
	const {dirs, tool, manifest} = setup(t);
	for (const name of ['read', 'shell', 'view_image']) {
		const path = manifest('m.json', {tools: [tool(name)]});
		await rejectsWith(load(dirs, [path]), `manifest ${path}: tools[0] "${name}"`, 'is a built-in tool');
	}
});

test('parameters must be an object schema and a valid JSON Schema', async t => {
	const {dirs, tool, manifest} = setup(t);
	const cases: Array<[unknown, RegExp]> = [
		[{type: 'string'}, /"parameters" must be a JSON Schema for an object, with "type": "object" \(it has "type": "string"\)/],
		[{properties: {}}, /with "type": "object" \(it has "type": null\)/],
		[['type', 'object'], /parameters/],
		[{type: 'object', properties: {n: {type: 'integr'}}}, /"parameters" is not a valid JSON Schema \(schema is invalid: .*type/],
		[{type: 'object', required: 'n'}, /"parameters" is not a valid JSON Schema/],
	];
	for (const [parameters, message] of cases) {
		const path = manifest('m.json', {tools: [tool('t', {parameters})]});
		await rejectsWith(load(dirs, [path]), `manifest ${path}: tools[0] "t"`, message);
	}
});

test('a schema naming 2020-12 is checked as 2020-12, any other as draft-07', async t => {
	const {dirs, tool, manifest} = setup(t);
	// Array-form "items" is valid in draft-07 and was removed in 2020-12.
	const tupleItems = {type: 'object', properties: {pair: {type: 'array', items: [{type: 'string'}]}}};
	await load(dirs, [manifest('ok.json', {tools: [tool('t', {parameters: tupleItems})]})]);
	const path = manifest('bad.json', {tools: [tool('t', {parameters: {$schema: 'https://json-schema.org/draft/2020-12/schema', ...tupleItems}})]});
	await rejectsWith(load(dirs, [path]), 'tools[0] "t"', 'not a valid JSON Schema');
});

test('hook events are lifecycle event names or "*", never empty, unknown or repeated', async t => {
	const {dirs, hook, manifest} = setup(t);
	const {plugins} = await load(dirs, [manifest('ok.json', {hooks: [hook(['*']), hook(['session_load', 'finish'])]})]);
	assert.deepEqual(
		plugins.hooks.map(entry => entry.events),
		[['*'], ['session_load', 'finish']],
	);
	const cases: Array<[string[], string]> = [
		[['before_turn', 'befor_turn'], 'unknown event "befor_turn"; "events" lists lifecycle events (session_load,'],
		[['tool'], 'unknown event "tool"'],
		[[], 'events must list at least 1 item'],
		[['*', 'finish'], '"*" already means every event'],
		[['finish', 'finish'], '"events" lists "finish" twice'],
	];
	for (const [events, message] of cases) {
		const path = manifest('m.json', {hooks: [hook(['finish']), hook(events)]});
		await rejectsWith(load(dirs, [path]), `manifest ${path}: hooks[1]: ${message}`);
	}
});

test('exec: a bare name is looked up on PATH at load time', async t => {
	const {dirs, folder, hook, manifest, worker} = setup(t);
	const original = process.env.PATH;
	t.after(() => (process.env.PATH = original));
	process.env.PATH = `relative/bin:${folder}`;
	const {plugins} = await load(dirs, [manifest('ok.json', {hooks: [hook(['finish'], {exec: ['worker', '--flag']})]})]);
	assert.deepEqual(plugins.hooks[0]!.worker.exec, [worker, '--flag']);
	const path = manifest('bad.json', {hooks: [hook(['finish'], {exec: ['i-no-such-program-on-path']})]});
	await rejectsWith(load(dirs, [path]), `manifest ${path}: hooks[0]: exec[0] "i-no-such-program-on-path" is not an executable program on PATH`);
});

test('exec: a path resolves against the final cwd and must be an executable file', async t => {
	const {dirs, folder, hook, manifest} = setup(t);
	const nested = executable(join(folder, 'sub', 'bin', 'w'));
	const {plugins} = await load(dirs, [manifest('ok.json', {hooks: [hook(['finish'], {cwd: 'sub', exec: ['bin/w']})]})]);
	assert.deepEqual(plugins.hooks[0]!.worker, {exec: [nested], cwd: join(folder, 'sub')});

	writeFileSync(join(folder, 'plain'), 'not executable');
	const cases: Array<[string[], string]> = [
		[['./missing'], `exec[0] "./missing" (resolved against cwd ${folder} to ${join(folder, 'missing')}) does not exist`],
		[['./plain'], `exec[0] "./plain" (resolved against cwd ${folder} to ${join(folder, 'plain')}) is not executable`],
		[['./sub'], 'is not a file'],
		[[], 'exec must list at least 1 item'],
		[[''], 'exec[0] must not be empty'],
	];
	for (const [exec, message] of cases) {
		const path = manifest('m.json', {hooks: [hook(['finish'], {exec})]});
		await rejectsWith(load(dirs, [path]), `manifest ${path}: hooks[0]: `, message);
	}
});

test('cwd: defaults to the manifest folder, resolves relative to it, is canonical and must be an existing folder', async t => {
	const {root, dirs, folder, hook, manifest} = setup(t);
	mkdirSync(join(folder, 'work'));
	symlinkSync(folder, join(root, 'link'));
	const viaLink = join(root, 'link', 'm.json');
	manifest('m.json', {hooks: [hook(['finish']), hook(['finish'], {cwd: 'work', exec: ['../worker']}), hook(['finish'], {cwd: root, exec: ['plugins/worker']})]});
	const {plugins} = await load(dirs, [viaLink]);
	assert.deepEqual(
		plugins.hooks.map(entry => entry.worker.cwd),
		[folder, join(folder, 'work'), root],
	);

	writeFileSync(join(folder, 'file'), '');
	for (const [cwd, message] of [
		['nowhere', `"cwd" "nowhere" (${join(folder, 'nowhere')}) does not exist; "cwd" must name an existing folder`],
		['file', `"cwd" "file" (${join(folder, 'file')}) is not a folder`],
	] as const) {
		const path = manifest('bad.json', {tools: [{name: 't', description: '', parameters: {type: 'object'}, exec: ['./worker'], cwd}]});
		await rejectsWith(load(dirs, [path]), `manifest ${path}: tools[0] "t": ${message}`);
	}
});

test('unknown fields are errors, at the top and in an entry', async t => {
	const {dirs, tool, hook, manifest} = setup(t);
	const top = manifest('top.json', {tools: [], tool: []});
	await rejectsWith(load(dirs, [top]), `manifest ${top}: unknown field "tool"; a manifest has "tools", "hooks" and "provider"`);
	const inTool = manifest('tool.json', {tools: [tool('t', {timeout: 5})]});
	await rejectsWith(load(dirs, [inTool]), `manifest ${inTool}: tools[0] "t": unknown field "timeout"`);
	const inHook = manifest('hook.json', {hooks: [hook(['finish'], {event: 'x'})]});
	await rejectsWith(load(dirs, [inHook]), `manifest ${inHook}: hooks[0]: unknown field "event"`);
	const inProvider = manifest('provider.json', {provider: {exec: ['./worker'], env: {}}});
	await rejectsWith(load(dirs, [inProvider]), `manifest ${inProvider}: provider: unknown field "env"`);
	const missing = manifest('missing.json', {tools: [{name: 't', parameters: {type: 'object'}, exec: ['./worker']}]});
	await rejectsWith(load(dirs, [missing]), `manifest ${missing}: tools[0] "t": description is required`);
});

test('a manifest file is at most 1 MiB, JSON, and an object', async t => {
	const {dirs, manifest} = setup(t);
	const body = '{"tools": []}';
	const atLimit = manifest('limit.json', body + ' '.repeat(MAX_PLUGIN_FILE_BYTES - body.length));
	await load(dirs, [atLimit]);
	const over = manifest('over.json', body + ' '.repeat(MAX_PLUGIN_FILE_BYTES - body.length + 1));
	await rejectsWith(load(dirs, [over]), `manifest ${over}: the file is over 1048576 bytes`);
	const broken = manifest('broken.json', '{"tools": [');
	await rejectsWith(load(dirs, [broken]), `manifest ${broken}: not valid JSON`);
	const list = manifest('list.json', []);
	await rejectsWith(load(dirs, [list]), `manifest ${list}: must be a JSON object`);
});

test('prefix_reuse opts a tool or hook worker into prefix-reuse frames; it must be a boolean, and one worker’s entries must agree', async t => {
	const {dirs, folder, worker, tool, hook, manifest} = setup(t);
	const path = manifest('reuse.json', {tools: [tool('counted', {prefix_reuse: true})], hooks: [hook(['before_turn'], {prefix_reuse: true}), hook(['finish'], {exec: ['./worker', 'plain']})]});
	const {plugins} = await load(dirs, [path]);
	assert.deepEqual(plugins.tools[0]!.worker, {exec: [worker], cwd: folder, prefixReuse: true});
	assert.deepEqual(
		plugins.hooks.map(entry => entry.worker),
		[
			{exec: [worker], cwd: folder, prefixReuse: true},
			{exec: [worker, 'plain'], cwd: folder},
		],
	);

	const wrong = manifest('wrong.json', {hooks: [hook(['before_turn'], {prefix_reuse: 'yes'})]});
	await rejectsWith(load(dirs, [wrong]), `manifest ${wrong}`, 'hooks[0]', /prefix_reuse/);
	const provider = manifest('provider.json', {provider: {exec: ['./worker'], prefix_reuse: true}});
	await rejectsWith(load(dirs, [provider]), `manifest ${provider}`, 'provider', /prefix_reuse/);

	// Two manifests naming one worker (argv and cwd), one with the flag and one without.
	const other = manifest('other.json', {hooks: [hook(['after_save'])]});
	await rejectsWith(
		load(dirs, [path, other]),
		`tool "counted" of ${path} sets "prefix_reuse": true but the after_save hook in ${other} does not`,
		`both run worker ${JSON.stringify([worker])} in ${folder}`,
		'every entry for it must agree',
	);
});
