// The chat screen's Markdown (issue 17 item 1): each element drawn on an
// @xterm/headless screen at 40 and 100 columns, tables fitted with CJK
// counted as two columns, NO_COLOR, OSC 8 on and off, hostile links, and a
// streamed answer drawn the same as a whole one, each block once.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createMarkdownRenderer, LIVE_SOURCE_FACTOR, LONG_PARAGRAPH_LINES} from '../../source/tui/markdown/render-markdown.js';
import {hyperlinksSupported, hyperlinkTarget, MAX_HYPERLINK_BYTES} from '../../source/tui/markdown/hyperlinks.js';
import {markdownOptions} from '../../source/tui/markdown/markdown-options.js';
import stringWidth from '../../source/tui/string-width-fast.js';
import {COLOR, itemRows, onScreen, renderOnScreen, streamThroughStore} from './markdown-screen.js';

const WIDTHS = [40, 100] as const;
const stripAnsi = (text: string) => text.replaceAll(/\u001B\]8;[^\u001B]*\u001B\\|\u001B\[[0-9;]*m/g, '');

/** Every row fits the screen: nothing the terminal would wrap again. */
function assertFits(rows: readonly string[], cols: number): void {
	for (const row of rows) assert.ok(stringWidth(row) <= cols, `row wider than ${cols}: ${JSON.stringify(stripAnsi(row))}`);
}

for (const cols of WIDTHS) {
	test(`headings, emphasis, strikethrough and inline code at ${cols} columns: the marks go, the styles stay`, async () => {
		const markdown = '# Title\n\n## Section\n\n### Small\n\nSome **bold**, *italic*, ~~gone~~ and `npm test` here.';
		const rows = createMarkdownRenderer(COLOR).render(markdown, cols);
		assertFits(rows, cols);
		const screen = await renderOnScreen(markdown, cols);
		assert.deepEqual(screen.rows.slice(0, 6), ['Title', '', 'Section', '', 'Small', '']);
		const line = screen.rows.slice(6).join(' ');
		assert.match(line, /^Some bold, italic, gone and npm test here\.$/);
		const buffer = screen.terminal.buffer.active.getLine(6)!;
		const cellOf = (text: string) => buffer.getCell(screen.rows[6]!.indexOf(text))!;
		assert.ok(cellOf('bold').isBold());
		assert.ok(cellOf('italic').isItalic());
		assert.ok(cellOf('gone').isStrikethrough());
		assert.ok(!cellOf('npm').isFgDefault(), 'inline code in a colour of its own');
		assert.ok(screen.terminal.buffer.active.getLine(0)!.getCell(0)!.isBold(), 'a heading is bold');
	});

	test(`lists at ${cols} columns: nested bullets, numbers from the list's start, task boxes, wrapped items hang under their text`, async () => {
		const long = 'an item long enough to wrap on a narrow screen, since it goes on and on for a while';
		const markdown = `- one\n- ${long}\n  - nested\n    - deeper\n\n3. third\n4. fourth\n\n- [ ] to do\n- [x] done`;
		const rows = createMarkdownRenderer(COLOR).render(markdown, cols);
		assertFits(rows, cols);
		const screen = (await renderOnScreen(markdown, cols)).rows;
		assert.equal(screen[0], '• one');
		assert.ok(screen[1]!.startsWith('• an item'));
		const wrapped = screen.slice(
			1,
			screen.findIndex(row => row.includes('◦ nested')),
		);
		assert.equal(wrapped.map(row => row.replace(/^[• ] /, '')).join(' '), long);
		for (const row of wrapped.slice(1)) assert.ok(row.startsWith('  ') && !row.startsWith('   '), `hangs under the text: ${row}`);
		assert.ok(screen.includes('  ◦ nested'));
		assert.ok(screen.includes('    ▪ deeper'));
		assert.ok(screen.includes('3. third') && screen.includes('4. fourth'));
		assert.ok(screen.includes('[ ] to do') && screen.includes('[x] done'));
	});

	test(`a block quote, a rule and a link at ${cols} columns`, async () => {
		const quote = 'quoted words that run long enough to be wrapped inside the quote on the narrow screen';
		const markdown = `> ${quote}\n\n---\n\nSee [the docs](https://example.com/docs) or <https://example.org>.`;
		const rows = createMarkdownRenderer(COLOR).render(markdown, cols);
		assertFits(rows, cols);
		const screen = (await renderOnScreen(markdown, cols)).rows;
		const quoted = screen.slice(0, screen.indexOf(''));
		assert.ok(quoted.every(row => row.startsWith('│ ')));
		assert.equal(quoted.map(row => row.slice(2)).join(' '), quote);
		assert.ok(screen.includes('─'.repeat(cols)));
		assert.match(screen.slice(screen.lastIndexOf('') + 1).join(' '), /^See the docs \(https:\/\/example\.com\/docs\) or https:\/\/example\.org\.$/);
	});

	test(`fenced code at ${cols} columns: a rule with the language above and one below, the code from column 0, highlighted`, async () => {
		const markdown = '```ts\nconst answer: number = 42; // the answer\n\tif (answer) return;\n```';
		const rows = createMarkdownRenderer(COLOR).render(markdown, cols);
		assertFits(rows, cols);
		const screen = await renderOnScreen(markdown, cols);
		assert.equal(screen.rows[0], `── ts ${'─'.repeat(cols - 6)}`);
		assert.equal(screen.rows[1], 'const answer: number = 42; // the answer');
		assert.equal(screen.rows[2], '    if (answer) return;', 'a tab is spaces to the next stop of 4');
		assert.equal(screen.rows[3], '─'.repeat(cols));
		const line = screen.terminal.buffer.active.getLine(1)!;
		assert.ok(!line.getCell(0)!.isFgDefault(), 'the keyword in a colour');
		assert.notEqual(line.getCell(0)!.getFgColor(), line.getCell(screen.rows[1]!.indexOf('//'))!.getFgColor(), 'the comment in another');
	});

	test(`a table at ${cols} columns: borders, alignment, CJK cells two columns each`, async () => {
		const markdown = '| name | 名前 | n |\n|:--|:-:|--:|\n| alpha | 中文字符 | 1 |\n| beta | 表 | 22 |';
		const rows = createMarkdownRenderer(COLOR).render(markdown, cols);
		assertFits(rows, cols);
		const screen = (await renderOnScreen(markdown, cols)).rows;
		assert.deepEqual(screen, ['┌───────┬──────────┬────┐', '│ name  │   名前   │  n │', '├───────┼──────────┼────┤', '│ alpha │ 中文字符 │  1 │', '│ beta  │    表    │ 22 │', '└───────┴──────────┴────┘']);
	});
}

test('a table wider than the screen is narrowed to fit: cells wrap inside their column, CJK never split across the border', async () => {
	const cell = 'words that need a lot of room to be shown on one line';
	const markdown = `| key | description | 说明 |\n|---|---|---|\n| a | ${cell} | 这是一个很长的中文说明文字需要换行显示 |`;
	const rows = createMarkdownRenderer(COLOR).render(markdown, 40);
	assertFits(rows, 40);
	const screen = (await onScreen(rows, 40)).rows;
	assert.ok(
		screen.every(row => stringWidth(row) === 40),
		'every row of the table is the full width',
	);
	const borders = (row: string) => [...row].map((char, index) => (char === '│' ? stringWidth(row.slice(0, index)) : -1)).filter(at => at >= 0);
	const body = screen.filter(row => row.startsWith('│'));
	for (const row of body) assert.deepEqual(borders(row), borders(body[0]!), `columns line up: ${row}`);
	const column = (index: number) =>
		body
			.slice(1)
			.map(row => row.split('│')[index]!.trim())
			.filter(Boolean);
	assert.equal(column(2).join(' '), cell);
	assert.equal(column(3).join(''), '这是一个很长的中文说明文字需要换行显示');
	// So narrow that not even one column per cell fits: the rows as header: value lines.
	const stacked = (await renderOnScreen('| a | b | c | d |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |', 12)).rows;
	assert.deepEqual(stacked, ['a: 1', 'b: 2', 'c: 3', 'd: 4']);
});

test('a 200-column code line is cut into rows of the screen width, nothing lost; copying its rows gives the line in those pieces', async () => {
	const line = Array.from({length: 20}, (_, index) => `item${String(index).padStart(2, '0')}+`)
		.join('')
		.padEnd(200, '.');
	const markdown = `\`\`\`\n${line}\n\`\`\``;
	for (const cols of WIDTHS) {
		const screen = (await renderOnScreen(markdown, cols)).rows;
		const code = screen.slice(1, -1);
		assert.equal(code.length, Math.ceil(200 / cols));
		assert.equal(code.join(''), line);
	}
});

test('an unclosed fence renders as code so far, framed like a closed one', async () => {
	const closed = (await renderOnScreen('```python\ndef f():\n    return 1\n```', 40)).rows;
	const open = (await renderOnScreen('```python\ndef f():\n    return 1\n', 40)).rows;
	assert.deepEqual(open, closed);
	assert.equal(open[1], 'def f():');
});

test('NO_COLOR: the same rows without a colour; bold and the frame stay', async () => {
	const markdown = '# Title\n\nText with `code`, **bold** and [a link](https://example.com).\n\n```js\nlet x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |';
	for (const cols of WIDTHS) {
		const colored = createMarkdownRenderer(COLOR).render(markdown, cols);
		const plain = createMarkdownRenderer({color: false, hyperlinks: false}).render(markdown, cols);
		assert.deepEqual(plain.map(stripAnsi), colored.map(stripAnsi));
		assert.doesNotMatch(plain.join('\n'), /\u001B\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38)[;m]/, 'no foreground colour code');
		const screen = await onScreen(plain, cols);
		for (let row = 0; row < plain.length; row++) {
			const line = screen.terminal.buffer.active.getLine(row)!;
			for (let cell = 0; cell < cols; cell++) assert.ok(line.getCell(cell)!.isFgDefault(), `row ${row} cell ${cell} in the default colour`);
		}

		assert.ok(screen.terminal.buffer.active.getLine(0)!.getCell(0)!.isBold());
	}

	assert.deepEqual(markdownOptions({NO_COLOR: '1'}), {color: false, hyperlinks: false});
	assert.deepEqual(markdownOptions({NO_COLOR: '', TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20240203-110809-5046fc22'}), {color: true, hyperlinks: true});
	assert.equal(markdownOptions({I_MARKDOWN: '0'}), null);
});

test('OSC 8: links carry their target where the terminal shows hyperlinks; the URL is in the text where it does not', async () => {
	const markdown = 'Read [the guide](https://example.com/guide?a=1&b=2) now.';
	const on = createMarkdownRenderer({color: true, hyperlinks: true}).render(markdown, 100);
	assert.ok(on[0]!.includes('\u001B]8;;https://example.com/guide?a=1&b=2\u001B\\'));
	assert.equal(stripAnsi(on[0]!), 'Read the guide now.');
	const screen = await onScreen(on, 100);
	assert.equal(screen.rows[0], 'Read the guide now.');
	const off = createMarkdownRenderer({color: true, hyperlinks: false}).render(markdown, 100);
	assert.doesNotMatch(off.join(''), /\u001B\]8/);
	assert.equal(stripAnsi(off[0]!), 'Read the guide (https://example.com/guide?a=1&b=2) now.');
	// Only web and mail targets are clickable: anything else shows as text.
	const other = createMarkdownRenderer({color: true, hyperlinks: true}).render('[run](javascript:alert(1)) [app](vscode://x) [rel](./a.md)', 100);
	assert.doesNotMatch(other.join(''), /\u001B\]8/);
	assert.match(stripAnsi(other[0]!), /run \(javascript:alert\(1\)\) app \(vscode:\/\/x\) rel \(\.\/a\.md\)/);
});

test('which terminals get OSC 8: I_HYPERLINKS forces either way; known terminals yes; tmux, screen and unknown ones no', () => {
	assert.equal(hyperlinksSupported({I_HYPERLINKS: '1', TMUX: '/tmp/t', NO_COLOR: '1'}), true);
	assert.equal(hyperlinksSupported({I_HYPERLINKS: '0', TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0'}), false);
	assert.equal(hyperlinksSupported({TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0'}), true);
	assert.equal(hyperlinksSupported({TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.15'}), false);
	assert.equal(hyperlinksSupported({VTE_VERSION: '7600'}), true);
	assert.equal(hyperlinksSupported({VTE_VERSION: '4601'}), false);
	assert.equal(hyperlinksSupported({WT_SESSION: 'x'}), true);
	assert.equal(hyperlinksSupported({TERM: 'xterm-kitty'}), true);
	assert.equal(hyperlinksSupported({TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.95.0'}), true);
	assert.equal(hyperlinksSupported({TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.71.2'}), false);
	assert.equal(hyperlinksSupported({VTE_VERSION: '7600', TMUX: '/tmp/t'}), false);
	assert.equal(hyperlinksSupported({TERM: 'screen-256color', WT_SESSION: 'x'}), false);
	assert.equal(hyperlinksSupported({TERM: 'xterm-256color'}), false);
	assert.equal(hyperlinksSupported({VTE_VERSION: '7600', NO_COLOR: '1'}), false);
});

test('a hostile link cannot break out of OSC 8: escapes (already shown as U+FFFD), spaces and anything outside printable ASCII are percent-encoded; an over-long target is text', async () => {
	// What the store passes on: control characters already made printable (U+FFFD).
	const hostile = '[click](<https://evil.example/a b\uFFFD]8;;https://other\uFFFD\\ "x">)';
	const rows = createMarkdownRenderer({color: true, hyperlinks: true}).render(hostile, 100);
	const opened = rows[0]!.match(/\u001B\]8;;([^\u001B]*)\u001B\\/)!;
	assert.equal(opened[1], 'https://evil.example/a%20b%EF%BF%BD]8;;https://other%EF%BF%BD\\%20"x"');
	for (const char of opened[1]!) assert.ok(char.charCodeAt(0) > 0x20 && char.charCodeAt(0) < 0x7f, `byte ${char.charCodeAt(0)} in the target`);
	assert.equal(rows[0]!.split('\u001B]8;;').length - 1, 2, 'one link opened and closed, nothing else');
	assert.equal((await onScreen(rows, 100)).rows[0], 'click');
	assert.equal(hyperlinkTarget(`https://x.example/${'a'.repeat(MAX_HYPERLINK_BYTES - 18)}`)?.length, MAX_HYPERLINK_BYTES);
	assert.equal(hyperlinkTarget(`https://x.example/${'a'.repeat(MAX_HYPERLINK_BYTES - 17)}`), null);
	assert.equal(hyperlinkTarget('https://x.example/\u001B]0;t\u0007'), 'https://x.example/%1B]0;t%07');
});

const STREAMED = [
	'# Plan',
	'',
	'Some text that **explains** the code below, with `inline` bits and a [link](https://example.com).',
	'',
	'```ts',
	'export function add(a: number, b: number): number {',
	'\treturn a + b; // 中文 comment',
	'}',
	'```',
	'',
	'1. first step',
	'2. second step',
	'   - nested point',
	'',
	'| 名前 | value |',
	'|---|--:|',
	'| 中文 | 12 |',
	'',
	'> a closing quote',
	'',
	'```py',
	'print("unclosed at the end")',
].join('\n');

test('an answer streamed in 3-byte chunks renders the same as when it arrives whole; every block written once, in order', async () => {
	const renderer = createMarkdownRenderer(COLOR);
	const whole = await streamThroughStore(STREAMED, STREAMED.length, renderer);
	const chunked = await streamThroughStore(STREAMED, 3, renderer);
	for (const cols of WIDTHS) {
		const wholeRows = itemRows(whole.items, renderer, cols);
		assert.deepEqual(itemRows(chunked.items, renderer, cols), wholeRows);
		assert.deepEqual((await onScreen(itemRows(chunked.items, renderer, cols), cols)).rows, (await onScreen(renderer.render(STREAMED, cols), cols)).rows);
	}

	// Each block is an item of its own, once: the heading, paragraph, code, list, table, quote and the unclosed code.
	assert.equal(chunked.items.length, 7);
	assert.deepEqual(
		chunked.items.map(item => item.text.split('\n')[0]),
		['# Plan', 'Some text that **explains** the code below, with `inline` bits and a [link](https://example.com).', '```ts', '1. first step', '| 名前 | value |', '> a closing quote', '```py'],
	);
	// While streaming, the live part is only ever the open block: never text already in the scrollback.
	const starts = chunked.items.map(item => STREAMED.indexOf(item.text.split('\n')[0]!));
	for (const open of chunked.opens) assert.ok(open === '' || starts.some(start => STREAMED.startsWith(open, start)), `the open block starts where a block starts: ${JSON.stringify(open)}`);
	assert.ok(
		chunked.opens.some(open => open.startsWith('```ts\nexport function')),
		'the code block drawn while open',
	);
});

test('a block that only looks finished stays open: a line after a list that may yet be its next item', async () => {
	const renderer = createMarkdownRenderer(COLOR);
	assert.deepEqual(renderer.split('1. one\n\n2'), {finished: [], open: '1. one\n\n2', continues: false});
	assert.deepEqual(renderer.split('1. one\n\n2. two\n'), {finished: [], open: '1. one\n\n2. two\n', continues: false});
	assert.deepEqual(renderer.split('para\n\nnext\n'), {finished: ['para'], open: 'next\n', continues: false});
	assert.deepEqual(renderer.split('```js\nlet a\n\nlet b\n'), {finished: [], open: '```js\nlet a\n\nlet b\n', continues: false});
	assert.deepEqual(renderer.split('```js\nlet a\n```\nafter\n'), {finished: ['```js\nlet a\n```'], open: 'after\n', continues: false});
});

test('a long paragraph is finished up to its last two lines, drawn the same as whole; the live part stays small', async () => {
	const renderer = createMarkdownRenderer(COLOR);
	const lines = Array.from({length: 400}, (_, index) => `line ${index + 1} of a paragraph with **bold** words`);
	const text = lines.join('\n');
	const streamed = await streamThroughStore(text, 7, renderer);
	assert.ok(streamed.items.length > 5, `${streamed.items.length} items`);
	assert.ok(
		streamed.items.slice(1).every(item => !item.gap),
		'the pieces of one paragraph with no blank row between',
	);
	assert.ok(Math.max(...streamed.opens.map(open => open.split('\n').length)) <= 52);
	assert.deepEqual(itemRows(streamed.items, renderer, 100), renderer.render(text, 100));
	assert.deepEqual(renderer.split(lines.slice(0, 60).join('\n')), {finished: [lines.slice(0, 58).join('\n')], open: lines.slice(58, 60).join('\n'), continues: true});
	// At the limit (50 line breaks) it stays open; one past, it is cut.
	assert.equal(renderer.split(lines.slice(0, LONG_PARAGRAPH_LINES + 1).join('\n')).finished.length, 0);
	assert.equal(renderer.split(lines.slice(0, LONG_PARAGRAPH_LINES + 2).join('\n')).finished.length, 1);
	// Not a paragraph, or a paragraph with a blank line in it: left to the lexer's blocks.
	assert.equal(renderer.split(`\`\`\`\n${lines.slice(0, 60).join('\n')}`).finished.length, 0);
});

test('the extensions\u2019 transformer sees each finished block of Markdown source before it is drawn', async () => {
	const {ChatStore} = await import('../../source/tui/chat-store.js');
	const store = new ChatStore({model: 'm', workspace: '/w', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	const renderer = createMarkdownRenderer(COLOR);
	store.setMarkdown(renderer);
	const seen: string[] = [];
	store.extend({
		commands: [],
		transform(text) {
			seen.push(text);
			return text.replace('**important**', '**IMPORTANT**');
		},
	});
	for (const piece of ['This is **impor', 'tant** news.\n\n- a', '\n- b\n']) store.apply({type: 'text_delta', text: piece});
	store.apply({type: 'done', reason: 'stop', steps: 1});
	assert.deepEqual(seen, ['This is **important** news.', '- a\n- b']);
	const items = store.getSnapshot().finished.filter(item => item.kind === 'assistant');
	assert.equal(stripAnsi(renderer.render((items[0] as {text: string}).text, 100)[0]!), 'This is IMPORTANT news.');
});

test(`an open block past ${LIVE_SOURCE_FACTOR}× the live rows is drawn from its last lines: the same rows as the whole block's end, a fence still code`, () => {
	const renderer = createMarkdownRenderer(COLOR);
	const rows = 5;
	const lines = Array.from({length: 200}, (_, index) => `line${index}`);
	for (const source of [`\`\`\`ts\n${lines.join('\n')}`, lines.join('\n')]) {
		const tail = renderer.renderTail(source, 40, rows);
		assert.equal(tail.length, rows);
		assert.deepEqual(tail, renderer.render(source, 40).slice(-rows));
		assert.ok(
			tail.some(row => stripAnsi(row).includes('line199')),
			tail.map(stripAnsi).join('\n'),
		);
	}

	// Short enough, it is drawn whole.
	const short = lines.slice(0, rows * LIVE_SOURCE_FACTOR).join('\n');
	assert.deepEqual(renderer.renderTail(short, 40, rows), renderer.render(short, 40).slice(-rows));
});
