import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import {EditorText} from '../../source/tui/editor/editor-text.js';
import {forEachCluster, isCertainBoundary} from '../../source/tui/editor/editor-graphemes.js';
import {type Row, TAB_STOP, columnIn, contentWidth, layoutText, offsetAt, rowOf, rowText, viewport, wrapLine} from '../../source/tui/editor/editor-layout.js';

const graphemes = new Intl.Segmenter(undefined, {granularity: 'grapheme'});
const boundaries = (text: string) => new Set([0, ...[...graphemes.segment(text)].map(segment => segment.index + segment.segment.length)]);

const corpus = [
	'你好世界，这是一个中文句子，用来测试换行。日本語のテキストもあります。',
	'👩‍👩‍👧 family 👨‍👩‍👧‍👦 and 👍🏽👍🏿👋🏻 skin tones 🇯🇵🇺🇸🇨🇳 flags 1\uFE0F\u20E3 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
	'cafe\u0301 n\u0303 Z\u0351\u0352\u0353a \u1100\u1161\u11A8\u1100\u1161 한국어 क्षत्रिय नमस्ते',
	'mixed ASCII 与中文 with emoji 😀 and a long word supercalifragilisticexpialidocious then ｆｕｌｌｗｉｄｔｈ',
	'tabs\tand\tcontrols \u001B[31m red \u0007 bell\n\nafter an empty line\n',
].join('\n');

/** The text back from its rows: each logical line is its rows joined, lines joined by newlines. */
function rejoin(text: EditorText, rows: readonly Row[]): string {
	return rows.map(row => text.slice(row.start, row.end) + (row.last && row.end < text.length ? '\n' : '')).join('');
}

test('wrapping at every width from 10 to 120 keeps rows in bounds, clusters whole and the text intact', () => {
	const text = EditorText.of(corpus);
	const clusterEnds = boundaries(corpus);
	for (let width = 10; width <= 120; width++) {
		const geometry = {width, promptWidth: 2};
		const columns = contentWidth(geometry);
		const rows = layoutText(text, geometry);
		assert.equal(rejoin(text, rows), corpus, `width ${width}: the rows give back the text`);
		for (const [index, row] of rows.entries()) {
			assert.ok(row.width <= columns, `width ${width}: row ${index} is ${row.width} columns`);
			assert.ok(geometry.promptWidth + row.width < width, 'the prompt indent and the spare caret column fit');
			assert.equal(stringWidth(rowText(text, row)), row.width, `width ${width}: row ${index} draws as wide as measured`);
			assert.ok(clusterEnds.has(row.start) && clusterEnds.has(row.end), `width ${width}: row ${index} splits a cluster`);
			const next = rows[index + 1];
			// A row ends early only because the next cluster did not fit.
			if (!row.last && next) {
				const nextCluster = [...graphemes.segment(text.slice(next.start, next.end))][0]!.segment;
				// Control characters are drawn as one-column pictures.
				const nextWidth = nextCluster === '\t' ? TAB_STOP - (row.width % TAB_STOP) : stringWidth(nextCluster.replaceAll(/[\u0000-\u001F\u007F]/g, '?'));
				assert.ok(row.width + nextWidth > columns, `width ${width}: row ${index} could have taken ${JSON.stringify(nextCluster)}`);
			}
		}
	}
});

test('every caret position maps to one cell and back, at every width from 10 to 120', () => {
	const text = EditorText.of(corpus);
	const positions = [...boundaries(corpus)].sort((a, b) => a - b);
	for (let width = 10; width <= 120; width++) {
		const rows = layoutText(text, {width, promptWidth: 2});
		const cells = new Set<string>();
		for (const caret of positions) {
			const row = rowOf(rows, caret);
			const column = columnIn(text, rows[row]!, caret);
			assert.ok(column <= contentWidth({width, promptWidth: 2}), 'the caret column stays inside the row');
			assert.equal(offsetAt(text, rows[row]!, column), caret, `width ${width}: caret ${caret} at (${row}, ${column}) maps back`);
			cells.add(`${row}:${column}`);
		}

		assert.equal(cells.size, positions.length, `width ${width}: no two caret positions share a cell`);
	}
});

test('a wide character that does not fit moves whole to the next row', () => {
	// 9 text columns: eight ASCII then 中 (2 columns) cannot share the row.
	const text = EditorText.of('abcdefgh中文');
	const rows = layoutText(text, {width: 12, promptWidth: 2});
	assert.deepEqual(
		rows.map(row => rowText(text, row)),
		['abcdefgh', '中文'],
	);
	assert.equal(rows[0]!.width, 8);
});

test('the caret at the end of a line stays on its row; at a wrap point it starts the next row', () => {
	const full = EditorText.of('abcdefghi'); // exactly 9 text columns
	const fullRows = layoutText(full, {width: 12, promptWidth: 2});
	assert.equal(fullRows.length, 1, 'no empty row after a full last row');
	assert.deepEqual([rowOf(fullRows, 9), columnIn(full, fullRows[0]!, 9)], [0, 9], 'the spare column holds the caret');
	const wrapped = EditorText.of('abcdefghijk');
	const rows = layoutText(wrapped, {width: 12, promptWidth: 2});
	assert.deepEqual([rowOf(rows, 9), columnIn(wrapped, rows[rowOf(rows, 9)]!, 9)], [1, 0]);
});

test('newlines start rows, empty lines are empty rows, a trailing newline adds one', () => {
	const text = EditorText.of('一\n\n二\n');
	const rows = layoutText(text, {width: 40, promptWidth: 2});
	assert.deepEqual(
		rows.map(row => [rowText(text, row), row.start]),
		[
			['一', 0],
			['', 2],
			['二', 3],
			['', 5],
		],
	);
	assert.equal(rowOf(rows, 5), 3);
});

test('tabs reach the next tab stop and control characters are drawn as pictures, never sent', () => {
	const text = EditorText.of('a\tb\u001B[31m\u0007\u007F');
	const [row] = layoutText(text, {width: 40, promptWidth: 2});
	assert.equal(rowText(text, row!), 'a   b␛[31m␇␡');
	assert.equal(row!.width, 12);
});

test('the narrowest widths still lay out every cluster', () => {
	const text = EditorText.of('中a👍🏽\u0301');
	for (let width = 1; width < 10; width++) {
		const rows = layoutText(text, {width, promptWidth: 2});
		assert.equal(rejoin(text, rows), text.toString());
		assert.ok(rows.every(row => row.width <= Math.max(2, contentWidth({width, promptWidth: 2}))));
	}

	assert.equal(contentWidth({width: 500, promptWidth: 2}), 497);
});

test('a long line edited anywhere wraps the same as a fresh copy of the text', () => {
	const unit = 'ascii words 中文字符 👍🏽 e\u0301 ';
	let text = EditorText.of(unit.repeat(2000));
	const fresh = () => wrapLine(EditorText.of(text.toString()), 0, text.length, 37);
	assert.deepEqual(wrapLine(text, 0, text.length, 37), fresh());
	for (const at of [30_000, 100, text.length, 15_000, 0]) {
		text = text.replace(at, at, '字');
		assert.deepEqual(wrapLine(text, 0, text.length, 37), fresh(), `after an insertion at ${at}`);
		// A partial wrap (what a viewport asks for) is a prefix of the whole.
		const partial = wrapLine(text, 0, text.length, 37, {offset: at, rowsAfter: 2});
		assert.deepEqual(partial, fresh().slice(0, partial.length));
		assert.ok(
			partial.some(row => row.start <= at && (at < row.end || row.last)),
			'it reaches the caret row',
		);
	}
});

test('the viewport shows at most maxRows rows around the caret and scrolls only when the caret leaves them', () => {
	const lines = Array.from({length: 30}, (_, index) => `第${index}行 line ${index}`);
	const source = lines.join('\n');
	const text = EditorText.of(source);
	const geometry = {width: 40, promptWidth: 2};
	const end = viewport(text, text.length, geometry, 5, null);
	assert.deepEqual(
		end.rows.map(row => rowText(text, row)),
		lines.slice(25),
	);
	assert.deepEqual([end.caretRow, end.hiddenAbove, end.hiddenBelow], [4, true, false]);
	// The caret moving up inside the view keeps it still; past its top, the view follows.
	const inside = viewport(text, source.indexOf('第26行'), geometry, 5, end.top);
	assert.equal(inside.top, end.top);
	assert.equal(inside.caretRow, 1);
	const above = viewport(text, source.indexOf('第24行'), geometry, 5, inside.top);
	assert.deepEqual([rowText(text, above.rows[0]!), above.caretRow, above.hiddenBelow], [lines[24], 0, true]);
	const start = viewport(text, 0, geometry, 5, null);
	assert.deepEqual([start.caretRow, start.hiddenAbove, start.hiddenBelow, start.rows.length], [0, false, true, 5]);
});

test('a 1 MB paste is viewed through a few rows with the caret on the last one', () => {
	const line = 'const 变量 = "值"; // 注释 👍🏽 and more words to wrap the line\n';
	const source = line.repeat(Math.ceil(1_000_000 / line.length)) + 'end';
	const text = EditorText.of(source);
	const view = viewport(text, text.length, {width: 30, promptWidth: 2}, 8, null);
	assert.equal(view.rows.length, 8);
	assert.equal(view.caretRow, 7);
	assert.equal(rowText(text, view.rows[7]!), 'end');
	assert.equal(view.caretColumn, 3);
	const oneLine = source.replaceAll('\n', ' ');
	const caret = oneLine.indexOf(' ', 500_000);
	const middle = viewport(EditorText.of(oneLine), caret, {width: 30, promptWidth: 2}, 8, null);
	assert.equal(middle.rows.length, 8);
	assert.ok(middle.hiddenAbove && middle.hiddenBelow);
	const caretRow = middle.rows[middle.caretRow]!;
	assert.ok(caretRow.start <= caret && caret < caretRow.end);
});

test('clusters agree with Intl.Segmenter; text is only ever cut where it says there is a boundary', () => {
	const segmented = (text: string) => [...graphemes.segment(text)].map(segment => segment.index + segment.segment.length);
	const ours = (text: string) => {
		const ends: number[] = [];
		forEachCluster(text, 0, text.length, (_, end) => {
			ends.push(end);
		});
		return ends;
	};

	// Every BMP character after and before ASCII, a mark, an emoji, Hangul jamo and a newline.
	for (let code = 0; code <= 0xffff; code++) {
		if (code >= 0xd800 && code <= 0xdfff) continue;
		const c = String.fromCharCode(code);
		const text = `a${c}\u0301👍${c}\u1161${c}\n${c}a\u1100${c}${c}`;
		const ends = new Set(segmented(text));
		for (let index = 1; index < text.length; index++) {
			if (isCertainBoundary(text, index) && !ends.has(index)) assert.fail(`U+${code.toString(16)}: ${index} in ${JSON.stringify(text)} is no boundary`);
		}
	}

	// biome-ignore format: one line of characters, read as an alphabet.
	const alphabet = ['a', ' ', '\n', '\r', '\t', '你', '。', '한', '\u1100', '\u1161', '\u11A8', 'e', '\u0301', '👩', '\u200D', '👧', '👍', '🏽', '🇯', '🇵', '\u0915', '\u094D', '\u0937', '\u0600', '\uFE0F', '\u{E0067}', '\u{1F3F4}', 'ｱ', '\uFF9E', 'ー'];
	let state = 7;
	const random = (limit: number) => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state % limit;
	};

	for (let round = 0; round < 300; round++) {
		let source = '';
		const length = round % 50 === 0 ? 3000 : 1 + random(60);
		for (let index = 0; index < length; index++) source += alphabet[random(alphabet.length)];
		assert.deepEqual(ours(source), segmented(source), JSON.stringify(source));
		const text = EditorText.of(source);
		const width = 10 + random(40);
		const rows = layoutText(text, {width, promptWidth: 2});
		assert.equal(rejoin(text, rows), source);
		const ends = new Set([0, ...segmented(source)]);
		for (const row of rows) assert.ok(ends.has(row.start) && ends.has(row.end), `a row splits a cluster in ${JSON.stringify(source)} at width ${width}`);
	}
});

test('chunked wrapping of long emoji-only and flag-only lines never splits a cluster', () => {
	for (const source of ['👍🏽'.repeat(3000), 'a' + '🇯🇵'.repeat(3000), '👩‍👩‍👧'.repeat(1500), 'e\u0301'.repeat(5000)]) {
		const text = EditorText.of(source);
		const rows = wrapLine(text, 0, text.length, 41);
		const ends = new Set([0, ...[...graphemes.segment(source.slice(0, 9000))].map(segment => segment.index + segment.segment.length)]);
		for (const row of rows.filter(row => row.end < 9000)) assert.ok(ends.has(row.end), `a row ends inside a cluster of ${JSON.stringify(source.slice(0, 12))}`);
		assert.equal(rows.map(row => text.slice(row.start, row.end)).join(''), source);
	}
});
