import assert from 'node:assert/strict';
import {test} from 'node:test';
import {WorkerError, type ManifestTool, type WorkerPool, type WorkerSpec} from '../../source/core/pool/types.js';
import {createExternalTool, isExternalTool} from '../../source/core/tools/external-tool.js';
import {createNativeTools} from '../../source/core/tools/native-tools.js';
import {ToolInputError, ToolRunError, type ToolContext} from '../../source/core/tools/types.js';

const worker: WorkerSpec = {exec: ['/opt/wc', '--mode', 'x'], cwd: '/opt'};

const wordCount: ManifestTool = {
	name: 'word_count',
	description: 'Count words',
	parameters: {
		type: 'object',
		properties: {
			text: {type: 'string'},
			unit: {enum: ['words', 'lines']},
			limit: {type: 'integer', minimum: 1},
			files: {type: 'array', items: {type: 'object', properties: {path: {type: 'string'}}, required: ['path'], additionalProperties: false}},
		},
		required: ['text'],
		additionalProperties: false,
	},
	worker,
	manifest: '/c/tools.json',
};

const context: ToolContext = {workspace: '/w', signal: new AbortController().signal, outputLimit: 1000};

/** A pool that records calls and answers with `reply` (or throws it). */
function fakePool(reply: Record<string, unknown> | Error) {
	const calls: Array<{spec: WorkerSpec; event: string; data: Record<string, unknown>}> = [];
	const pool: WorkerPool = {
		async call(spec, event, data) {
			calls.push({spec, event, data});
			if (reply instanceof Error) throw reply;
			return reply;
		},
		start() {},
		setResources() {},
		async close() {},
	};
	return {pool, calls};
}

const png = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64')}`;

async function runWith(reply: Record<string, unknown> | Error) {
	const {pool} = fakePool(reply);
	const planned = await createExternalTool(wordCount, pool).plan({text: 'a b'}, context);
	return planned.run();
}

test('the model sees only name, description and parameters; the tool is marked external', () => {
	const tool = createExternalTool(wordCount, fakePool({output: ''}).pool);
	assert.equal(tool.name, 'word_count');
	assert.equal(tool.description, 'Count words');
	assert.equal(tool.parameters, wordCount.parameters);
	assert.equal(tool.external, true);
	assert.ok(isExternalTool(tool));
	assert.ok(!createNativeTools().some(native => isExternalTool(native)));
});

test('arguments are checked against the schema; every problem is named for the model', async () => {
	const tool = createExternalTool(wordCount, fakePool({output: ''}).pool);
	const refused = async (args: Record<string, unknown>, ...parts: string[]) =>
		assert.rejects(tool.plan(args, context), (error: unknown) => {
			assert.ok(error instanceof ToolInputError);
			assert.ok(error.message.startsWith('word_count: '), error.message);
			for (const part of parts) assert.ok(error.message.includes(part), `"${error.message}" should contain "${part}"`);
			return true;
		});
	await refused({}, 'text is required');
	await refused({text: 3, extra: true}, 'text must be a string', 'unknown field "extra"');
	await refused({text: '', unit: 'chars'}, 'unit must be one of "words", "lines"');
	await refused({text: '', limit: 0}, 'limit must be >= 1');
	await refused({text: '', limit: 1.5}, 'limit must be an integer');
	await refused({text: '', files: [{path: 'a'}, {}]}, 'files[1].path is required');
	await refused({text: '', files: [{path: 'a', mode: 1}]}, 'files[0] has unknown field "mode"');
});

test('every call asks first, showing the arguments; the owner is the manifest, never the worker argv', async () => {
	const tool = createExternalTool(wordCount, fakePool({output: ''}).pool);
	const planned = await tool.plan({text: 'a b', limit: 2}, context);
	assert.deepEqual(planned.ask, {title: 'Run word_count', detail: `{\n  "text": "a b",\n  "limit": 2\n}`});
	assert.equal(tool.owner, 'plugin worker of /c/tools.json');
	assert.doesNotMatch(`${planned.ask?.title} ${planned.ask?.detail} ${tool.owner}`, /\/opt\/wc|--mode/);
});

test("an official module's tool is named by its module: the official host's command line is never shown", async () => {
	const official: ManifestTool = {...wordCount, worker: {exec: ['/usr/bin/node', '/i/bin/i.js', '--runtime', 'worker', 'official'], cwd: '/c'}, module: 'memory', owner: 'official module memory'};
	const tool = createExternalTool(official, fakePool({output: ''}).pool);
	const planned = await tool.plan({text: 'a'}, context);
	assert.equal(tool.owner, 'official module memory');
	assert.doesNotMatch(`${planned.ask?.title} ${planned.ask?.detail}`, /--runtime|i\.js|node/);
});

test('run sends a tool frame with the parsed arguments and returns output and checked images', async () => {
	const {pool, calls} = fakePool({output: '2 words', images: [{type: 'image_url', image_url: {url: png}}]});
	const planned = await createExternalTool(wordCount, pool).plan({text: 'a b'}, context);
	assert.deepEqual(calls, [], 'nothing runs before approval');
	assert.deepEqual(await planned.run(), {output: '2 words', images: [{type: 'image_url', image_url: {url: png}}]});
	assert.deepEqual(calls, [{spec: worker, event: 'tool', data: {name: 'word_count', arguments: {text: 'a b'}}}]);
	assert.deepEqual(await runWith({output: 'plain'}), {output: 'plain'});
});

test('a response without string output or with unknown fields is a tool error naming the tool', async () => {
	const cases: Array<[Record<string, unknown>, string]> = [
		[{}, 'returned an invalid result: output is required'],
		[{output: 3}, 'output must be a string'],
		[{output: 'x', image: []}, 'unknown field "image"'],
	];
	for (const [reply, message] of cases) {
		await assert.rejects(runWith(reply), (error: unknown) => {
			assert.ok(error instanceof ToolRunError, String(error));
			assert.ok(error.message.startsWith('external tool "word_count" (/c/tools.json)'), error.message);
			assert.ok(error.message.includes(message), `"${error.message}" should contain "${message}"`);
			return true;
		});
	}
});

test('images come back unchecked: the core checks them after after_tool (spec/platform.md §5), which may repair them', async () => {
	const link = [{type: 'image_url', image_url: {url: 'https://example.com/a.png'}}];
	assert.deepEqual(await runWith({output: 'x', images: link}), {output: 'x', images: link});
	assert.deepEqual(await runWith({output: 'x', images: {}}), {output: 'x', images: {}});
});

test('a worker failure becomes a tool error carrying its reason, never the worker’s command line', async () => {
	await assert.rejects(runWith(new WorkerError('worker ["/opt/wc"] in /opt: call "tool" timed out after 15 s', 'timeout', 'timed out after 15 s')), (error: unknown) => {
		assert.ok(error instanceof ToolRunError);
		assert.equal(error.message, 'external tool "word_count" (/c/tools.json) failed: timed out after 15 s');
		return true;
	});
});

test('a schema ajv cannot compile fails the call, not the process', async () => {
	const broken = createExternalTool({...wordCount, parameters: {type: 'object', properties: {n: {type: 'integr'}}}}, fakePool({output: ''}).pool);
	await assert.rejects(broken.plan({}, context), (error: unknown) => error instanceof ToolRunError && /is not a valid JSON Schema/.test(error.message));
});
