import {test} from 'node:test';
import assert from 'node:assert/strict';
import {slashCommands} from '../../source/tui/slash-commands.js';
import {builtinCommandNames} from '../../source/core/extensions/check-command.js';

test("the names extensions may not take are the chat screen's own commands, all of them", () => {
	assert.deepEqual(
		slashCommands.map(command => command.name.slice(1)),
		[...builtinCommandNames],
	);
});
