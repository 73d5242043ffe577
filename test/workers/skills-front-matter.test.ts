import assert from 'node:assert/strict';
import {test} from 'node:test';
import {FrontMatterError, parseSkillFile} from '../../workers/skills/front-matter.js';

const parse = (text: string) => parseSkillFile(text, 'S.md');

test('skills front matter: scalars resolve like YAML core (strings, numbers, booleans, null), quotes keep text', () => {
	const {fields, lines, body} = parse(
		[
			'---',
			'plain: hello world # a comment',
			'hash: a#b',
			'int: 42',
			'float: -1.5e3',
			'yes: true',
			'no: False',
			'nothing: ~',
			'quoted: "42"',
			'escaped: "tab\\there \\u00e9 \\"q\\""',
			"single: 'it''s # not a comment'",
			'url: https://example.com/x',
			'---',
			'',
			'# Title',
			'text',
		].join('\r\n'),
	);
	assert.deepEqual(fields, {
		plain: 'hello world',
		hash: 'a#b',
		int: 42,
		float: -1500,
		yes: true,
		no: false,
		nothing: null,
		quoted: '42',
		escaped: 'tab\there é "q"',
		single: "it's # not a comment",
		url: 'https://example.com/x',
	});
	assert.equal(lines.int, 4);
	assert.equal(body, '# Title\ntext', 'CRLF bodies come back with \\n line ends, leading blank lines dropped');
});

test('skills front matter: block scalars, flow and block lists, one-level maps; a BOM is skipped', () => {
	const {fields, body} = parse(
		[
			'\uFEFF---',
			'literal: |',
			'  one',
			'    two',
			'',
			'  three',
			'folded: >-',
			'  a',
			'  b',
			'',
			'  c',
			'flow: [x, "y, z", \'w\']',
			'empty: []',
			'block:',
			'  - first',
			'  - "second: quoted"',
			'map:',
			'  # comment inside',
			'  k1: v1',
			'  k2: "v 2"',
			'---',
			'body',
		].join('\n'),
	);
	assert.deepEqual(fields, {
		literal: 'one\n  two\n\nthree\n',
		folded: 'a b\nc',
		flow: ['x', 'y, z', 'w'],
		empty: [],
		block: ['first', 'second: quoted'],
		map: {k1: 'v1', k2: 'v 2'},
	});
	assert.equal(body, 'body');
});

test('skills front matter: what the subset cannot read is an error naming the file and line', () => {
	const cases: Array<[string, RegExp]> = [
		['---\nlist: [a, [b]]\n---\n', /^S\.md line 2: lists nested in lists are not supported$/],
		['---\nlist: [a, b\n---\n', /^S\.md line 2: the flow list "\[" is never closed/],
		['---\nlist: [a] tail\n---\n', /^S\.md line 2: unexpected text after the flow list/],
		['---\nx: "a" b\n---\n', /^S\.md line 2: unexpected text after the quoted value/],
		['---\nx: "\\q"\n---\n', /^S\.md line 2: unsupported escape "\\q"/],
		['---\nx: !!str a\n---\n', /^S\.md line 2: the YAML feature starting with "!"/],
		['---\nx: *ref\n---\n', /^S\.md line 2: the YAML feature starting with "\*"/],
		['---\nx:\n  - a\n  b: c\n---\n', /^S\.md line 4: expected a "- item" line in the list "x"$/],
		['---\nx:\n  a: b\n  - c\n---\n', /^S\.md line 4: expected "key: value" in the map "x"$/],
		['---\nx:\n  a: 1\n  a: 2\n---\n', /^S\.md line 4: duplicate key "a" in the map "x"$/],
		['---\nx:\n  -\n---\n', /^S\.md line 3: an empty item in the list "x"$/],
		['---\n  x: 1\n---\n', /^S\.md line 2: unexpected indentation/],
		['---\nx: - a\n---\n', /^S\.md line 2: a value cannot start with "- "/],
		['\n---\nx: 1\n---\n', /^S\.md line 1: a SKILL\.md must start with YAML front matter/],
	];
	for (const [text, pattern] of cases) {
		assert.throws(
			() => parse(text),
			(error: unknown) => error instanceof FrontMatterError && pattern.test(error.message),
			JSON.stringify(text),
		);
	}
});
