import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {Approval, TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {MAX_DETAIL_LINES} from '../../components/ApprovalDetail.js';
import {Box} from 'ink';
import {StatusLine} from '../../components/StatusLine.js';
import {SlashMenu} from '../../components/SlashMenu.js';
import {ToolCall, FOLDED_RESULT_LINES} from '../../components/ToolCall.js';
import type {ApprovalChoice, PendingApproval} from '../../source/tui/brokers/approval-broker.js';
import type {ToolItem} from '../../source/tui/chat-state.js';

const tool = (change: Partial<ToolItem> = {}): ToolItem => ({kind: 'tool', key: 'k', id: 'c1', name: 'read', summary: 'files: path: a.txt', status: 'running', result: null, note: null, ...change});

test('a tool call shows its name, its arguments and a status mark', () => {
	const running = render(<ToolCall tool={tool()} />);
	assert.match(running.lastFrame()!, /◐ read files: path: a\.txt/);
	const done = render(<ToolCall tool={tool({status: 'done', result: 'alpha\nbeta'})} />);
	assert.match(done.lastFrame()!, /✓ read/);
	assert.match(done.lastFrame()!, /alpha\n\s+beta/);
});

test('a long result is folded to its first lines and a count', () => {
	const lines = Array.from({length: 40}, (_, index) => `line ${index + 1}`).join('\n');
	const frame = render(<ToolCall tool={tool({status: 'done', result: lines})} />).lastFrame()!;
	assert.match(frame, new RegExp(`line ${FOLDED_RESULT_LINES}\\b`));
	assert.doesNotMatch(frame, new RegExp(`line ${FOLDED_RESULT_LINES + 1}\\b`));
	assert.match(frame, new RegExp(`… ${40 - FOLDED_RESULT_LINES} more lines · Ctrl-O`));
});

test('a result at the fold shows whole; one line past it says "1 more line"', () => {
	const result = (count: number) => Array.from({length: count}, (_, index) => `line ${index + 1}`).join('\n');
	const at = render(<ToolCall tool={tool({status: 'done', result: result(FOLDED_RESULT_LINES)})} />).lastFrame()!;
	assert.match(at, new RegExp(`line ${FOLDED_RESULT_LINES}\\b`));
	assert.doesNotMatch(at, /more line/);
	const past = render(<ToolCall tool={tool({status: 'done', result: result(FOLDED_RESULT_LINES + 1)})} />).lastFrame()!;
	assert.doesNotMatch(past, new RegExp(`line ${FOLDED_RESULT_LINES + 1}\\b`));
	assert.match(past, /… 1 more line · Ctrl-O$/m);
});

test('a denied call shows the reason, not a result', () => {
	const frame = render(<ToolCall tool={tool({status: 'denied', note: 'not now', result: 'The call was not run'})} />).lastFrame()!;
	assert.match(frame, /⊘ read .* — not now/);
	assert.doesNotMatch(frame, /The call was not run/);
});

test('the status line shows model, workspace, tokens, window share and cache ratio when known', () => {
	const usage = {input: 12_000, output: 300, cacheRead: 9000, cacheWrite: 0, raw: {}};
	const frame = render(<StatusLine busy={false} status={{model: 'gpt-x', workspace: '/work/project', session: '1234567890', usage, window: 100_000}} />).lastFrame()!;
	assert.match(frame, /gpt-x · \/work\/project · session 12345678 · ↑12k ↓300 · ctx 12% · cache 75%/);
	const unknown = render(<StatusLine busy status={{model: 'gpt-x', workspace: '/w', session: null, usage: null, window: null}} />).lastFrame()!;
	assert.doesNotMatch(unknown, /ctx|cache|↑/);
	assert.match(unknown, /Esc to stop/);
});

test("the status line shows the budget's estimate against its limit and the session's cache ratio", () => {
	const usage = {input: 12_000, output: 300, cacheRead: 9000, cacheWrite: 0, raw: {}};
	const frame = render(
		<StatusLine
			busy={false}
			status={{model: 'gpt-x', workspace: '/w', session: null, usage, window: 100_000, budget: {estimate: 40_000, limit: 80_000, anchored: true}, cacheTotals: {read: 29_000, input: 40_000}}}
		/>,
	).lastFrame()!;
	assert.match(frame, /↑12k ↓300 · cache 73% · budget 50% of 80k/, 'the cache ratio over the session, not the last request');
	assert.doesNotMatch(frame, /ctx/, "the budget's own figure replaces the usage-based share");
	// Counted from bytes, before any usage anchors it: an upper bound, marked as the estimate it is.
	const bytes = render(
		<StatusLine busy={false} status={{model: 'gpt-x', workspace: '/w', session: null, usage: null, window: 100_000, budget: {estimate: 40_000, limit: 80_000, anchored: false}}} />,
	).lastFrame()!;
	assert.match(bytes, /budget ≤50% of 80k est\./);
});

test("the status line shows the session's cost: dollars, unknown where a price is missing, nothing before the first request", () => {
	const usage = {input: 100, output: 10, cacheRead: 0, cacheWrite: 0, raw: {}};
	const tally = (dollars: number, unknown: boolean, requests: number) => ({tokens: {input: 100, output: 10, cacheRead: 0, cacheWrite: 0}, cost: {dollars, unknown}, requests});
	const status = (cost: ReturnType<typeof tally>) => ({model: 'm', workspace: '/w', session: null, usage, window: null, cost: {turn: cost, session: cost, prices: null, model: 'm'}});
	assert.match(render(<StatusLine busy={false} status={status(tally(0.0123, false, 1))} />).lastFrame()!, /↑100 ↓10 · cache 0% · cost \$0\.0123/);
	assert.match(render(<StatusLine busy={false} status={status(tally(0, true, 1))} />).lastFrame()!, /· cost unknown/);
	assert.match(render(<StatusLine busy={false} status={status(tally(2.5, true, 3))} />).lastFrame()!, /· cost \$2\.50 \+ unknown/);
	assert.doesNotMatch(render(<StatusLine busy={false} status={status(tally(0, false, 0))} />).lastFrame()!, /cost/);
});

test('a narrow status line shortens its left part with an ellipsis and keeps the key hint whole', () => {
	const frame = render(
		<Box width={40}>
			<StatusLine busy={false} status={{model: 'gpt-x', workspace: '/work/project', session: '1234567890', usage: null, window: null}} />
		</Box>,
	).lastFrame()!;
	assert.equal(frame.split('\n').length, 1, frame);
	assert.match(frame, /^gpt-x · \/work\/project · session 1… \/help$/);
	assert.ok(frame.length <= 40, frame);
});

test('slash completion lists the commands a draft can become', () => {
	assert.match(render(<SlashMenu draft="/" />).lastFrame()!, /\/help[\s\S]*\/clear[\s\S]*\/session[\s\S]*\/compact[\s\S]*\/exit/);
	const frame = render(<SlashMenu draft="/se" />).lastFrame()!;
	assert.match(frame, /\/session/);
	assert.doesNotMatch(frame, /\/help/);
	assert.equal(render(<SlashMenu draft="hello /he" />).lastFrame(), '');
});

function pending(detail: string, choices: ApprovalChoice[]): PendingApproval {
	return {
		request: {id: 'c1', name: 'edit', arguments: {}, owner: 'native', external: false, ask: {title: 'Edit a.txt', detail}},
		rule: null,
		answer: choice => void choices.push(choice),
	};
}

const diff = '--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-alpha\n+omega';

test('the approval widget shows the diff and allows once with y, for the session with a', async () => {
	for (const [key, kind] of [
		['y', 'once'],
		['a', 'always'],
	] as const) {
		const choices: ApprovalChoice[] = [];
		const view = render(<Approval pending={pending(diff, choices)} />);
		assert.match(view.lastFrame()!, /Allow\? Edit a\.txt\s*│?\n│? *tool edit · native/, 'the tool and its owner under the title');
		assert.match(view.lastFrame()!, /-alpha[\s\S]*\+omega/);
		assert.match(view.lastFrame()!, /\[a\] allow edit for this session/);
		await delay(TYPEAHEAD_GUARD_MS + 50);
		view.stdin.write(key);
		await delay(100);
		assert.deepEqual(choices, [{kind}]);
		view.unmount();
	}
});

test('with a rule to remember, r allows and writes it, its label names the rule, and the arrows reach it; without one, r does nothing', async () => {
	const choices: ApprovalChoice[] = [];
	const view = render(<Approval pending={{...pending(diff, choices), rule: 'edit(src/**)'}} />);
	assert.match(view.lastFrame()!, /\[r\] always, for this project: edit\(src\/\*\*\)/);
	await delay(TYPEAHEAD_GUARD_MS + 50);
	for (const key of ['\u001B[C', '\u001B[C', '\u001B[C']) {
		// Each arrow once the one before is drawn: a loaded machine would otherwise read two keys against one state.
		const before = view.lastFrame();
		view.stdin.write(key);
		for (let waited = 0; view.lastFrame() === before && waited < 2000; waited += 10) await delay(10);
	}

	view.stdin.write('\r');
	await delay(100);
	assert.deepEqual(choices, [{kind: 'remember'}], 'the third option is the rule');
	view.unmount();
	const plain: ApprovalChoice[] = [];
	const without = render(<Approval pending={pending(diff, plain)} />);
	assert.doesNotMatch(without.lastFrame()!, /\[r\]/);
	await delay(TYPEAHEAD_GUARD_MS + 50);
	without.stdin.write('r');
	await delay(100);
	assert.deepEqual(plain, []);
	without.unmount();
	const typed: ApprovalChoice[] = [];
	const withKey = render(<Approval pending={{...pending(diff, typed), rule: 'edit(src/**)'}} />);
	await delay(TYPEAHEAD_GUARD_MS + 50);
	withKey.stdin.write('r');
	await delay(100);
	assert.deepEqual(typed, [{kind: 'remember'}]);
	withKey.unmount();
});

test('a stray Enter, or keys typed before the question could be read, never allow', async () => {
	const choices: ApprovalChoice[] = [];
	const view = render(<Approval pending={pending(diff, choices)} />);
	view.stdin.write('y');
	view.stdin.write('\r');
	await delay(TYPEAHEAD_GUARD_MS + 50);
	view.stdin.write('\r');
	await delay(100);
	assert.deepEqual(choices, []);
	view.unmount();
});

test('n asks for a reason, which goes back with the denial; Esc denies at once', async () => {
	const choices: ApprovalChoice[] = [];
	const view = render(<Approval pending={pending(diff, choices)} />);
	await delay(TYPEAHEAD_GUARD_MS + 50);
	view.stdin.write('n');
	await delay(100);
	assert.match(view.lastFrame()!, /Reason for the model/);
	view.stdin.write('use the other file');
	await delay(100);
	view.stdin.write('\r');
	await delay(100);
	assert.deepEqual(choices, [{kind: 'deny', reason: 'use the other file'}]);
	view.unmount();

	const escaped: ApprovalChoice[] = [];
	const second = render(<Approval pending={pending(diff, escaped)} />);
	second.stdin.write('\u001B');
	await delay(50);
	assert.deepEqual(escaped, [{kind: 'deny', reason: ''}]);
	second.unmount();
});

test('the reason is edited by character: a CJK reason with a line pasted in, fixed in the middle; Esc in the field denies without one', async () => {
	const choices: ApprovalChoice[] = [];
	const view = render(<Approval pending={pending(diff, choices)} />);
	await delay(TYPEAHEAD_GUARD_MS + 50);
	view.stdin.write('n');
	await delay(100);
	// A paste with a line break stays one line; then two characters left, one deleted, another typed.
	view.stdin.write('\u001B[200~请用\r另一个文件\u001B[201~');
	await delay(50);
	for (const key of ['\u001B[D', '\u001B[D', '\u007F', '两']) {
		view.stdin.write(key);
		await delay(30);
	}

	assert.match(view.lastFrame()!, /请用 另一两文件/);
	view.stdin.write('\r');
	await delay(100);
	assert.deepEqual(choices, [{kind: 'deny', reason: '请用 另一两文件'}]);
	view.unmount();

	const escaped: ApprovalChoice[] = [];
	const second = render(<Approval pending={pending(diff, escaped)} />);
	await delay(TYPEAHEAD_GUARD_MS + 50);
	second.stdin.write('n');
	await delay(100);
	second.stdin.write('half a reason');
	await delay(50);
	second.stdin.write('\u001B');
	await delay(100);
	assert.deepEqual(escaped, [{kind: 'deny', reason: ''}]);
	second.unmount();
});

test('a short terminal gets a shorter window on the diff, so the question fits on the screen', () => {
	const tall = Array.from({length: 80}, (_, index) => `+line ${index}`).join('\n');
	const frame = render(<Approval pending={pending(tall, [])} maxDetailLines={8} />).lastFrame()!;
	assert.match(frame, /\+line 7\b/);
	assert.doesNotMatch(frame, /\+line 8\b/);
	assert.match(frame, /lines 1–8 of 80/);
});

test('arrow keys pick an option, and only then Enter confirms it', async () => {
	const choices: ApprovalChoice[] = [];
	const view = render(<Approval pending={pending(diff, choices)} />);
	await delay(TYPEAHEAD_GUARD_MS + 50);
	view.stdin.write('\u001B[C');
	await delay(100);
	view.stdin.write('\r');
	await delay(100);
	assert.deepEqual(choices, [{kind: 'once'}]);
	view.unmount();
});

test('a tall diff shows its first MAX_DETAIL_LINES lines and which lines these are of how many', () => {
	const tall = Array.from({length: 80}, (_, index) => `+line ${index + 1}`).join('\n');
	const frame = render(<Approval pending={pending(tall, [])} />).lastFrame()!;
	assert.match(frame, new RegExp(`\\+line ${MAX_DETAIL_LINES}\\b`));
	assert.doesNotMatch(frame, new RegExp(`\\+line ${MAX_DETAIL_LINES + 1}\\b`));
	assert.match(frame, new RegExp(`lines 1–${MAX_DETAIL_LINES} of 80 · ↑↓ PgUp PgDn Home End scroll`));
});
