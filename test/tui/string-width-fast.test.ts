import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import fastWidth, {simpleRanges} from '../../source/tui/string-width-fast.js';

test('every code point of the fast path measures as string-width measures it', () => {
	const wrong: string[] = [];
	let checked = 0;
	for (const [low, high] of simpleRanges) {
		for (let code = low; code <= high; code++) {
			const text = String.fromCodePoint(code);
			checked++;
			if (fastWidth(text) !== stringWidth(text)) wrong.push(`U+${code.toString(16).toUpperCase()} fast ${fastWidth(text)}, string-width ${stringWidth(text)}`);
		}
	}

	assert.deepEqual(wrong, []);
	assert.ok(checked > 30_000, `${checked} code points`);
});

test('the ranges are sorted and disjoint (the lookup stops at the first range above)', () => {
	for (let index = 1; index < simpleRanges.length; index++) assert.ok(simpleRanges[index]![0] > simpleRanges[index - 1]![1]);
});

test('strings: mixed scripts, colours, and everything the fast path leaves to string-width', () => {
	const samples = [
		'',
		'plain ASCII',
		'› Ask i anything · /help',
		'请帮我修复这个错误，好吗？',
		'한국어 텍스트',
		'カタカナとひらがな',
		'Ελληνικά и кириллица',
		'▄▄██▄▄ ⠋ ↑12k ↓300 — …',
		'\u001B[36m› \u001B[39m中文\u001B[2m dim\u001B[22m',
		'e\u0301 combining',
		'👍🏽 and 👨‍👩‍👧',
		'tab\tand\ncontrol',
		'\u200B zero width',
		'ｶﾞ halfwidth voiced',
		'\u1100\u1161 jamo',
		'soft\u00ADhyphen',
		'🇯🇵 flag',
		'©️ and © alone',
	];
	for (const sample of samples) assert.equal(fastWidth(sample), stringWidth(sample), JSON.stringify(sample));
	assert.equal(fastWidth('中文', {ambiguousIsNarrow: false}), stringWidth('中文', {ambiguousIsNarrow: false}));
	assert.equal(fastWidth('·', {ambiguousIsNarrow: false}), stringWidth('·', {ambiguousIsNarrow: false}));
	assert.equal(fastWidth('\u001B[31mred\u001B[39m', {countAnsiEscapeCodes: true}), stringWidth('\u001B[31mred\u001B[39m', {countAnsiEscapeCodes: true}));
});
