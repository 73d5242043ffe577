import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {App} from '../../components/App.js';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';
import {ChatStore} from '../../source/tui/chat-store.js';

const status = {model: 'gpt-x', workspace: '/work', session: 'abcdef0123', usage: null, window: null};

function chat() {
	const store = new ChatStore(status, {logo: false, frameMs: 0});
	const view = render(<App store={store} broker={new ApprovalBroker()} onSubmit={() => {}} onInterrupt={() => {}} onExit={() => {}} />);
	// ink-testing-library's frame is everything Static wrote, in order, then the live area.
	const transcript = () => view.lastFrame()!;
	return {store, view, transcript};
}

test('the transcript: the person, streamed answer lines, collapsed thinking, a tool with its result, a notice; the live line below', async () => {
	const {store, view, transcript} = chat();
	store.addUser('what is in a.txt?');
	store.apply({type: 'thinking_delta', text: 'I should\nread the file\nfirst'});
	store.apply({type: 'text_delta', text: 'Let me look.'});
	store.apply({type: 'tool_call', id: 'c1', name: 'read', arguments: '{"files":[{"path":"a.txt"}]}'});
	await delay(20);
	assert.match(view.lastFrame()!, /read files: path: a\.txt/, 'the running call is in the live area');
	store.apply({type: 'tool_started', id: 'c1', name: 'read'});
	store.apply({type: 'tool_result', id: 'c1', name: 'read', output: '==> a.txt <==\n1\talpha', is_error: false, images: 0});
	store.apply({type: 'text_delta', text: 'It says alpha.\nThat is all; still typ'});
	await delay(20);
	assert.match(view.lastFrame()!, /still typ/, 'the unfinished line is live');
	store.apply({type: 'text_delta', text: 'ing.\n'});
	store.apply({type: 'done', reason: 'stop', steps: 2});
	store.notice('warning', 'a warning for the person');
	await delay(20);

	const text = transcript();
	const order = ['› what is in a.txt?', 'thought (3 lines)', 'Let me look.', '✓ read files: path: a.txt', '1   alpha', 'It says alpha.', 'That is all; still typing.', 'a warning for the person'];
	let from = 0;
	for (const part of order) {
		const at = text.indexOf(part, from);
		assert.ok(at !== -1, `${JSON.stringify(part)} after position ${from} in:\n${text}`);
		from = at + part.length;
	}

	assert.doesNotMatch(text, /I should/, 'thinking text itself is not shown');
	assert.equal(text.split('\n').filter(line => line === 'It says alpha.').length, 1, 'each line once');
	assert.match(text.split('\n').slice(-3).join('\n'), /^\n?› Ask i anything[^\n]*\ngpt-x · \/work · session abcdef01 +\/help$/, 'the idle editor and status line at the bottom');
	view.unmount();
});
