// The checks of an extension's childAgent request (child-request.ts) at their
// limits and one past: the tool list and the handle of poll/cancel/dispose.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {MAX_CHILD_ID_CHARS, MAX_CHILD_TOOLS, readChildRequest} from '../../source/core/child-request.js';
import {RuntimeActionError} from '../../source/core/extensions/runtime-link.js';

const refused = (request: unknown, pattern: RegExp) =>
	assert.throws(
		() => readChildRequest(request, 'ext'),
		(error: unknown) => error instanceof RuntimeActionError && error.code === 'invalid_argument' && error.action === 'childAgent' && pattern.test(error.message),
	);

test(`a start names at most ${MAX_CHILD_TOOLS} tools`, () => {
	const tools = Array.from({length: MAX_CHILD_TOOLS}, (_, index) => `tool_${index}`);
	const read = readChildRequest({op: 'start', task: 'do it', tools}, 'ext');
	assert.equal(read.op === 'start' && read.start.tools?.length, MAX_CHILD_TOOLS);
	refused({op: 'start', task: 'do it', tools: [...tools, 'one_more']}, new RegExp(`extension ext: start: .*tools.*at most ${MAX_CHILD_TOOLS} names`));
});

test(`a handle is 1 to ${MAX_CHILD_ID_CHARS} characters, for each of poll, cancel and dispose`, () => {
	for (const op of ['poll', 'cancel', 'dispose'] as const) {
		assert.deepEqual(readChildRequest({op, childId: 'c'.repeat(MAX_CHILD_ID_CHARS)}, 'ext'), {op, childId: 'c'.repeat(MAX_CHILD_ID_CHARS)});
		refused({op, childId: 'c'.repeat(MAX_CHILD_ID_CHARS + 1)}, new RegExp(`extension ext: ${op}: .*childId.*at most ${MAX_CHILD_ID_CHARS} characters`));
		refused({op, childId: ''}, new RegExp(`${op}: .*the childId is empty`));
		refused({op}, new RegExp(`${op}: .*childId`));
	}
});

test('an op that is not one of the four, or a request that is not an object, names what there is', () => {
	refused({op: 'restart', childId: 'c'}, /field "op" is "restart"; it is one of start, poll, cancel, dispose/);
	refused({childId: 'c'}, /field "op" is missing/);
	for (const request of [null, 'start', ['start'], 7]) refused(request, /the request is not an object/);
});
