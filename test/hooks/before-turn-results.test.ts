import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {Message} from '../../source/core/messages.js';
import {readBeforeTurn} from '../../source/core/lifecycle/hook-results.js';

const given: Message[] = [
	{role: 'system', content: 's'},
	{role: 'user', content: 'u'},
];

test('before_turn: what a hook appended is read back, whether it returned the very messages or copies', () => {
	const added = {role: 'user', content: 'steering'};
	assert.deepEqual(readBeforeTurn({messages: [...given, added]}, given), [added]);
	assert.deepEqual(readBeforeTurn({messages: [...given.map(message => ({...message})), added]}, given), [added]);
	assert.deepEqual(readBeforeTurn({messages: given}, given), []);
});

test('before_turn: an appended message is checked even when the prefix is the very one given', () => {
	assert.throws(() => readBeforeTurn({messages: [...given, {role: 'robot', content: 'x'}]}, given), {name: 'HookError', message: /before_turn hook returned data the core cannot use/});
});

test('before_turn: a changed, dropped or reordered prefix is refused', () => {
	for (const messages of [[{role: 'system', content: 'changed'}, given[1]], [given[1]], [given[1], given[0]]]) {
		assert.throws(() => readBeforeTurn({messages}, given), {name: 'HookError', message: 'before_turn hook changed the history it was given; a hook may only append messages'});
	}
});
