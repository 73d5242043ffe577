// What a model request carries of the extensions' deliveries (delivered-for-model.ts):
// the metadata never, an empty custom message not at all, and the very same
// history array when there is no delivery in it.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {forModel} from '../../source/core/agent/delivered-for-model.js';
import type {Message} from '../../source/core/messages.js';

test('an extension message goes as a plain user message; one without content is left out', () => {
	const empty = {role: 'user', content: [], _extension_message: {id: 'a', extension: 'x', display: false}} as unknown as Message;
	const shown = {role: 'user', content: 'goal updated', _extension_message: {id: 'b', extension: 'x', customType: 'goal', display: true, details: {n: 1}}} as unknown as Message;
	assert.deepEqual(forModel([empty, {role: 'user', content: 'hi'}, shown]), [
		{role: 'user', content: 'hi'},
		{role: 'user', content: 'goal updated'},
	]);
});

test('a history without deliveries is passed through as the same array', () => {
	const history: Message[] = [{role: 'user', content: 'hi'}];
	assert.equal(forModel(history), history);
});
