import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import stringWidth from 'string-width';
import {Approval, TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {MAX_DETAIL_LINES} from '../../components/ApprovalDetail.js';
import type {ApprovalChoice, PendingApproval} from '../../source/tui/brokers/approval-broker.js';

function pending(detail: string, choices: ApprovalChoice[] = []): PendingApproval {
	return {
		request: {id: 'c1', name: 'write', arguments: {}, external: false, owner: 'native', ask: {title: 'Write a.txt', detail}},
		rule: null,
		answer: choice => void choices.push(choice),
	};
}

/** ink-testing-library's terminal width. */
const COLUMNS = 100;

const numbered = (count: number) => Array.from({length: count}, (_, index) => `+line ${index + 1}`).join('\n');

/** The keys as a terminal sends them. */
const keys = {up: '\u001B[A', down: '\u001B[B', pageUp: '\u001B[5~', pageDown: '\u001B[6~', home: '\u001B[H', end: '\u001B[F'};

async function press(view: ReturnType<typeof render>, key: string): Promise<string> {
	view.stdin.write(key);
	await delay(40);
	return view.lastFrame()!;
}

test('a 300-line diff scrolls by line, by page and to either end, and says which lines show of how many', async () => {
	const choices: ApprovalChoice[] = [];
	const view = render(<Approval pending={pending(numbered(300), choices)} width={COLUMNS} />);
	try {
		// The keys reach it once it listens.
		await delay(50);
		const height = MAX_DETAIL_LINES;
		assert.match(view.lastFrame()!, new RegExp(`lines 1–${height} of 300`));
		let frame = await press(view, keys.end);
		assert.match(frame, /\+line 300\b/, 'the last line');
		assert.match(frame, new RegExp(`lines ${301 - height}–300 of 300`));
		assert.doesNotMatch(frame, new RegExp(`\\+line ${300 - height}\\b`));
		frame = await press(view, keys.down);
		assert.match(frame, new RegExp(`lines ${301 - height}–300 of 300`), 'no further than the last line');
		frame = await press(view, keys.home);
		assert.match(frame, new RegExp(`lines 1–${height} of 300`));
		frame = await press(view, keys.pageDown);
		assert.match(frame, new RegExp(`lines ${height + 1}–${2 * height} of 300`));
		frame = await press(view, keys.up);
		assert.match(frame, new RegExp(`lines ${height}–${2 * height - 1} of 300`));
		frame = await press(view, keys.pageUp);
		assert.match(frame, new RegExp(`lines 1–${height} of 300`), 'no further than the first line');
		frame = await press(view, keys.down);
		assert.match(frame, new RegExp(`lines 2–${height + 1} of 300`));
		assert.match(frame, /^\s*│\s+\+line 2\s+│$/m, 'the window starts at line 2');
		// ↑ and ↓ scroll: they select no option, so Enter after them chooses nothing.
		await delay(TYPEAHEAD_GUARD_MS);
		await press(view, '\r');
		assert.deepEqual(choices, []);
	} finally {
		view.unmount();
	}
});

test('a diff that fits shows its line count, one line and one past it', () => {
	assert.match(render(<Approval pending={pending('+only')} />).lastFrame()!, /│ {3}1 line +│/);
	assert.match(render(<Approval pending={pending(numbered(MAX_DETAIL_LINES))} />).lastFrame()!, new RegExp(`│   ${MAX_DETAIL_LINES} lines +│`));
	assert.match(render(<Approval pending={pending(numbered(MAX_DETAIL_LINES + 1))} />).lastFrame()!, new RegExp(`lines 1–${MAX_DETAIL_LINES} of ${MAX_DETAIL_LINES + 1}`));
});

/** The column each character of a row lands in on a terminal (tab stops every 8), and so the row's width there. */
function terminalWidth(row: string): number {
	let column = 0;
	for (const char of stripAnsi(row)) column = char === '\t' ? column + 8 - (column % 8) : column + stringWidth(char);
	return column;
}

test('tabs are expanded to stops of 4 (wide characters counted as two), so the right border stays straight on a terminal', () => {
	const detail = '--- a.go\n+++ a.go\n+\tone\n+a\ttwo\n+宽\tthree\n-\t\tfour';
	const frame = render(<Approval pending={pending(detail)} width={COLUMNS} />).lastFrame()!;
	assert.ok(!frame.includes('\t'), frame);
	const text = stripAnsi(frame);
	for (const line of ['+   one', '+a  two', '+宽 three', '-       four']) assert.match(text, new RegExp(`│   ${line.replace('+', '\\+')} +│`), line);
	const box = frame.split('\n').filter(row => /^[╭│╰]/.test(stripAnsi(row)));
	assert.ok(box.length >= 8, frame);
	const widths = new Set(box.map(row => terminalWidth(row)));
	assert.deepEqual([...widths], [COLUMNS], frame);
});

test('a line longer than the box goes on in the rows below it, every column of it shown, the border straight', () => {
	const long = `+${'abcdefghij'.repeat(40)}`;
	const frame = render(<Approval pending={pending(`${long}\n+short`)} width={COLUMNS} />).lastFrame()!;
	const text = stripAnsi(frame);
	const rows = text.split('\n').filter(row => row.startsWith('│'));
	const inside = rows.map(row => row.slice(4, -1).trimEnd()).filter(row => /^[+a-j]/.test(row));
	assert.equal(inside.slice(0, -1).join(''), long, text);
	assert.equal(inside.at(-1), '+short');
	assert.match(text, /2 lines/);
	assert.deepEqual(
		new Set(
			text
				.split('\n')
				.filter(row => /^[╭│╰]/.test(row))
				.map(row => stringWidth(row)),
		),
		new Set([COLUMNS]),
	);
});

test('p hands the whole diff to the pager, not before the question could be read; without a pager there is no such key', async () => {
	const paged: string[] = [];
	const detail = numbered(300);
	const view = render(<Approval pending={pending(detail)} onPager={text => paged.push(text)} />);
	try {
		await delay(50);
		assert.match(view.lastFrame()!, /· p pager/);
		await press(view, 'p');
		assert.deepEqual(paged, [], 'a p typed ahead');
		await delay(TYPEAHEAD_GUARD_MS);
		await press(view, 'p');
		assert.deepEqual(paged, [detail]);
	} finally {
		view.unmount();
	}

	assert.doesNotMatch(render(<Approval pending={pending(detail)} />).lastFrame()!, /pager/);
});

test('control sequences in a diff or a title never reach the terminal', () => {
	const frame = render(
		<Approval pending={{...pending('+\u001B]52;c;aGk=\u0007 x'), request: {...pending('').request, ask: {title: 'Write \u001B[2Ja.txt', detail: '+\u001B]52;c;aGk=\u0007 x'}}}} />,
	).lastFrame()!;
	assert.ok(!frame.includes('\u001B]52'), JSON.stringify(frame));
	assert.ok(!frame.includes('\u001B[2J'), JSON.stringify(frame));
	assert.match(frame, /\uFFFD\]52;c;aGk=\uFFFD x/);
});
