import {test} from 'node:test';
import assert from 'node:assert/strict';
import {PIECE} from '../../source/tui/editor/editor-text.js';
import {
	type EditorState,
	backspace,
	createEditor,
	deleteForward,
	deleteWordBefore,
	historyNext,
	historyPrevious,
	insert,
	killToLineEnd,
	killToLineStart,
	lineEnd,
	lineStart,
	moveDown,
	moveLeft,
	moveRight,
	moveUp,
	setText,
	submit,
	textOf,
	wordLeft,
	wordRight,
} from '../../source/tui/editor/editor-model.js';

const graphemes = new Intl.Segmenter(undefined, {granularity: 'grapheme'});
const clusters = (text: string) => [...graphemes.segment(text)].map(segment => segment.segment);
/** Every cluster boundary of `text`, 0 and the end included. */
const boundaries = (text: string) => [0, ...[...graphemes.segment(text)].map(segment => segment.index + segment.segment.length)];

const corpus: Record<string, string> = {
	cjk: '你好世界，中文输入法。',
	family: '👩‍👩‍👧 family 👨‍👩‍👧‍👦',
	skinTones: '👍🏽👍🏿 ok 👋🏻',
	flags: '🇯🇵🇺🇸🇨🇳',
	combining: 'e\u0301te\u0301 cafe\u0301 n\u0303',
	hangul: '\u1100\u1161\u11A8\u1100\u1161 한국어',
	devanagari: 'क्षत्रिय नमस्ते',
	keycapAndTags: '1\uFE0F\u20E3 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
	mixed: 'abc 你好 👩‍👩‍👧 e\u0301 🇯🇵 한 xyz',
	stackedMarks: 'Z\u0351\u0352\u0353\u0354a',
};

const at = (text: string, caret: number, history: string[] = []): EditorState => ({...createEditor(history, text), caret});
const geometry = {width: 12, promptWidth: 2}; // 9 text columns

for (const [name, text] of Object.entries(corpus)) {
	test(`right and left step over whole clusters: ${name}`, () => {
		const expected = boundaries(text);
		let state = at(text, 0);
		const rightward = [0];
		while (state.caret < text.length) {
			state = moveRight(state);
			rightward.push(state.caret);
		}

		assert.deepEqual(rightward, expected);
		const leftward = [state.caret];
		while (state.caret > 0) {
			state = moveLeft(state);
			leftward.push(state.caret);
		}

		assert.deepEqual(leftward, expected.toReversed());
	});

	test(`backspace and delete remove one cluster at a time: ${name}`, () => {
		const parts = clusters(text);
		let state = at(text, text.length);
		for (let count = parts.length - 1; count >= 0; count--) {
			state = backspace(state);
			assert.equal(textOf(state), parts.slice(0, count).join(''));
			assert.equal(state.caret, textOf(state).length);
		}

		assert.equal(backspace(state), state, 'backspace at the start changes nothing');
		state = at(text, 0);
		for (let count = 1; count <= parts.length; count++) {
			state = deleteForward(state);
			assert.equal(textOf(state), parts.slice(count).join(''));
			assert.equal(state.caret, 0);
		}
	});

	test(`insertion between any two clusters keeps both whole: ${name}`, () => {
		const parts = clusters(text);
		for (let index = 0; index <= parts.length; index++) {
			const before = parts.slice(0, index).join('');
			const state = insert(at(text, before.length), 'X');
			assert.equal(textOf(state), before + 'X' + parts.slice(index).join(''));
			assert.equal(state.caret, before.length + 1);
		}
	});
}

test('a combining mark typed after its base joins it; the caret never lands inside a cluster', () => {
	const accented = insert(at('cafe', 4), '\u0301');
	assert.equal(textOf(accented), 'cafe\u0301');
	assert.equal(moveLeft(accented).caret, 3, 'é is one step');
	// A base typed before a lone mark takes the mark: the caret moves past the new cluster.
	const joined = insert(at('x\u0301', 0), 'a');
	assert.equal(textOf(joined), 'ax\u0301');
	assert.equal(joined.caret, 1);
	const taken = insert(at('\u0301', 0), 'a');
	assert.equal(taken.caret, 2);
	// Deleting what stood between two regional indicators makes a flag: the caret moves to its start.
	const flag = backspace(at('🇯x🇵', 3));
	assert.equal(textOf(flag), '🇯🇵');
	assert.equal(flag.caret, 0);
});

test('insert turns CR LF and lone CR into newlines', () => {
	assert.equal(textOf(insert(createEditor(), 'a\r\nb\rc\nd')), 'a\nb\nc\nd');
	const empty = createEditor();
	assert.equal(insert(empty, ''), empty);
});

test('home and end go to the ends of the logical line', () => {
	const text = 'first line\n第二行文字\nthird';
	const middle = at(text, text.indexOf('行'));
	assert.equal(lineStart(middle).caret, text.indexOf('第'));
	assert.equal(lineEnd(middle).caret, text.indexOf('\nthird'));
	assert.equal(lineStart(at(text, 3)).caret, 0);
	assert.equal(lineEnd(at(text, text.length - 1)).caret, text.length);
});

test('word jumps use dictionary words for CJK and stop at word ends', () => {
	const text = '你好世界，hello world';
	const starts: number[] = [];
	for (let state = at(text, text.length); state.caret > 0; ) {
		state = wordLeft(state);
		starts.push(state.caret);
	}

	assert.deepEqual(starts, [text.indexOf('world'), text.indexOf('hello'), text.indexOf('世界'), 0]);
	const ends: number[] = [];
	for (let state = at(text, 0); state.caret < text.length; ) {
		state = wordRight(state);
		ends.push(state.caret);
	}

	assert.deepEqual(ends, [2, 4, text.indexOf(' world'), text.length]);
	// Emoji and marks inside words are never split.
	assert.equal(wordLeft(at('cafe\u0301 👍🏽', 'cafe\u0301 👍🏽'.length)).caret, 0);
});

test('Ctrl-W deletes the word before the caret and the blanks after it', () => {
	let state = at('你好世界，hello world  ', '你好世界，hello world  '.length);
	state = deleteWordBefore(state);
	assert.equal(textOf(state), '你好世界，hello ');
	state = deleteWordBefore(state);
	assert.equal(textOf(state), '你好世界，');
	state = deleteWordBefore(state);
	assert.equal(textOf(state), '你好');
	state = deleteWordBefore(deleteWordBefore(state));
	assert.equal(textOf(state), '');
});

test('Ctrl-K and Ctrl-U kill to the ends of the logical line, and join lines at its ends', () => {
	const text = 'one 一\ntwo 二\nthree';
	const inSecond = at(text, text.indexOf(' 二'));
	assert.equal(textOf(killToLineEnd(inSecond)), 'one 一\ntwo\nthree');
	assert.equal(textOf(killToLineStart(inSecond)), 'one 一\n 二\nthree');
	assert.equal(killToLineStart(inSecond).caret, text.indexOf('two'));
	assert.equal(textOf(killToLineEnd(at(text, text.indexOf('\nthree')))), 'one 一\ntwo 二three');
	assert.equal(textOf(killToLineStart(at(text, text.indexOf('three')))), 'one 一\ntwo 二three');
	assert.equal(textOf(killToLineEnd(at(text, text.length))), text);
	assert.equal(textOf(killToLineStart(at(text, 0))), text);
});

test('up and down move between wrapped rows and lines keeping the display column', () => {
	// 9 text columns: "abcdefghijkl" wraps after i; wide characters take two.
	const text = 'abcdefghijkl\n你好世界\nxy';
	let state = at(text, text.indexOf('d')); // column 3 on the first row
	state = moveDown(state, geometry);
	assert.equal(state.caret, text.indexOf('\n'), 'row 2 of the same line is shorter: its end');
	state = moveDown(state, geometry);
	assert.equal(state.caret, text.indexOf('好'), 'column 3 falls inside 好: the caret stops before it');
	state = moveDown(state, geometry);
	assert.equal(state.caret, text.length, 'xy is shorter: its end');
	state = moveUp(state, geometry);
	assert.equal(state.caret, text.indexOf('好'), 'the goal column 3 is kept across the short line');
	state = moveUp(state, geometry);
	assert.equal(state.caret, text.indexOf('\n'));
	state = moveUp(state, geometry);
	assert.equal(state.caret, text.indexOf('d'));
	// A wrap point is the start of the next row, so on a row that continues the caret stops before its last cluster.
	assert.equal(moveUp(at(text, text.indexOf('\n')), geometry).caret, text.indexOf('d'));
	assert.equal(moveUp(at('abcdefghijklmnopqr', 18), geometry).caret, 8, 'from column 9 (the spare column of a full row)');
});

test('up on the first row and down on the last row walk the history, keeping the draft', () => {
	let state = at('draft 草稿', 3, ['one', 'two\nlines']);
	state = moveUp(state, geometry);
	assert.equal(textOf(state), 'two\nlines');
	assert.equal(state.caret, 3, 'at the end of the first line: Up again goes further back');
	state = moveUp(state, geometry);
	assert.equal(textOf(state), 'one');
	assert.equal(moveUp(state, geometry), historyPrevious(state));
	assert.equal(textOf(moveUp(state, geometry)), 'one', 'the oldest entry stays');
	state = moveDown(state, geometry);
	assert.equal(textOf(state), 'two\nlines');
	assert.equal(state.caret, 'two\nlines'.length);
	state = moveDown(state, geometry);
	assert.equal(textOf(state), 'draft 草稿');
	assert.equal(moveDown(state, geometry), historyNext(state), 'past the draft nothing happens');
	assert.equal(textOf(moveDown(state, geometry)), 'draft 草稿');
});

test('editing a history entry makes it the draft', () => {
	let state = historyPrevious(at('', 0, ['old']));
	state = insert(state, '!');
	assert.equal(historyNext(state), state);
	state = historyPrevious(state);
	assert.equal(textOf(state), 'old');
	assert.equal(textOf(historyNext(state)), 'old!');
});

test('submit returns the text, clears the editor and records the text once', () => {
	const first = submit(insert(createEditor(['earlier']), '你好\n世界'));
	assert.equal(first.text, '你好\n世界');
	assert.equal(textOf(first.state), '');
	assert.deepEqual(first.state.history, ['earlier', '你好\n世界']);
	const repeat = submit(insert(first.state, '你好\n世界'));
	assert.deepEqual(repeat.state.history, ['earlier', '你好\n世界'], 'a repeat of the last entry is not added');
	const blank = submit(insert(repeat.state, '  \n'));
	assert.equal(blank.text, '  \n');
	assert.deepEqual(blank.state.history, ['earlier', '你好\n世界'], 'a blank text is not added');
	assert.equal(textOf(historyPrevious(blank.state)), '你好\n世界');
});

test('the history given to the editor is copied, so later changes to the list do not confuse it', () => {
	const list = ['a'];
	const state = createEditor(list);
	list.push('b');
	assert.equal(textOf(historyPrevious(state)), 'a');
	assert.equal(textOf(historyNext(historyPrevious(state))), '');
});

test('setText replaces the text with the caret at its end', () => {
	const state = setText(at('/he', 1), '/help');
	assert.equal(textOf(state), '/help');
	assert.equal(state.caret, 5);
});

test('an edit in a 1 MB buffer leaves all of it but the piece at the caret shared', () => {
	const line = 'const 变量 = "值"; // 注释 👍🏽\n';
	const big = line.repeat(Math.ceil(1_000_000 / line.length));
	let state = insert(createEditor(), big);
	assert.equal(textOf(state), big);
	const middle = big.indexOf('👍🏽', 500_000);
	state = {...state, caret: middle};
	const edited = insert(state, '字');
	assert.ok(edited.text.sharedPrefix(state.text) >= middle - PIECE, 'only the piece holding the caret is copied');
	assert.equal(textOf(edited), big.slice(0, middle) + '字' + big.slice(middle));
	assert.equal(textOf(backspace(edited)), big);
	assert.equal(moveRight(edited).caret, middle + 1 + '👍🏽'.length);
	assert.equal(lineStart(edited).caret, big.lastIndexOf('\n', middle) + 1);
	assert.equal(wordLeft(edited).caret, middle, '字 is a word');
	assert.equal(wordLeft(wordLeft(edited)).caret, big.lastIndexOf('注释', middle));
});
