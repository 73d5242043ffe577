import {test} from 'node:test';
import assert from 'node:assert/strict';
import {matchLines} from '../../source/core/tools/match-lines.js';

/** What a line-by-line scan finds, without any whole-text shortcut: the reference. */
function reference(regex: RegExp, texts: string[]): Array<[number, number]> {
	const found: Array<[number, number]> = [];
	for (const [text, content] of texts.entries()) {
		for (const [index, raw] of content.split('\n').entries()) {
			const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
			if (regex.test(line)) found.push([text, index + 1]);
		}
	}

	return found;
}

const texts = ['alpha\nbeta gamma\n  indented line\nend', 'no match here\nnor here', 'windows line\r\nends with CR\r\nbeta\r\n', 'Beta in capitals\nsecond', 'foo\nbar\nfoobar\n', '', 'x foo\nbar'];

test('the whole-text shortcut finds exactly what a line-by-line scan finds: anchors, CRLF, case, lookarounds, classes', () => {
	const patterns = [/beta/, /^beta/, /gamma$/, /CR$/, /^\s+indented/, /beta/i, /foo(?!bar)/, /foo(?!\nbar)/, /(?<=foo)bar/, /(?<=foo\n)bar/, /^$/, /[^a-z]/, /\bbar\b/, /o\s*b/, /line$/, /e$/m];
	for (const regex of patterns) {
		const got = matchLines(regex, texts, 1000).matches.map(match => [match.text, match.line]);
		assert.deepEqual(got, reference(regex, texts), String(regex));
	}
});

test('matches stop at the limit; a long line is skipped and counted', () => {
	assert.equal(matchLines(/a/, ['a\na\na\na'], 2).matches.length, 2);
	const result = matchLines(/x/, [`${'x'.repeat(10_001)}\nx`], 10);
	assert.deepEqual(
		result.matches.map(match => match.line),
		[2],
	);
	assert.equal(result.longLinesSkipped, 1);
});
