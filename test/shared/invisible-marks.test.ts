// What runs is what is shown (docs/approvals.md): bidi and invisible
// characters become marks such as ⟨U+202E⟩ (source/shared/invisible-marks.ts),
// control characters U+FFFD (printable), and right-to-left letters and emoji
// stay as they are.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {invisibleMark, markInvisible} from '../../source/shared/invisible-marks.js';
import {printable, printableExact} from '../../source/shared/output.js';
import {summariseArguments} from '../../source/shared/summarise-arguments.js';

const hex = (codePoint: number) => codePoint.toString(16).toUpperCase().padStart(4, '0');

test('every bidi embedding, override, isolate and mark is shown as its code point', () => {
	const codePoints = [0x20_2a, 0x20_2b, 0x20_2c, 0x20_2d, 0x20_2e, 0x20_66, 0x20_67, 0x20_68, 0x20_69, 0x20_0e, 0x20_0f, 0x06_1c];
	for (const codePoint of codePoints) {
		const character = String.fromCodePoint(codePoint);
		assert.equal(markInvisible(`a${character}b`), `a⟨U+${hex(codePoint)}⟩b`, `U+${hex(codePoint)}`);
	}
});

test('zero-width and other invisible characters are shown; the tag characters and the far variation selectors too', () => {
	const codePoints = [0x20_0b, 0x20_0c, 0x20_0d, 0x20_60, 0xfe_ff, 0x00_ad, 0x20_28, 0x20_29, 0x31_64, 0xe_00_01, 0xe_00_41, 0xe_00_7f, 0xe_01_00, 0xe_01_ef];
	for (const codePoint of codePoints) {
		const character = String.fromCodePoint(codePoint);
		assert.equal(markInvisible(`x${character}y`), `x⟨U+${hex(codePoint)}⟩y`, `U+${hex(codePoint)}`);
	}

	assert.equal(invisibleMark('\u{E0041}'), '⟨U+E0041⟩', 'five hex digits past the Basic Multilingual Plane');
	// Just past the ranges: a visible character on each side is left alone.
	assert.equal(markInvisible('\u2065\u206A'), '\u2065⟨U+206A⟩', 'U+2065 is unassigned and drawn as is; U+206A is a format character');
	assert.equal(markInvisible('\u{E01F0}\uFE0F'), '\u{E01F0}\uFE0F', 'past the variation selectors, and the emoji selector, stay');
});

test('the issue 43 command shows its override where it runs', () => {
	const command = 'echo cleanup-temp-files #\u202E; rm -rf ./build';
	assert.equal(printableExact(`Run: ${command}`), 'Run: echo cleanup-temp-files #⟨U+202E⟩; rm -rf ./build');
});

test('right-to-left letters stay as they are; only the characters that reorder them are marked', () => {
	assert.equal(markInvisible('echo שלום עולם'), 'echo שלום עולם');
	assert.equal(markInvisible('echo مرحبا بالعالم'), 'echo مرحبا بالعالم');
	assert.equal(markInvisible('\u202Bשלום\u202C'), '⟨U+202B⟩שלום⟨U+202C⟩');
	assert.equal(markInvisible('plain ASCII, 中文, ñ'), 'plain ASCII, 中文, ñ');
});

test('a joiner inside an emoji sequence stays; one between letters or at an edge is marked', () => {
	for (const emoji of ['👨\u200D👩\u200D👧', '🏳\uFE0F\u200D🌈', '🧑🏽\u200D💻', '❤\uFE0F\u200D🔥', '🏃\u200D♀\uFE0F']) {
		assert.equal(markInvisible(`git commit -m "${emoji}"`), `git commit -m "${emoji}"`, emoji);
	}

	assert.equal(markInvisible('rm\u200D -rf'), 'rm⟨U+200D⟩ -rf');
	assert.equal(markInvisible('👨\u200Da'), '👨⟨U+200D⟩a', 'a letter after it');
	assert.equal(markInvisible('a\u200D👩'), 'a⟨U+200D⟩👩', 'a letter before it');
	assert.equal(markInvisible('\u200D👩'), '⟨U+200D⟩👩', 'at the start');
	assert.equal(markInvisible('👨\u200D'), '👨⟨U+200D⟩', 'at the end');
	assert.equal(markInvisible('👨\u200D\u200D👩'), '👨⟨U+200D⟩⟨U+200D⟩👩', 'two in a row join nothing');
});

test('control characters are U+FFFD, as everywhere on screen; newlines and tabs stay for multi-line details', () => {
	assert.equal(printableExact('a\u001B[2Jb\u0085c'), 'a\uFFFD[2Jb\uFFFDc');
	assert.equal(printableExact('line one\n\tline two'), 'line one\n\tline two');
	assert.equal(printable('\u202E'), '\u202E', 'answers and notices keep bidi characters: only what runs is marked');
});

test("a tool call's one-line summary keeps the byte-order mark for the marks instead of making it a space", () => {
	assert.equal(printableExact(summariseArguments(JSON.stringify({command: '\uFEFFrm  -rf\n./x'}))), 'command: ⟨U+FEFF⟩rm -rf ./x');
});
