import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {App} from '../../components/App.js';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';
import type {TranscriptItem} from '../../source/tui/chat-state.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {MAX_KEPT_CHARS, PROGRESS_LINES} from '../../source/tui/shown-text.js';
import {transcriptText} from '../../source/tui/transcript-text.js';

const status = {model: 'gpt-x', workspace: '/work', session: 'abcdef0123', usage: null, window: null};
const numbered = (count: number, word = 'line') => Array.from({length: count}, (_, index) => `${word} ${index + 1}`).join('\n');

function finished(store: ChatStore, kind: TranscriptItem['kind']) {
	return store.getSnapshot().finished.filter(item => item.kind === kind);
}

test('the store keeps a tool result, a thinking text, a diff and a ! output whole for Ctrl-O', () => {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	store.addUser('go');
	store.apply({type: 'thinking_delta', text: numbered(12, 'thought')});
	store.apply({type: 'tool_call', id: 'c1', name: 'shell', arguments: '{"command":"seq 40"}'});
	store.asking('c1', {title: 'Run: seq 40', detail: numbered(30, 'detail')});
	store.apply({type: 'tool_result', id: 'c1', name: 'shell', output: numbered(40), is_error: false, images: 0});
	store.endBash({command: 'seq 30', output: numbered(30, 'out'), status: 'exit code 0', context: true});
	const [thinking] = finished(store, 'thinking') as Array<Extract<TranscriptItem, {kind: 'thinking'}>>;
	assert.equal(thinking!.text, numbered(12, 'thought'));
	const [tool] = finished(store, 'tool') as Array<Extract<TranscriptItem, {kind: 'tool'}>>;
	assert.equal(tool!.result, numbered(40));
	assert.equal(tool!.asked?.detail, numbered(30, 'detail'));
	const [bash] = finished(store, 'bash') as Array<Extract<TranscriptItem, {kind: 'bash'}>>;
	assert.equal(bash!.output, numbered(30, 'out'));
});

test('each kept text is bounded: whole at MAX_KEPT_CHARS, cut one past it with the cut said', () => {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	for (const [id, size] of [
		['at', MAX_KEPT_CHARS],
		['past', MAX_KEPT_CHARS + 1],
	] as const) {
		store.apply({type: 'tool_call', id, name: 'read', arguments: '{}'});
		store.apply({type: 'tool_result', id, name: 'read', output: 'r'.repeat(size), is_error: false, images: 0});
	}

	const [at, past] = finished(store, 'tool') as Array<Extract<TranscriptItem, {kind: 'tool'}>>;
	assert.equal(at!.result, 'r'.repeat(MAX_KEPT_CHARS));
	assert.equal(past!.result, `${'r'.repeat(MAX_KEPT_CHARS)}\n… 1 more characters not kept`);
});

test('a running tool keeps the last lines of its latest progress', () => {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	store.apply({type: 'tool_call', id: 'c1', name: 'shell', arguments: '{}'});
	store.apply({type: 'tool_started', id: 'c1', name: 'shell'});
	store.apply({type: 'tool_update', id: 'c1', name: 'shell', text: `${numbered(8)}\n\n`});
	assert.equal(store.getSnapshot().tools[0]!.progress, numbered(8).split('\n').slice(-PROGRESS_LINES).join('\n'));
});

test('the full transcript text shows every item unfolded, in order', () => {
	const store = new ChatStore(status, {logo: true, frameMs: 0});
	store.addUser('list it\nplease');
	store.apply({type: 'thinking_delta', text: 'first\nsecond'});
	store.apply({type: 'text_delta', text: 'Listing.\n'});
	store.apply({type: 'tool_call', id: 'c1', name: 'shell', arguments: '{"command":"seq 20"}'});
	store.apply({type: 'tool_result', id: 'c1', name: 'shell', output: numbered(20), is_error: false, images: 0});
	store.notice('warning', 'careful');
	store.apply({type: 'done', reason: 'stop', steps: 1});
	const text = transcriptText(store.getSnapshot().finished);
	const expected = ['› list it\n  please', '✻ thought (2 lines)\n  first\n  second', 'Listing.', `✓ shell command: seq 20\n  ${numbered(20).replaceAll('\n', '\n  ')}`, '! careful'].join('\n\n');
	assert.equal(text, `${expected}\n`);
});

test('a running shell call shows the last lines of its output under it, then its folded result with the Ctrl-O hint', async () => {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	const view = render(<App store={store} broker={new ApprovalBroker()} onSubmit={() => {}} onInterrupt={() => {}} onExit={() => {}} />);
	store.addUser('count');
	store.apply({type: 'tool_call', id: 'c1', name: 'shell', arguments: '{"command":"count"}'});
	store.apply({type: 'tool_started', id: 'c1', name: 'shell'});
	store.apply({type: 'tool_update', id: 'c1', name: 'shell', text: numbered(3, 'line')});
	await delay(30);
	assert.match(view.lastFrame()!, /◐ shell command: count\n\s+line 1\n\s+line 2\n\s+line 3\n/);
	store.apply({type: 'tool_update', id: 'c1', name: 'shell', text: numbered(9, 'line').split('\n').slice(-5).join('\n')});
	await delay(30);
	assert.match(view.lastFrame()!, /◐ shell command: count\n\s+line 5\n(\s+line \d\n){3}\s+line 9\n/);
	assert.doesNotMatch(view.lastFrame()!, /line 4/);
	store.apply({type: 'tool_result', id: 'c1', name: 'shell', output: numbered(12, 'line'), is_error: false, images: 0});
	store.apply({type: 'done', reason: 'stop', steps: 1});
	await delay(30);
	assert.match(view.lastFrame()!, /✓ shell command: count\n(\s+line \d+\n){6}\s+… 6 more lines · Ctrl-O/);
	view.unmount();
});
