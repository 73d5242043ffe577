import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createNativeTools} from '../../source/core/tools/native-tools.js';
import {ChildAgents} from '../../source/core/agent/child-agents.js';
import {nativeToolNames} from '../../source/core/tools/native-tool-names.js';
import {ToolInputError} from '../../source/core/tools/types.js';
import {tempDir, toolContext} from './helpers.js';

// With a child registry, so delegate_task's schema is checked with the others'.
const tools = new Map(createNativeTools({children: new ChildAgents(() => assert.fail('no child is started here'))}).map(tool => [tool.name, tool]));

test('createNativeTools returns one tool per native name, in order; delegate_task only with a child registry', () => {
	const children = new ChildAgents(() => {
		throw new Error('no child is started here');
	});
	assert.deepEqual(
		createNativeTools({children}).map(tool => tool.name),
		[...nativeToolNames],
	);
	assert.deepEqual(
		createNativeTools().map(tool => tool.name),
		nativeToolNames.filter(name => name !== 'delegate_task'),
	);
});

test('each tool has a clean object schema with a description on every property', () => {
	for (const tool of tools.values()) {
		const schema = tool.parameters as {type: string; properties: Record<string, {description?: string}>; additionalProperties: boolean; $schema?: string};
		assert.equal(schema.type, 'object', tool.name);
		assert.equal(schema.$schema, undefined, tool.name);
		assert.equal(schema.additionalProperties, false, tool.name);
		for (const [key, property] of Object.entries(schema.properties)) {
			assert.ok(property.description, `${tool.name}.${key} has no description`);
		}

		assert.ok(!JSON.stringify(schema).includes('9007199254740991'), `${tool.name} carries zod's safe-integer bounds`);
		assert.ok(tool.description.length > 40, tool.name);
	}
});

test('defaults make fields optional in the schema', () => {
	const shell = tools.get('shell')!.parameters as {required: string[]; properties: {timeout: {default: number}}};
	assert.deepEqual(shell.required, ['command']);
	assert.equal(shell.properties.timeout.default, 120);
});

async function inputError(name: string, args: Record<string, unknown>, workspace: string): Promise<string> {
	const error = await tools
		.get(name)!
		.plan(args, toolContext(workspace))
		.then(
			() => assert.fail('expected a ToolInputError'),
			(error_: unknown) => error_,
		);
	assert.ok(error instanceof ToolInputError, String(error));
	return error.message;
}

test('argument errors name the field and the problem', async t => {
	const dir = await tempDir(t);
	assert.equal(await inputError('read', {files: [{path: 'a', offset: 0}]}, dir), 'read: files[0].offset must be ≥ 1 (got 0)');
	assert.equal(await inputError('read', {files: [{path: 'a', limit: 1.5}]}, dir), 'read: files[0].limit must be an integer (got 1.5)');
	assert.equal(await inputError('read', {}, dir), 'read: files is required');
	assert.equal(await inputError('read', {files: [{path: 7}]}, dir), 'read: files[0].path must be a string (got 7)');
	assert.equal(await inputError('read', {files: []}, dir), 'read: files must list at least 1 item (got 0)');
	assert.equal(await inputError('read', {files: [{path: 'a', extra: true}], more: 1}, dir), 'read: files[0] has unknown field "extra"; unknown field "more"');
	assert.equal(await inputError('write', {files: Array.from({length: 21}, (_, index) => ({path: `f${index}`, content: ''}))}, dir), 'write: files must list at most 20 items (got 21)');
	assert.equal(await inputError('edit', {path: 'a', old_text: '', new_text: 'x'}, dir), 'edit: old_text must not be empty');
	assert.equal(await inputError('shell', {command: 'true', timeout: 601}, dir), 'shell: timeout must be ≤ 600 (got 601)');
	await tools.get('shell')!.plan({command: 'true', timeout: 600}, toolContext(dir));
	assert.equal(await inputError('search', {pattern: 'x', max_results: 1001}, dir), 'search: max_results must be ≤ 1000 (got 1001)');
	await tools.get('search')!.plan({pattern: 'x', max_results: 1000}, toolContext(dir));
	assert.equal(await inputError('search', {pattern: 'x', regex: 'yes'}, dir), 'search: regex must be true or false (got a string)');
	assert.equal(await inputError('glob', {pattern: 'x', path: ''}, dir), 'glob: path must not be empty');
});

test("delegate_task's role follows childAgent's rule: one line, at most 64 characters", async t => {
	const dir = await tempDir(t);
	assert.match(await inputError('delegate_task', {task: 't', role: 'a\nb'}, dir), /^delegate_task: role\b.*one line without control characters/);
	assert.match(await inputError('delegate_task', {task: 't', role: 'a\u001Bb'}, dir), /^delegate_task: role\b.*one line without control characters/);
	assert.match(await inputError('delegate_task', {task: 't', role: 'r'.repeat(65)}, dir), /^delegate_task: role\b.*at most 64 characters/);
	assert.match(await inputError('delegate_task', {task: 'x'.repeat(20_001)}, dir), /^delegate_task: task\b.*at most 20000 bytes/);
});
