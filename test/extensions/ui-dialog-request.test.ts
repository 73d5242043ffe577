// api.runtime.uiDialog's request check (source/core/extensions/ui-dialog-request.ts):
// each shape, each named limit at its value and one past it, and the refusal
// of the heads without a screen.
import {headlessDialog} from '../../source/core/extensions/headless-dialog.js';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {RuntimeActionError, bindInvocation} from '../../source/core/extensions/runtime-link.js';
import {
	MAX_DIALOG_MESSAGE_CHARS,
	MAX_DIALOG_OPTIONS,
	MAX_DIALOG_TIMEOUT_MS,
	MAX_DIALOG_TITLE_CHARS,
	MAX_INPUT_CHARS,
	MAX_INPUT_PLACEHOLDER_CHARS,
	MAX_OPTION_DESCRIPTION_CHARS,
	MAX_OPTION_LABEL_CHARS,
	MAX_OPTION_VALUE_CHARS,
	MIN_DIALOG_TIMEOUT_MS,
	dialogBinding,
	parseDialogRequest,
} from '../../source/core/extensions/ui-dialog-request.js';

const parse = (request: unknown) => parseDialogRequest('ext', request);

/** The request is refused as invalid_argument, and the message names the extension and matches `why`. */
function refused(request: unknown, why: RegExp): void {
	assert.throws(
		() => parse(request),
		(error: unknown) => {
			assert.ok(error instanceof RuntimeActionError, String(error));
			assert.equal(error.code, 'invalid_argument');
			assert.equal(error.action, 'uiDialog');
			assert.match(error.message, /^uiDialog: extension ext: /);
			assert.match(error.message, why);
			return true;
		},
	);
}

const select = (change: Record<string, unknown> = {}) => ({type: 'select', title: 'Pick', options: ['a', 'b'], ...change});
const options = (count: number) => Array.from({length: count}, (_, index) => `option ${index}`);

test('the three shapes are accepted; a select of strings becomes options of value and label', () => {
	assert.deepEqual(parse(select({default: 'b', timeoutMs: 5000})), {
		type: 'select',
		title: 'Pick',
		default: 'b',
		timeoutMs: 5000,
		options: [
			{value: 'a', label: 'a'},
			{value: 'b', label: 'b'},
		],
	});
	assert.deepEqual(parse({type: 'select', title: 'T', options: [{value: 'v', label: 'L', description: 'd'}]}).type, 'select');
	assert.deepEqual(parse({type: 'confirm', title: 'Sure?', message: 'It deletes', default: true}), {type: 'confirm', title: 'Sure?', message: 'It deletes', default: true});
	assert.deepEqual(parse({type: 'input', title: 'Name', placeholder: 'a name', default: 'x', secret: true}), {type: 'input', title: 'Name', placeholder: 'a name', default: 'x', secret: true});
});

test('a request that is not an object, has no known type, a missing title or an unknown field is refused naming the field', () => {
	refused(null, /the request is not an object/);
	refused('select', /the request is not an object/);
	refused([], /the request is not an object/);
	refused({title: 'x'}, /field "type" is missing; it is one of "select", "confirm", "input"/);
	refused({type: 'prompt', title: 'x'}, /field "type" is "prompt"/);
	refused({type: 'confirm'}, /missing field "title"/);
	refused({type: 'confirm', title: ''}, /field "title": the title is empty/);
	refused({type: 'confirm', title: 'x', options: ['a']}, /unknown field "options"/);
	refused({type: 'confirm', title: 5}, /field "title": the title is not a string/);
	refused({type: 'confirm', title: 'x', default: 'yes'}, /field "default": the default is not true or false/);
	refused({type: 'input', title: 'x', secret: 'yes'}, /field "secret": secret is not true or false/);
	refused(select({options: []}), /options is empty/);
	refused(select({options: ['a', '']}), /field "options.1": an option is empty/);
	refused(select({options: [3]}), /field "options.0" is neither a string nor \{value, label, description\?\}/);
	refused(select({options: 'ab'}), /field "options": options is not a list/);
	refused(select({options: ['a', 'a']}), /field "options.1": the value "a" is there twice/);
	refused(select({default: 'c'}), /field "default": "c" is not the value of an option/);
	refused(select({options: [{value: 'v'}]}), /missing field "options.0.label"/);
	refused(select({options: [{value: 'v', label: 'l', extra: 1}]}), /unknown field "extra" in "options.0"/);
});

test('the title is at most MAX_DIALOG_TITLE_CHARS characters', () => {
	assert.equal(parse({type: 'confirm', title: 't'.repeat(MAX_DIALOG_TITLE_CHARS)}).title.length, MAX_DIALOG_TITLE_CHARS);
	refused({type: 'confirm', title: 't'.repeat(MAX_DIALOG_TITLE_CHARS + 1)}, new RegExp(`field "title": the title is longer than ${MAX_DIALOG_TITLE_CHARS} characters \\(MAX_DIALOG_TITLE_CHARS\\)`));
});

test('a confirm message is at most MAX_DIALOG_MESSAGE_CHARS characters', () => {
	parse({type: 'confirm', title: 't', message: 'm'.repeat(MAX_DIALOG_MESSAGE_CHARS)});
	refused({type: 'confirm', title: 't', message: 'm'.repeat(MAX_DIALOG_MESSAGE_CHARS + 1)}, /field "message": .*MAX_DIALOG_MESSAGE_CHARS/);
});

test('a select has at most MAX_DIALOG_OPTIONS options', () => {
	const request = parse(select({options: options(MAX_DIALOG_OPTIONS)}));
	assert.equal(request.type === 'select' && request.options.length, MAX_DIALOG_OPTIONS);
	refused(select({options: options(MAX_DIALOG_OPTIONS + 1)}), new RegExp(`field "options": more than ${MAX_DIALOG_OPTIONS} options \\(MAX_DIALOG_OPTIONS\\)`));
});

test('an option label, value and description each have their limit, for strings and objects alike', () => {
	parse(select({options: ['l'.repeat(MAX_OPTION_LABEL_CHARS)]}));
	refused(select({options: ['l'.repeat(MAX_OPTION_LABEL_CHARS + 1)]}), new RegExp(`field "options.0": an option is longer than ${MAX_OPTION_LABEL_CHARS} characters \\(MAX_OPTION_LABEL_CHARS\\)`));
	const entry = (change: Record<string, unknown>) => select({options: [{value: 'v', label: 'l', ...change}]});
	parse(entry({label: 'l'.repeat(MAX_OPTION_LABEL_CHARS)}));
	refused(entry({label: 'l'.repeat(MAX_OPTION_LABEL_CHARS + 1)}), /field "options.0.label": .*\(MAX_OPTION_LABEL_CHARS\)/);
	parse(entry({value: 'v'.repeat(MAX_OPTION_VALUE_CHARS)}));
	refused(entry({value: 'v'.repeat(MAX_OPTION_VALUE_CHARS + 1)}), /field "options.0.value": .*\(MAX_OPTION_VALUE_CHARS\)/);
	parse(entry({description: 'd'.repeat(MAX_OPTION_DESCRIPTION_CHARS)}));
	refused(entry({description: 'd'.repeat(MAX_OPTION_DESCRIPTION_CHARS + 1)}), /field "options.0.description": .*\(MAX_OPTION_DESCRIPTION_CHARS\)/);
});

test('an input placeholder and default have their limits; the default is bounded like the answer', () => {
	parse({type: 'input', title: 't', placeholder: 'p'.repeat(MAX_INPUT_PLACEHOLDER_CHARS)});
	refused({type: 'input', title: 't', placeholder: 'p'.repeat(MAX_INPUT_PLACEHOLDER_CHARS + 1)}, /field "placeholder": .*MAX_INPUT_PLACEHOLDER_CHARS/);
	parse({type: 'input', title: 't', default: 'd'.repeat(MAX_INPUT_CHARS)});
	refused({type: 'input', title: 't', default: 'd'.repeat(MAX_INPUT_CHARS + 1)}, new RegExp(`field "default": the default is longer than ${MAX_INPUT_CHARS} characters \\(MAX_INPUT_CHARS\\)`));
});

test('timeoutMs is a whole number between MIN_DIALOG_TIMEOUT_MS and MAX_DIALOG_TIMEOUT_MS', () => {
	parse({type: 'confirm', title: 't', timeoutMs: MIN_DIALOG_TIMEOUT_MS});
	parse({type: 'confirm', title: 't', timeoutMs: MAX_DIALOG_TIMEOUT_MS});
	refused({type: 'confirm', title: 't', timeoutMs: MIN_DIALOG_TIMEOUT_MS - 1}, /field "timeoutMs": timeoutMs is below 100 \(MIN_DIALOG_TIMEOUT_MS\)/);
	refused({type: 'confirm', title: 't', timeoutMs: MAX_DIALOG_TIMEOUT_MS + 1}, /field "timeoutMs": timeoutMs is above 3600000 \(MAX_DIALOG_TIMEOUT_MS\)/);
	refused({type: 'confirm', title: 't', timeoutMs: 1000.5}, /field "timeoutMs": timeoutMs is not a whole number/);
	refused({type: 'confirm', title: 't', timeoutMs: '1000'}, /field "timeoutMs"/);
});

test('a head without a screen checks the request, then refuses it as unavailable and answers nothing', async () => {
	const refuse = headlessDialog('i -p');
	await assert.rejects(refuse('ext', {type: 'confirm', title: 'Delete it?'}), (error: unknown) => {
		assert.ok(error instanceof RuntimeActionError);
		assert.equal(error.code, 'unavailable');
		assert.equal(error.message, 'uiDialog: extension ext: i -p has no screen to ask on, so the confirm dialog "Delete it?" was not shown and nobody answered it');
		return true;
	});
	await assert.rejects(refuse('ext', {type: 'confirm'}), (error: unknown) => error instanceof RuntimeActionError && error.code === 'invalid_argument');
});

test('the second argument binds the dialog to a tool call, or to any signal it carries', () => {
	const controller = new AbortController();
	const ctx = {signal: controller.signal, onUpdate() {}};
	assert.deepEqual(dialogBinding(ctx), {signal: controller.signal}, 'an unbound object with a signal: the signal');
	const invocation = {extension: 'ext', toolCallId: 'call-1', signal: new AbortController().signal, ended: false};
	bindInvocation(ctx, invocation);
	assert.deepEqual(dialogBinding(ctx), {invocation, signal: invocation.signal}, 'a tool ctx: its call');
	assert.deepEqual(dialogBinding(undefined), {});
	assert.deepEqual(dialogBinding({signal: 'no'}), {});
});
