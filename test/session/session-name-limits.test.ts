// The naming limits of session-name.ts at the limit and one past it: the
// suffixes up to MAX_NAME_SUFFIX, then a random one; the name a first
// message gives never counts an attachment or a ! command's output.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {firstUserText, MAX_NAME_SUFFIX, unusedName} from '../../source/core/session/session-name.js';

test(`the last numbered name is base-${MAX_NAME_SUFFIX}; with that one taken too the suffix is random`, async () => {
	const takenUpTo = (last: number) => async (name: string) => name === 'x' || (/^x-(\d+)$/.test(name) && Number(name.slice(2)) <= last);
	assert.equal(await unusedName('x', takenUpTo(MAX_NAME_SUFFIX - 1)), `x-${MAX_NAME_SUFFIX}`);
	const past = await unusedName('x', takenUpTo(MAX_NAME_SUFFIX));
	assert.match(past, /^x-[0-9a-f]{1,8}$/);
	assert.ok(!/^x-\d+$/.test(past) || Number(past.slice(2)) > MAX_NAME_SUFFIX, past);
});

test("a session's name comes from the typed words: not an attached file's text, not a ! command's output", () => {
	const attached = {
		role: 'user' as const,
		content: [
			{type: 'text' as const, text: 'fix the bug'},
			{type: 'text' as const, text: '==> a.txt <==\nsecret words'},
		],
	};
	assert.equal(firstUserText([attached]), 'fix the bug');
	const bash = {role: 'user' as const, content: 'ran ls', _user_bash: {command: 'ls', shown: '', status: 'exit code 0'}};
	assert.equal(firstUserText([bash as never, {role: 'user', content: 'then this'}]), 'then this');
});
