import {test} from 'node:test';
import assert from 'node:assert/strict';
import {render} from 'ink-testing-library';
import {FOLDED_DETAIL_LINES} from '../../components/AskedDetail.js';
import {ToolCall} from '../../components/ToolCall.js';
import {TranscriptItemView} from '../../components/TranscriptItemView.js';
import type {ToolItem} from '../../source/tui/chat-state.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import type {CommandContext} from '../../source/tui/commands/command-context.js';
import {diffCommand} from '../../source/tui/commands/diff-command.js';

const numbered = (count: number) => Array.from({length: count}, (_, index) => `+line ${index + 1}`).join('\n');
const tool = (change: Partial<ToolItem>): ToolItem => ({kind: 'tool', key: 'k', id: 'c1', name: 'write', summary: 'path: a.txt', status: 'done', result: 'Wrote a.txt', note: null, ...change});

test("a decided approval's diff stays under its call, folded to its first lines, with the count of the rest and how to see them", () => {
	const asked = {number: 3, title: 'Write a.txt', detail: numbered(120)};
	const frame = render(<ToolCall tool={tool({asked})} />).lastFrame()!;
	assert.match(frame, /✓ write path: a\.txt\n\s+\+line 1\n/);
	assert.match(frame, new RegExp(`\\+line ${FOLDED_DETAIL_LINES}\\b`));
	assert.doesNotMatch(frame, new RegExp(`\\+line ${FOLDED_DETAIL_LINES + 1}\\b`));
	assert.match(frame, new RegExp(`… ${120 - FOLDED_DETAIL_LINES} more lines · /diff 3 shows them all`));
	assert.match(frame, /Wrote a\.txt/, 'the result after it');
	// While the question is open the approval box shows it: the call does not.
	assert.doesNotMatch(render(<ToolCall tool={tool({asked, status: 'asking', result: null})} />).lastFrame()!, /\+line 1/);
	// A denied call keeps what was refused.
	assert.match(render(<ToolCall tool={tool({asked, status: 'denied', note: 'no'})} />).lastFrame()!, /\+line 1\b/);
});

test('a diff at the fold shows whole; one line past it says "1 more line"', () => {
	const at = render(<ToolCall tool={tool({asked: {number: 1, title: 't', detail: numbered(FOLDED_DETAIL_LINES)}})} />).lastFrame()!;
	assert.match(at, new RegExp(`\\+line ${FOLDED_DETAIL_LINES}\\b`));
	assert.doesNotMatch(at, /more line|\/diff/);
	const past = render(<ToolCall tool={tool({asked: {number: 1, title: 't', detail: numbered(FOLDED_DETAIL_LINES + 1)}})} />).lastFrame()!;
	assert.doesNotMatch(past, new RegExp(`\\+line ${FOLDED_DETAIL_LINES + 1}\\b`));
	assert.match(past, /… 1 more line · \/diff 1 shows them all/);
});

test('folded diffs and results expand tabs as the approval box does', () => {
	const frame = render(<ToolCall tool={tool({asked: {number: 1, title: 't', detail: '+\tone'}, result: '1\talpha'})} />).lastFrame()!;
	assert.ok(!frame.includes('\t'), JSON.stringify(frame));
	assert.match(frame, /\+ {3}one/);
	assert.match(frame, /1 {3}alpha/);
});

function asked(chat: ChatStore, id: string, detail: string) {
	chat.apply({type: 'tool_call', id, name: 'write', arguments: '{"path":"a.txt"}'});
	chat.asking(id, {title: `Write ${id}`, detail});
	chat.apply({type: 'approval', id, name: 'write', title: `Write ${id}`, owner: 'native', decision: 'allow', by: 'user', reason: null});
	chat.apply({type: 'tool_result', id, name: 'write', output: `Wrote ${id}`, is_error: false, images: 0});
}

test("/diff writes the last approval's whole diff to the transcript again, /diff N the N-th; what it cannot show, it says", async () => {
	const chat = new ChatStore({model: 'm', workspace: '/w', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	const context = {store: chat} as unknown as CommandContext;
	const notices = () => chat.getSnapshot().finished.flatMap(item => (item.kind === 'notice' ? [item.text] : []));
	await diffCommand.run(context, '');
	assert.deepEqual(notices(), ['no approval was asked on this screen yet']);

	asked(chat, 'one', numbered(300));
	asked(chat, 'two', '+second\n+\u001B[2Jcleared');
	// A question whose call the screen does not show (a child agent's) gets no number.
	chat.asking('elsewhere', {title: 'Write b.txt', detail: '+b'});
	const tools = chat.getSnapshot().finished.filter(item => item.kind === 'tool');
	assert.deepEqual(
		tools.map(item => item.asked?.number),
		[1, 2],
	);
	assert.equal(tools[1]!.asked!.detail, '+second\n+\uFFFD[2Jcleared', 'made safe for the terminal');

	await diffCommand.run(context, '');
	await diffCommand.run(context, '1');
	const shown = chat.getSnapshot().finished.filter(item => item.kind === 'detail');
	assert.deepEqual(
		shown.map(item => item.asked.number),
		[2, 1],
	);
	const whole = render(<TranscriptItemView item={shown[1]!} width={100} markdown={null} />).lastFrame()!;
	assert.match(whole, /◆ approval 1 Write one \(300 lines\)/);
	for (const line of [1, 150, 300]) assert.match(whole, new RegExp(`^\\s+\\+line ${line}$`, 'm'));

	await diffCommand.run(context, '3');
	await diffCommand.run(context, 'x');
	assert.deepEqual(notices().slice(1), ['there is no approval 3: those on this screen are numbered 1 to 2', "usage: /diff, or /diff N with the number an approval's folded diff names"]);
});
