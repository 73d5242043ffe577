import assert from 'node:assert/strict';
import {test} from 'node:test';
import {mentionAtCaret, mentionText, parseMentions} from '../../source/core/mentions/parse-mentions.js';

const paths = (text: string) => parseMentions(text).mentions.map(mention => mention.path);

test('a mention is an @ at a word start followed by a path', () => {
	assert.deepEqual(paths('look at @src/a.ts and @b.md'), ['src/a.ts', 'b.md']);
	assert.deepEqual(paths('@a.txt'), ['a.txt']);
	assert.deepEqual(paths('(see @a.txt)'), ['a.txt']);
	assert.deepEqual(paths('"@a.txt"'), ['a.txt']);
	assert.deepEqual(paths('line one\n@next/line.txt'), ['next/line.txt']);
});

test('an @ inside a word is never a mention: e-mail addresses, handles in words', () => {
	assert.deepEqual(paths('mail me@example.com today'), []);
	assert.deepEqual(paths('x@y and `@code`'), []);
	assert.deepEqual(paths('@ alone, and @'), []);
});

test('@types/node is a candidate; whether it names a file is decided on send', () => {
	assert.deepEqual(paths('install @types/node'), ['types/node']);
});

test('trailing punctuation is not part of the path', () => {
	assert.deepEqual(paths('read @a.txt.'), ['a.txt']);
	assert.deepEqual(paths('read @a.txt, @b.txt; @c.txt: @d.txt! @e.txt? (@f.txt)'), ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt']);
	assert.deepEqual(paths('@dir/sub/.'), ['dir/sub/']);
	assert.deepEqual(paths('@...'), []);
});

test('a quoted mention takes white space up to the closing quote on its line', () => {
	assert.deepEqual(paths('open @"my notes/a b.txt", please'), ['my notes/a b.txt']);
	// An unclosed or empty quote is no mention at all: nothing half-named is attached.
	assert.deepEqual(paths('@"unclosed path'), []);
	assert.deepEqual(paths('@"a\nb"'), []);
	assert.deepEqual(paths('@""'), []);
});

test('offsets point into the text sent', () => {
	const parsed = parseMentions('x @a.txt.');
	assert.equal(parsed.text, 'x @a.txt.');
	assert.deepEqual(parsed.mentions, [{start: 2, end: 8, path: 'a.txt'}]);
	assert.equal(parsed.text.slice(2, 8), '@a.txt');
});

test('\\@ at a word start is a plain @: the backslash goes, nothing is a mention', () => {
	const parsed = parseMentions('say \\@a.txt to @b.txt');
	assert.equal(parsed.text, 'say @a.txt to @b.txt');
	assert.deepEqual(
		parsed.mentions.map(mention => [mention.path, parsed.text.slice(mention.start, mention.end)]),
		[['b.txt', '@b.txt']],
	);
	// Inside a word the backslash is the person's own text.
	assert.equal(parseMentions('a\\@b').text, 'a\\@b');
});

test('mentionAtCaret finds the mention being typed', () => {
	assert.deepEqual(mentionAtCaret('look at @sr', 11), {start: 8, query: 'sr', quoted: false});
	assert.deepEqual(mentionAtCaret('@', 1), {start: 0, query: '', quoted: false});
	assert.deepEqual(mentionAtCaret('@"my fo', 7), {start: 0, query: 'my fo', quoted: true});
	assert.equal(mentionAtCaret('look at @src done', 17), null);
	assert.equal(mentionAtCaret('me@exa', 6), null);
	assert.equal(mentionAtCaret('\\@x', 3), null);
	assert.equal(mentionAtCaret('@a\nb', 4), null);
	assert.equal(mentionAtCaret('@"done" x', 7), null);
});

test('mentionText quotes a path with white space or a trailing character a plain mention drops', () => {
	assert.equal(mentionText('src/a.ts'), '@src/a.ts');
	assert.equal(mentionText('my notes/a b.txt'), '@"my notes/a b.txt"');
	assert.equal(mentionText('odd.'), '@"odd."');
	for (const path of ['src/a.ts', 'my notes/a b.txt', 'odd.']) assert.deepEqual(paths(mentionText(path)), [path]);
});
