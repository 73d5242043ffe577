import assert from 'node:assert/strict';
import {test} from 'node:test';
import {FrontMatterError, parseSkillFile} from '../../workers/skills/front-matter.js';
import {checkSkillFields} from '../../workers/skills/skill-schema.js';
import {MAX_YAML_ALIAS_COUNT} from '../../workers/skills/limits.js';

const parse = async (text: string) => parseSkillFile(text, 'S.md');

/** Rejects with a FrontMatterError whose message matches `pattern`. */
async function refused(text: string, pattern: RegExp): Promise<void> {
	await assert.rejects(parse(text), (error: unknown) => error instanceof FrontMatterError && pattern.test(error.message), JSON.stringify(text.slice(0, 120)));
}

test('skills front matter: a Claude Code SKILL.md (folded description, nested metadata, allowed-tools, quoted strings) is read as YAML', async () => {
	const {fields, lines, body} = await parse(
		[
			'---',
			'name: pdf-tools',
			'description: >',
			'  Extract text and tables from PDF files,',
			'  fill forms. Use when working with PDFs.',
			'allowed-tools: Bash(python3:*), Read, "Write"',
			'license: "Apache-2.0"',
			'version: 1.2',
			'metadata:',
			'  author: {name: Someone, url: "https://example.com"}',
			'  tags:',
			'    - pdf',
			'    - "forms: fill"',
			'  nested:',
			'    deeper: {list: [1, two, null]}',
			'---',
			'',
			'# PDF tools',
		].join('\n'),
	);
	assert.deepEqual(fields, {
		name: 'pdf-tools',
		description: 'Extract text and tables from PDF files, fill forms. Use when working with PDFs.\n',
		'allowed-tools': 'Bash(python3:*), Read, "Write"',
		license: 'Apache-2.0',
		version: 1.2,
		metadata: {author: {name: 'Someone', url: 'https://example.com'}, tags: ['pdf', 'forms: fill'], nested: {deeper: {list: [1, 'two', null]}}},
	});
	assert.deepEqual(lines, {name: 2, description: 3, 'allowed-tools': 6, license: 7, version: 8, metadata: 9});
	assert.equal(body, '# PDF tools');
	// Only the fields i uses are checked; the rest are accepted whatever they hold.
	assert.deepEqual(checkSkillFields(fields, lines), {fields});
});

test('skills front matter: YAML 1.2 core scalars, a BOM and CRLF line ends; an empty front matter has no keys', async () => {
	const {fields, lines, body} = await parse(['\uFEFF---', 'plain: hello # a comment', 'yes: yes', 'int: 0x1F', 'nothing: ~', "single: 'it''s'", '---', '', 'text'].join('\r\n'));
	assert.deepEqual(fields, {plain: 'hello', yes: 'yes', int: 31, nothing: null, single: "it's"});
	assert.equal(lines.int, 4);
	assert.equal(body, 'text');
	assert.deepEqual((await parse('---\n---\nbody')).fields, {});
	assert.deepEqual((await parse('---\n# only a comment\n---\nbody')).fields, {});
});

test('skills front matter: what cannot be read is an error naming the file and, where it can, the line', async () => {
	await refused('# Just markdown\n', /^S\.md line 1: a SKILL\.md must start with YAML front matter/);
	await refused('\n---\nx: 1\n---\n', /^S\.md line 1: a SKILL\.md must start with YAML front matter/);
	await refused('---\nname: x\n', /^S\.md line 1: the front matter opened by "---" is never closed/);
	await refused('---\nname: x\ndescription: "unclosed\n---\n', /^S\.md line 3: the front matter is not valid YAML: Missing closing "quote/);
	await refused('---\nname: x\nname: y\n---\n', /^S\.md line 3: the front matter is not valid YAML: Map keys must be unique/);
	await refused('---\nname: x\n\tdescription: d\n---\n', /^S\.md line 3: the front matter is not valid YAML/);
	await refused('---\n- a\n- b\n---\n', /^S\.md: the front matter must be a map of "key: value" lines, not a list$/);
	await refused('---\njust text\n---\n', /^S\.md: the front matter must be a map of "key: value" lines, not a single value$/);
	await refused('---\nx: *nowhere\n---\n', /^S\.md: the front matter cannot be read as YAML \(Unresolved alias/);
});

test('skills front matter: tags outside the core schema are refused, never resolved (no !!js, no YAML 1.1 types, no local tags)', async () => {
	await refused('---\nname: x\nrun: !!js/function "function () {}"\n---\n', /^S\.md line 3: the front matter is not valid YAML: Unresolved tag: tag:yaml\.org,2002:js\/function/);
	await refused('---\nname: x\ndata: !!binary aGVsbG8=\n---\n', /^S\.md line 3: .*Unresolved tag: tag:yaml\.org,2002:binary/);
	await refused('---\nname: x\nset: !!set {a, b}\n---\n', /^S\.md line 3: .*Unresolved tag/);
	await refused('---\nname: !custom x\n---\n', /^S\.md line 2: .*Unresolved tag: !custom/);
	// The core schema's own tags are fine.
	assert.deepEqual((await parse('---\nn: !!str 12\n---\n')).fields, {n: '12'});
});

test(`skills front matter: aliases expand to at most ${MAX_YAML_ALIAS_COUNT} by yaml's count; one past, and an alias bomb, are refused`, async () => {
	// The anchor counts one: with it, MAX - 1 aliases of a plain value are the limit.
	const aliases = (count: number) => `---\nname: &n x\nmore: [${Array.from({length: count}, () => '*n').join(', ')}]\n---\n`;
	const {fields} = await parse(aliases(MAX_YAML_ALIAS_COUNT - 1));
	assert.equal((fields.more as unknown[]).length, MAX_YAML_ALIAS_COUNT - 1);
	await refused(aliases(MAX_YAML_ALIAS_COUNT), /^S\.md: its aliases expand past 100 nodes \(an alias bomb\?\); write the values out$/);
	// Nine levels of nine: 9^9 (387,420,489) copies if expanded.
	const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
	for (let level = 1; level < 9; level++) {
		const previous = String.fromCharCode(96 + level);
		levels.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array.from({length: 9}, () => `*${previous}`).join(', ')}]`);
	}

	// Refused before expanding: expanded, it would not fit in memory.
	await refused(['---', 'name: bomb', ...levels, '---', ''].join('\n'), /aliases expand past 100 nodes/);
});

test('skills front matter: nesting as deep as 64000 bytes allow is read or refused, never a crash', async () => {
	const depth = 31_990;
	const flow = `---\nx: ${'['.repeat(depth)}${']'.repeat(depth)}\n---\n`;
	assert.ok(Buffer.byteLength(flow) <= 64_000);
	await parse(flow).then(
		result => assert.ok(result.fields),
		(error: unknown) => assert.ok(error instanceof FrontMatterError, String(error)),
	);
});

test('skills front matter: only name and description are checked, each with its line', async () => {
	const check = async (text: string) => {
		const {fields, lines} = await parse(text);
		const checked = checkSkillFields(fields, lines);
		return 'error' in checked ? checked.error : 'ok';
	};

	assert.equal(await check('---\nname: x\ndescription: d\nmetadata: [a]\nallowed-tools: {a: b}\nlicense: ~\n---\n'), 'ok');
	assert.equal(await check('---\ndescription: d\n---\n'), 'missing required key "name"');
	assert.equal(await check('---\nname: x\n---\n'), 'missing required key "description"');
	assert.equal(await check('---\nname: 123\ndescription: d\n---\n'), '"name" (line 2) must be text, got a number (123)');
	assert.equal(await check('---\nname: x\ndescription:\n  - a\n---\n'), '"description" (line 3) must be text, got a list');
	assert.equal(await check('---\nname: x\ndescription: true\n---\n'), '"description" (line 3) must be text, got a boolean (true)');
	assert.equal(await check('---\nname: x\ndescription:\n---\n'), '"description" (line 3) must be text, got null');
	assert.equal(await check('---\nname: x\ndescription: {a: b}\n---\n'), '"description" (line 3) must be text, got a map');
});
