import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ChatStore} from '../../source/tui/chat-store.js';
import {summariseArguments as summarise} from '../../source/shared/summarise-arguments.js';
import {emptyCost, statusCost} from '../../source/tui/cost-tally.js';
import {costReport} from '../../source/tui/commands/cost-command.js';

const status = {model: 'm', workspace: '/w', session: null, usage: null, window: null};

function store() {
	const chat = new ChatStore(status, {logo: false, frameMs: 0});
	let notified = 0;
	chat.subscribe(() => notified++);
	return {chat, notified: () => notified};
}

const flush = async () => new Promise(resolve => setTimeout(resolve, 5));

test('streamed text moves to the scrollback whole lines at a time; the live part is the unfinished line', async () => {
	const {chat} = store();
	chat.addUser('hi');
	for (const piece of ['Hel', 'lo\nwor', 'ld\nand ', 'more']) chat.apply({type: 'text_delta', text: piece});
	await flush();
	const state = chat.getSnapshot();
	const text = state.finished.filter(item => item.kind === 'assistant').map(item => (item as {text: string}).text);
	assert.deepEqual(text, ['Hello\nworld']);
	assert.equal(state.partial, 'and more');
	chat.apply({type: 'done', reason: 'stop', steps: 1});
	const done = chat.getSnapshot();
	assert.equal(done.partial, '');
	assert.deepEqual(
		done.finished.filter(item => item.kind === 'assistant').map(item => (item as {text: string}).text),
		['Hello\nworld', 'and more'],
	);
	assert.equal(done.busy, false);
});

test('a 100k-token answer ends whole in the scrollback, in few items, with no text lost', async () => {
	const {chat} = store();
	const line = 'The quick brown fox jumps over the lazy dog. ';
	let sent = '';
	for (let index = 0; index < 20_000; index++) {
		const piece = index % 7 === 6 ? `${line}\n` : line;
		sent += piece;
		chat.apply({type: 'text_delta', text: piece});
		if (index % 500 === 0) await flush();
	}

	chat.apply({type: 'done', reason: 'stop', steps: 1});
	const items = chat.getSnapshot().finished.filter(item => item.kind === 'assistant') as Array<{text: string}>;
	assert.equal(items.map(item => item.text).join('\n'), sent.replace(/\n$/, ''));
	assert.ok(items.length < 200, `${items.length} items`);
});

test('a tool call goes live, shows its status, then moves to the scrollback with its result', () => {
	const {chat} = store();
	chat.apply({type: 'text_delta', text: 'Let me look.'});
	chat.apply({type: 'tool_call', id: 'c1', name: 'read', arguments: '{"files":[{"path":"a.txt"}]}'});
	let state = chat.getSnapshot();
	assert.equal(state.partial, '');
	assert.deepEqual(
		state.tools.map(tool => [tool.name, tool.status, tool.summary]),
		[['read', 'pending', 'files: path: a.txt']],
	);
	chat.asking('c1');
	assert.equal(chat.getSnapshot().tools[0]!.status, 'asking');
	chat.apply({type: 'tool_started', id: 'c1', name: 'read'});
	assert.equal(chat.getSnapshot().tools[0]!.status, 'running');
	chat.apply({type: 'tool_result', id: 'c1', name: 'read', output: 'alpha', is_error: false, images: 0});
	state = chat.getSnapshot();
	assert.equal(state.tools.length, 0);
	const kinds = state.finished.map(item => item.kind);
	assert.deepEqual(kinds, ['assistant', 'tool']);
	assert.equal((state.finished[1] as {status: string}).status, 'done');
});

test('calls of a batch running side by side: each keeps its own row, status and progress until its own result', () => {
	const {chat} = store();
	for (const id of ['c1', 'c2', 'c3']) chat.apply({type: 'tool_call', id, name: 'search', arguments: `{"pattern":"${id}"}`});
	for (const id of ['c1', 'c2', 'c3']) chat.apply({type: 'tool_started', id, name: 'search'});
	chat.apply({type: 'tool_update', id: 'c2', name: 'search', text: 'scanning src/'});
	chat.apply({type: 'tool_result', id: 'c1', name: 'search', output: 'no match', is_error: false, images: 0});
	const state = chat.getSnapshot();
	assert.deepEqual(
		state.tools.map(tool => [tool.id, tool.status, tool.progress ?? null]),
		[
			['c2', 'running', 'scanning src/'],
			['c3', 'running', null],
		],
	);
	assert.deepEqual(
		state.finished.filter(item => item.kind === 'tool').map(item => [(item as {id: string}).id, (item as {status: string}).status]),
		[['c1', 'done']],
	);
});

test('a denied call keeps its denial and reason', () => {
	const {chat} = store();
	chat.apply({type: 'tool_call', id: 'c1', name: 'shell', arguments: '{"command":"rm -rf build"}'});
	chat.apply({type: 'approval', id: 'c1', name: 'shell', title: 'Run: rm -rf build', owner: 'native', decision: 'deny', by: 'user', reason: 'not now'});
	chat.apply({type: 'tool_result', id: 'c1', name: 'shell', output: 'The call was not run', is_error: true, images: 0});
	const tool = chat.getSnapshot().finished.at(-1) as {status: string; note: string};
	assert.equal(tool.status, 'denied');
	assert.equal(tool.note, 'not now');
});

test('thinking is kept collapsed: only its length reaches the scrollback', () => {
	const {chat} = store();
	chat.apply({type: 'thinking_delta', text: 'one\ntwo\nthree'});
	assert.equal(chat.getSnapshot().thinking, 'one\ntwo\nthree');
	chat.apply({type: 'text_delta', text: 'answer'});
	const thinking = chat.getSnapshot().finished.find(item => item.kind === 'thinking') as {lines: number};
	assert.equal(thinking.lines, 3);
	assert.equal(chat.getSnapshot().thinking, '');
});

test('streaming changes reach listeners at most once a frame', async () => {
	const chat = new ChatStore(status, {logo: false, frameMs: 30});
	let notified = 0;
	chat.subscribe(() => notified++);
	for (let index = 0; index < 200; index++) chat.apply({type: 'text_delta', text: 'x'});
	assert.equal(notified, 0);
	await new Promise(resolve => setTimeout(resolve, 60));
	assert.equal(notified, 1);
});

test('tool arguments are summarised as values on one short line', () => {
	assert.equal(summarise('{"command":"npm test","timeout":30}'), 'command: npm test timeout: 30');
	assert.equal(summarise('not json'), 'not json');
	assert.ok(summarise(JSON.stringify({content: 'x'.repeat(500)})).length <= 100);
});

test('control sequences from the model, a tool or a server never reach the terminal', () => {
	const {chat} = store();
	chat.apply({type: 'text_delta', text: 'clip \u001B]52;c;cm0gLXJmIH4=\u0007 title \u001B]0;pwned\u0007 clear \u001B[2J\r\n'});
	chat.apply({type: 'tool_call', id: 'c1', name: 'evil\u001B[31m', arguments: '{"x":"\u009B2J"}'});
	chat.apply({type: 'tool_result', id: 'c1', name: 'evil', output: 'bell\u0007', is_error: false, images: 0});
	chat.apply({type: 'error', message: 'server says \u001B[5m', kind: 'http'});
	const text = JSON.stringify(chat.getSnapshot().finished);
	assert.doesNotMatch(text, /\\u001b|\\u0007|\\u009b/i);
	assert.match(text, /clip \uFFFD\]52/);
});

test("a tool call's line marks bidi and invisible characters in its name and arguments; the answer keeps them", () => {
	const {chat} = store();
	chat.apply({type: 'text_delta', text: 'שלום\u200F done\n'});
	chat.apply({type: 'tool_call', id: 'c1', name: 'shell', arguments: JSON.stringify({command: 'echo ok #\u202E; rm -rf ./build\u2066'})});
	const tool = chat.getSnapshot().tools[0]!;
	assert.equal(tool.summary, 'command: echo ok #⟨U+202E⟩; rm -rf ./build⟨U+2066⟩');
	const answer = chat.getSnapshot().finished.find(item => item.kind === 'assistant') as {text: string};
	assert.ok(answer.text.includes('שלום\u200F'), 'the answer is prose, not what runs');
});

test("the status keeps the session's cache hit ratio as Σ cache-read / Σ input, and the budget's last figures", () => {
	const {chat} = store();
	const usage = (input: number, cacheRead: number) => ({input, output: 10, cacheRead, cacheWrite: 0, raw: {}});
	const unpriced = {cost: {dollars: 0, unknown: true}, session_cost: {dollars: 0, unknown: true}, prices: null};
	chat.apply({type: 'usage', model: 'm', usage: usage(1000, 0), ...unpriced});
	chat.apply({type: 'usage', model: 'm', usage: usage(3000, 2900), ...unpriced});
	chat.apply({type: 'budget', estimate: 4200, limit: 6400, window: 8000, anchored: true});
	const {status} = chat.getSnapshot();
	assert.deepEqual(status.cacheTotals, {read: 2900, input: 4000});
	assert.deepEqual(status.budget, {estimate: 4200, limit: 6400, anchored: true});
});

test('cost: the last turn and the session tallied by kind from the usage events; /cost says unknown where a price is missing, never $0; another session starts again', () => {
	const {chat} = store();
	const prices = {input: 2, output: 8, cacheRead: 0.5};
	const usage = (input: number, output: number, cacheRead: number, cacheWrite: number) => ({input, output, cacheRead, cacheWrite, raw: {}});
	const event = (u: ReturnType<typeof usage>, dollars: number, unknown: boolean, total: number, totalUnknown: boolean) =>
		({type: 'usage', model: 'm', usage: u, cost: {dollars, unknown}, session_cost: {dollars: total, unknown: totalUnknown}, prices}) as const;
	assert.equal(costReport(chat.getSnapshot().status.cost ?? emptyCost()), 'no model request in this session yet: nothing has cost anything');
	// Turn 1: one request, every kind priced.
	chat.apply(event(usage(1_000_000, 1_000_000, 0, 0), 10, false, 10, false));
	chat.apply({type: 'done', reason: 'stop', steps: 1});
	assert.equal(statusCost(chat.getSnapshot().status.cost!), 'cost $10.00');
	// Turn 2: two requests, the second with cache writes, which have no price.
	chat.apply(event(usage(1000, 0, 0, 0), 0.002, false, 10.002, false));
	chat.apply(event(usage(3000, 100, 1000, 1000), 0.0033, true, 10.0053, true));
	chat.apply({type: 'done', reason: 'stop', steps: 2});
	const cost = chat.getSnapshot().status.cost!;
	assert.deepEqual(cost.turn!.tokens, {input: 2000, output: 100, cacheRead: 1000, cacheWrite: 1000});
	assert.deepEqual(cost.session.tokens, {input: 1_002_000, output: 1_000_100, cacheRead: 1000, cacheWrite: 1000});
	assert.equal(cost.turn!.requests, 2);
	assert.equal(
		costReport(cost),
		[
			'last turn: $0.0053 + unknown over 2 requests (tokens: input 2,000 · output 100 · cache read 1,000 · cache write 1,000)',
			'this session: $10.01 + unknown over 3 requests (tokens: input 1,002,000 · output 1,000,100 · cache read 1,000 · cache write 1,000)',
			'prices for m per million tokens: input $2 · output $8 · cache read $0.5 · cache write unknown',
		].join('\n'),
	);
	assert.equal(statusCost(cost), 'cost $10.01 + unknown');
	// A model the catalogue lacks: all unknown, never $0.
	chat.setSession('next-session');
	assert.equal(chat.getSnapshot().status.cost!.session.requests, 0);
	chat.apply({type: 'usage', model: 'x', usage: usage(10, 5, 0, 0), cost: {dollars: 0, unknown: true}, session_cost: {dollars: 0, unknown: true}, prices: null});
	const unknown = chat.getSnapshot().status.cost!;
	assert.equal(statusCost(unknown), 'cost unknown');
	assert.match(costReport(unknown), /^last turn: unknown over 1 request .*\nthis session: unknown over 1 request .*\nprices: unknown \(x is not in the catalogue; add its "cost" in models\.json\)$/);
	assert.doesNotMatch(costReport(unknown), /\$0\b/);
});

test('a child agent is live while it runs, with its role, turns and activity; its end is a notice', () => {
	const {chat} = store();
	chat.apply({type: 'child', id: 'child-1', role: 'scout', status: 'running', turns: 0, activity: 'starting'});
	chat.apply({type: 'child', id: 'child-2', role: 'critic\u001b[31m', status: 'running', turns: 0, activity: 'starting'});
	chat.apply({type: 'child', id: 'child-1', role: 'scout', status: 'running', turns: 2, activity: 'running glob'});
	assert.deepEqual(chat.getSnapshot().children, [
		{id: 'child-1', role: 'scout', turns: 2, activity: 'running glob'},
		// A role is shown safe for the terminal.
		{id: 'child-2', role: 'critic\ufffd[31m', turns: 0, activity: 'starting'},
	]);
	chat.apply({type: 'child', id: 'child-1', role: 'scout', status: 'done', turns: 3, activity: 'finished'});
	chat.apply({type: 'child', id: 'child-2', role: 'critic', status: 'failed', turns: 1, activity: 'it ran past its timeout of 10 s (timeoutSeconds)'});
	const state = chat.getSnapshot();
	assert.deepEqual(state.children, []);
	assert.deepEqual(
		state.finished.filter(item => item.kind === 'notice').map(item => [(item as {level: string}).level, (item as {text: string}).text]),
		[
			['info', 'child scout (child-1) finished after 3 turns'],
			['warning', 'child critic (child-2) failed after 1 turn: it ran past its timeout of 10 s (timeoutSeconds)'],
		],
	);
});
