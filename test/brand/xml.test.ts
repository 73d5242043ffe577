import {test} from 'node:test';
import assert from 'node:assert/strict';
import {parseXml} from './xml.js';

// The SVG check is only as good as this reader's refusals.
test('the XML reader accepts a well-formed document and decodes it', () => {
	const root = parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><a x="1 &amp; 2" y=\'&#x3C;\'><b/>t&lt;<![CDATA[<raw>]]><?pi data?></a>\n');
	assert.equal(root.name, 'a');
	assert.deepEqual(root.attributes, {x: '1 & 2', y: '<'});
	assert.deepEqual(root.children, [{name: 'b', attributes: {}, children: []}, 't<', '<raw>']);
});

for (const [why, text] of [
	['mismatched end tag', '<a><b></a></b>'],
	['unclosed element', '<a><b/>'],
	['duplicate attribute', '<a x="1" x="2"/>'],
	['unquoted attribute', '<a x=1/>'],
	['attributes run together', '<a x="1"y="2"/>'],
	['bare ampersand', '<a>fish & chips</a>'],
	['unknown entity', '<a>&nbsp;</a>'],
	['"<" in an attribute', '<a x="<"/>'],
	['two roots', '<a/><b/>'],
	['text after the root', '<a/>tail'],
	['no root', '<!-- only a comment -->'],
	['"--" in a comment', '<a><!-- a -- b --></a>'],
	['declaration not first', ' <?xml version="1.0"?><a/>'],
	['DOCTYPE', '<!DOCTYPE a><a/>'],
	['control character', '<a>\u0001</a>'],
	['reference to a control character', '<a>&#1;</a>'],
	['"]]>" in text', '<a>]]></a>'],
] as const) {
	test(`the XML reader rejects: ${why}`, () => {
		assert.throws(() => parseXml(text), /not well-formed XML/);
	});
}
