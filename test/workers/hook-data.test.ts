import assert from 'node:assert/strict';
import {test} from 'node:test';
import {messagesOf} from '../../workers/serve/hook-data.js';

test('messagesOf gives back the very messages after checking them; a bad one is named, frozen or not', () => {
	const messages = [Object.freeze({role: 'system', content: 's'}), {role: 'user', content: 'u'}];
	assert.equal(messagesOf('before_turn', {messages}), messages);
	// Checked once while frozen; a second look finds it known.
	assert.equal(messagesOf('before_turn', {messages}), messages);
	assert.throws(() => messagesOf('before_turn', {messages: [...messages, Object.freeze({role: 'robot', content: 'x'})]}), /^Error: before_turn data: /);
	assert.throws(() => messagesOf('before_compact_commit', {messages: 'none'}), /^Error: before_compact_commit data: /);
	assert.throws(() => messagesOf('before_turn', {}), /^Error: before_turn data: /);
});
