// The chat screen shows the text an extension's MessageEnd left (issue 47, point 7).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ChatStore} from '../../source/tui/chat-store.js';

const status = {model: 'm', workspace: '/w', session: null, usage: null, window: null};
const flush = async () => new Promise(resolve => setTimeout(resolve, 5));

function written(chat: ChatStore): Array<{kind: string; text: string}> {
	return chat
		.getSnapshot()
		.finished.filter(item => item.kind === 'assistant' || item.kind === 'notice')
		.map(item => ({kind: item.kind, text: (item as {text: string}).text}));
}

test('a replaced answer still live is redrawn with the replacement; nothing of the original reaches the scrollback', async () => {
	const chat = new ChatStore(status, {logo: false, frameMs: 0});
	chat.addUser('the key?');
	for (const piece of ['The key is ', 'secret-abc', '123.']) chat.apply({type: 'text_delta', text: piece});
	await flush();
	assert.equal(chat.getSnapshot().partial, 'The key is secret-abc123.');
	chat.apply({type: 'message_end', text: 'The key is [REDACTED].', replaced_by: 'redactor'});
	assert.equal(chat.getSnapshot().partial, 'The key is [REDACTED].');
	chat.apply({type: 'done', reason: 'stop', steps: 1});
	assert.deepEqual(written(chat), [{kind: 'assistant', text: 'The key is [REDACTED].'}]);
});

test('once part of the answer is in the scrollback, the replacement follows it under a note naming the extension; the rest of the original is never written', async () => {
	const chat = new ChatStore(status, {logo: false, frameMs: 0});
	chat.addUser('the key?');
	chat.apply({type: 'text_delta', text: 'First line.\nThe key is secret-abc'});
	await flush();
	chat.apply({type: 'text_delta', text: '123.'});
	chat.apply({type: 'message_end', text: 'First line.\nThe key is [REDACTED].', replaced_by: 'redactor'});
	chat.apply({type: 'done', reason: 'stop', steps: 1});
	const items = written(chat);
	const note = items.findIndex(item => item.kind === 'notice');
	assert.deepEqual(items.slice(0, note + 1), [
		{kind: 'assistant', text: 'First line.'},
		{kind: 'notice', text: 'extension redactor replaced the answer above; the session keeps this text:'},
	]);
	// The replacement is written line by line, as any streamed answer.
	assert.equal(
		items
			.slice(note + 1)
			.map(item => item.text)
			.join('\n'),
		'First line.\nThe key is [REDACTED].',
	);
});

test('a message_end that replaced nothing leaves the answer as it streams', async () => {
	const chat = new ChatStore(status, {logo: false, frameMs: 0});
	chat.addUser('hi');
	chat.apply({type: 'text_delta', text: 'Hello.'});
	chat.apply({type: 'message_end', text: 'Hello.', replaced_by: null});
	chat.apply({type: 'done', reason: 'stop', steps: 1});
	assert.deepEqual(written(chat), [{kind: 'assistant', text: 'Hello.'}]);
});
