// The limits registerFlag and registerCommand check, at the limit and one past.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ExtensionFlags, MAX_FLAG_DESCRIPTION_CHARS, MAX_FLAG_NAME_LENGTH} from '../../source/core/extensions/cli-flags.js';
import {checkCommand, MAX_COMMAND_DESCRIPTION_CHARS, MAX_COMMAND_NAME_LENGTH} from '../../source/core/extensions/check-command.js';

const flags = () => new ExtensionFlags({flags: [], input: [], takesInput: true, reserved: ['json']});

test(`a flag name of ${MAX_FLAG_NAME_LENGTH} characters is taken, one more is refused; so is a description past ${MAX_FLAG_DESCRIPTION_CHARS}`, () => {
	const longest = `a${'b'.repeat(MAX_FLAG_NAME_LENGTH - 1)}`;
	assert.equal(flags().check('x', longest, {type: 'boolean', description: 'd'}, new Map()).name, longest);
	assert.throws(() => flags().check('x', `${longest}b`, {type: 'boolean', description: 'd'}, new Map()), {message: /1–64 lower-case letters/});
	assert.equal(flags().check('x', 'mode', {type: 'string', description: 'd'.repeat(MAX_FLAG_DESCRIPTION_CHARS)}, new Map()).spec.description.length, MAX_FLAG_DESCRIPTION_CHARS);
	assert.throws(() => flags().check('x', 'mode', {type: 'string', description: 'd'.repeat(MAX_FLAG_DESCRIPTION_CHARS + 1)}, new Map()), {message: /description is over 500 characters/});
	assert.throws(() => flags().check('x', 'Mode', {type: 'string', description: 'd'}, new Map()), {message: /lower-case/});
	assert.throws(() => flags().check('x', 'mode', {type: 'string', description: ' '}, new Map()), {message: /description must be a non-empty string/});
});

test(`a command name of ${MAX_COMMAND_NAME_LENGTH} characters is taken, one more is refused; so is a description past ${MAX_COMMAND_DESCRIPTION_CHARS}`, () => {
	const handler = () => 'ok';
	const longest = `a${'b'.repeat(MAX_COMMAND_NAME_LENGTH - 1)}`;
	assert.equal(checkCommand(longest, {description: 'd', handler}).name, longest);
	assert.throws(() => checkCommand(`${longest}b`, {description: 'd', handler}), {message: /1–32 lower-case letters/});
	assert.equal(checkCommand('go', {description: 'd'.repeat(MAX_COMMAND_DESCRIPTION_CHARS), handler}).command.description.length, MAX_COMMAND_DESCRIPTION_CHARS);
	assert.throws(() => checkCommand('go', {description: 'd'.repeat(MAX_COMMAND_DESCRIPTION_CHARS + 1), handler}), {message: /one line of at most 200 characters/});
	assert.throws(() => checkCommand('go', {description: '', handler}), {message: /description must be a non-empty string/});
});
