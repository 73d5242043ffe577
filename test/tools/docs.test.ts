import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {createDocsTool, DOCS_TOPICS} from '../../source/core/tools/docs.js';
import {ToolInputError} from '../../source/core/tools/types.js';
import {run, tempDir, toolContext} from './helpers.js';

/** The repository, above the compiled tree this test runs in: the tool finds the same package folder. */
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const version = (JSON.parse(readFileSync(`${repository}package.json`, 'utf8')) as {version: string}).version;
const docs = createDocsTool();

test('each topic is its guide from this package, with the version, without asking', async t => {
	const dir = await tempDir(t);
	for (const topic of DOCS_TOPICS) {
		const file = `${repository}docs/extensions/${topic}.md`;
		const result = await run(docs, {topic}, toolContext(dir));
		assert.equal(result.ask, null);
		assert.equal(result.output, `i ${version}, docs topic "${topic}" (${file})\n\n${readFileSync(file, 'utf8')}`);
		assert.equal(result.display, `docs ${topic}`);
	}
});

test('an unknown topic is a tool error listing the topics', async t => {
	const dir = await tempDir(t);
	await assert.rejects(docs.plan({topic: 'api'}, toolContext(dir)), new ToolInputError('docs: topic must be one of "authoring", "debugging", "agent"'));
	// zod reads a missing enum as a wrong value: the same list.
	await assert.rejects(docs.plan({}, toolContext(dir)), new ToolInputError('docs: topic must be one of "authoring", "debugging", "agent"'));
	await assert.rejects(docs.plan({topic: 'agent', page: 2}, toolContext(dir)), new ToolInputError('docs: unknown field "page"'));
});

test('a section is its heading to the next one of its level or above; an unknown one lists the headings', async t => {
	const dir = await tempDir(t);
	const guide = readFileSync(`${repository}docs/extensions/authoring.md`, 'utf8');
	const tools = await run(docs, {topic: 'authoring', section: 'tools'}, toolContext(dir));
	const body = tools.output.slice(tools.output.indexOf('\n\n') + 2);
	assert.ok(body.startsWith('## Tools\n'), body.slice(0, 40));
	const start = guide.indexOf('## Tools\n');
	assert.equal(body, `${guide.slice(start, guide.indexOf('\n## ', start) + 1).trimEnd()}\n`);
	// A level-3 section ends at the next heading of any level up to 3.
	const fired = await run(docs, {topic: 'authoring', section: 'The events this version fires'}, toolContext(dir));
	assert.match(fired.output, /\| `SessionStart` \| advisory \|/);
	assert.doesNotMatch(fired.output, /## Next/);
	await assert.rejects(
		docs.plan({topic: 'authoring', section: 'Nope'}, toolContext(dir)).then(async plan => plan.run()),
		(error: Error) => {
			assert.ok(error instanceof ToolInputError);
			const all = [...guide.matchAll(/^#{2,3} (.+)$/gm)].map(match => JSON.stringify(match[1]));
			assert.ok(all.length > 3);
			assert.equal(error.message, `docs: the authoring guide has no section "Nope"; its sections are ${all.join(', ')}`);
			return true;
		},
	);
});

test('a guide longer than the output limit is cut at a line, saying how to read the rest', async t => {
	const dir = await tempDir(t);
	const limit = 2000;
	const result = await run(docs, {topic: 'authoring'}, toolContext(dir, {outputLimit: limit}));
	assert.ok(result.output.length <= limit, `${result.output.length} characters`);
	const guide = readFileSync(`${repository}docs/extensions/authoring.md`, 'utf8');
	const sections = [...guide.matchAll(/^## (.+)$/gm)].map(match => JSON.stringify(match[1]));
	assert.ok(result.output.endsWith(`\n… cut at the output limit, ${guide.length} characters in all; read the rest one section at a time: ${sections.join(', ')}`), result.output.slice(-400));
	const kept = result.output.slice(0, result.output.indexOf('\n… cut'));
	assert.ok(guide.startsWith(kept.slice(kept.indexOf('\n\n') + 2)));
});
