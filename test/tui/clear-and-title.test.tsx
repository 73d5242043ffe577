// /clear leaves nothing of the old session on the screen, and the terminal
// title follows the session's name and whether `i` works (issue 45, point 7).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {App} from '../../components/App.js';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {followTitle, MAX_TITLE_NAME_CHARS, safeTitleText, sessionTitleName, titleOf, titleSequence} from '../../source/tui/terminal-title.js';

const status = {model: 'm', workspace: '/work', session: 's', usage: null, window: 1000};
const usage = {input: 400, output: 20, cacheRead: 100, cacheWrite: 0, raw: {}};

test('clearTranscript: the old transcript, tokens, context share, cache and cost go; what comes after shows', async () => {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	const view = render(<App store={store} broker={new ApprovalBroker()} onSubmit={() => {}} onInterrupt={() => {}} onExit={() => {}} />);
	store.started({});
	store.addUser('the old question');
	store.apply({type: 'usage', model: 'm', usage, cost: {dollars: 0.5, unknown: false}, session_cost: {dollars: 0.5, unknown: false}, prices: null});
	store.apply({type: 'text_delta', text: 'the old answer\n'});
	store.apply({type: 'done', reason: 'stop', steps: 1} as never);
	await delay(20);
	const before = view.lastFrame()!;
	assert.ok(before.includes('the old question') && before.includes('↑400') && before.includes('ctx 42%'), before);
	store.clearTranscript();
	store.notice('info', 'new session two');
	await delay(20);
	// The transcript is written afresh from what the store holds now (ink-testing-library keeps every static write, so the store is asked).
	assert.deepEqual(
		store.getSnapshot().finished.map(item => item.kind),
		['notice'],
	);
	const after = view.lastFrame()!;
	const live = after.slice(after.lastIndexOf('new session two'));
	for (const gone of ['↑', 'ctx', 'cache', 'cost']) assert.ok(!live.includes(gone), `${gone} in\n${live}`);
	assert.ok(live.includes('session s'), live);
	view.unmount();
});

test('the title: the session name, working or not; a new session is plain i', () => {
	assert.equal(titleOf('fix-login', true), 'i · fix-login · working');
	assert.equal(titleOf('fix-login', false), 'i · fix-login');
	assert.equal(titleOf(null, false), 'i');
	assert.equal(sessionTitleName('/data/sessions/fix-login.json'), 'fix-login');
	assert.equal(sessionTitleName('/data/sessions/.new-2026-01-01-ab12.json'), null, 'a provisional file has no name yet');
	assert.equal([...sessionTitleName(`/x/${'名'.repeat(MAX_TITLE_NAME_CHARS + 1)}.json`)!].length, MAX_TITLE_NAME_CHARS);
});

test('control characters in a session name never reach the terminal: no ESC, BEL, C1, bidi or line separator', () => {
	const hostile = 'ok\u001B]0;pwned\u0007\u009B2J\u202Ename\u2028end\r\n';
	const name = sessionTitleName(`/s/${hostile}.json`)!;
	assert.equal(name, 'ok]0;pwned2Jnameend');
	const sequence = titleSequence(titleOf(name, true));
	// One OSC, opened once and ended once.
	assert.equal(sequence, '\u001B]0;i · ok]0;pwned2Jnameend · working\u001B\\');
	assert.equal(safeTitleText('\u0000a\u007Fb\u0085c\u200Bd'), 'abcd');
});

test('followTitle writes the title when it changes (working, idle, a new name) and restores on stop', () => {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	const broker = new ApprovalBroker();
	let path = '/s/.new-1.json';
	const written: string[] = [];
	store.started({});
	const stop = followTitle({store, approvals: broker, sessionPath: () => path}, bytes => written.push(bytes));
	assert.deepEqual(written, ['\u001B[22;0t\u001B]0;i\u001B\\']);
	store.addUser('fix the login');
	path = '/s/fix-login.json';
	store.setBusy(false);
	store.setBusy(true);
	store.notice('info', 'nothing that changes the title');
	stop();
	assert.deepEqual(written.slice(1), ['\u001B]0;i · working\u001B\\', '\u001B]0;i · fix-login\u001B\\', '\u001B]0;i · fix-login · working\u001B\\', '\u001B]0;\u001B\\\u001B[23;0t']);
	store.setBusy(false);
	assert.equal(written.length, 5, 'nothing after stop');
});
