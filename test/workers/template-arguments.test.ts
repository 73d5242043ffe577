import assert from 'node:assert/strict';
import {test} from 'node:test';
import {fillTemplate, splitArguments} from '../../workers/prompts/template-arguments.js';

test('template arguments: words and quoted runs; $N, $@, $ARGUMENTS and the ranges from N (of L); missing ones empty', () => {
	// A quote inside a word is part of it.
	assert.deepEqual(splitArguments(` a "b c"  'd e' f"g"`), ['a', 'b c', 'd e', 'f"g"']);
	assert.deepEqual(splitArguments(''), []);
	const args = 'one "two three" four five';
	assert.equal(fillTemplate('$1|$2|$3|$9', args), 'one|two three|four|');
	assert.equal(fillTemplate('[$@] [$ARGUMENTS]', args), '[one two three four five] [one two three four five]');
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the template's own placeholder syntax
	assert.equal(fillTemplate('${@:2} / ${@:2:2} / ${@:9}', args), 'two three four five / two three four / ');
	assert.equal(fillTemplate('$10 and $1', 'a b c d e f g h i j'), 'j and a');
});

test('template arguments: one pass (an argument that looks like a placeholder stays text); without placeholders they follow after a blank line', () => {
	assert.equal(fillTemplate('Say $1.', '$2 x'), 'Say $2.');
	assert.equal(fillTemplate('Review the diff.\n', 'carefully please'), 'Review the diff.\n\ncarefully please');
	assert.equal(fillTemplate('Review the diff.\n', ''), 'Review the diff.\n');
	assert.equal(fillTemplate('Uses $1 only.', ''), 'Uses  only.');
});
