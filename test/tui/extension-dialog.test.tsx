// The chat screen's extension dialogs (api.runtime.uiDialog): the widget of
// each type (components/ExtensionDialog.tsx) and the broker that queues them
// with i's own questions and tells UiPromptStart/End (source/tui/brokers/dialog-broker.ts).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {ExtensionDialog, MAX_VISIBLE_OPTIONS} from '../../components/ExtensionDialog.js';
import {loadTextInput} from '../../components/use-text-input.js';
import {RuntimeActionError} from '../../source/core/extensions/runtime-link.js';
import {MAX_INPUT_CHARS, MAX_PENDING_DIALOGS, parseDialogRequest, type DialogAnswer} from '../../source/core/extensions/ui-dialog-request.js';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';
import {DialogBroker, type PendingDialog} from '../../source/tui/brokers/dialog-broker.js';
import {QuestionLine} from '../../source/tui/brokers/open-question.js';
import type {PromptObserver, UiPrompt, UiPromptAnswer, UiPromptDetail} from '../../source/tui/ui-prompt-events.js';

const ESC = '\u001B';
const DOWN = '\u001B[B';
const UP = '\u001B[A';

function pending(request: unknown, answers: DialogAnswer[]): PendingDialog {
	return {id: 'dialog-1', extension: 'asker', request: parseDialogRequest('asker', request), answer: answer => answers.push(answer)};
}

/** Renders the dialog and waits out the type-ahead guard, as a person would. */
async function shown(request: unknown, answers: DialogAnswer[], onLeave = () => {}) {
	const view = render(<ExtensionDialog pending={pending(request, answers)} onLeave={onLeave} />);
	await delay(TYPEAHEAD_GUARD_MS + 20);
	return view;
}

const settle = async () => delay(50);

test('a select names the extension and its title, moves with the arrows and j/k, and answers the highlighted value on Enter', async () => {
	const answers: DialogAnswer[] = [];
	const view = await shown({type: 'select', title: 'Which branch?', options: [{value: 'm', label: 'main', description: 'the default'}, 'dev', 'next']}, answers);
	assert.match(view.lastFrame()!, /Which branch\? — asked by extension asker/);
	assert.match(view.lastFrame()!, /❯ main the default/);
	assert.match(view.lastFrame()!, /↑↓ or j\/k to move · Enter to choose · Esc to cancel/);
	view.stdin.write(DOWN);
	await settle();
	view.stdin.write('j');
	await settle();
	assert.match(view.lastFrame()!, /❯ next/);
	view.stdin.write('j');
	await settle();
	assert.match(view.lastFrame()!, /❯ next/, 'the last option stays highlighted');
	view.stdin.write(UP);
	await settle();
	view.stdin.write('k');
	await settle();
	view.stdin.write('k');
	await settle();
	assert.match(view.lastFrame()!, /❯ main/);
	view.stdin.write('j');
	await settle();
	view.stdin.write('\r');
	await settle();
	assert.deepEqual(answers, [{value: 'dev'}]);
	view.unmount();
});

test('a select starts on its default; Enter right after it appeared answers nothing; Esc cancels', async () => {
	const answers: DialogAnswer[] = [];
	const view = render(<ExtensionDialog pending={pending({type: 'select', title: 'T', options: ['a', 'b', 'c'], default: 'c'}, answers)} onLeave={() => {}} />);
	assert.match(view.lastFrame()!, /❯ c/);
	view.stdin.write('\r');
	await settle();
	assert.deepEqual(answers, [], 'typed ahead: meant for the editor');
	await delay(TYPEAHEAD_GUARD_MS);
	view.stdin.write('\r');
	await settle();
	view.stdin.write(ESC);
	await settle();
	assert.deepEqual(answers, [{value: 'c'}, {cancelled: true}]);
	view.unmount();
});

test('a long select shows MAX_VISIBLE_OPTIONS at a time, scrolls with the highlight and counts the rest', async () => {
	const answers: DialogAnswer[] = [];
	const options = Array.from({length: 100}, (_, index) => `option-${index + 1}`);
	const view = await shown({type: 'select', title: 'Many', options}, answers);
	const frame = view.lastFrame()!;
	assert.match(frame, new RegExp(`option-${MAX_VISIBLE_OPTIONS}\\b`));
	assert.doesNotMatch(frame, new RegExp(`option-${MAX_VISIBLE_OPTIONS + 1}\\b`));
	assert.match(frame, new RegExp(`↓ ${100 - MAX_VISIBLE_OPTIONS} more`));
	assert.doesNotMatch(frame, /↑ \d+ more/);
	for (let step = 0; step < 50; step++) view.stdin.write('j');
	await settle();
	const middle = view.lastFrame()!;
	assert.match(middle, /❯ option-51\b/);
	assert.doesNotMatch(middle, /option-1\b/);
	assert.match(middle, /↑ \d+ more/);
	assert.match(middle, /↓ \d+ more/);
	for (let step = 0; step < 60; step++) view.stdin.write('j');
	await settle();
	assert.match(view.lastFrame()!, /❯ option-100\b/);
	assert.doesNotMatch(view.lastFrame()!, /↓ \d+ more/);
	view.stdin.write('\r');
	await settle();
	assert.deepEqual(answers, [{value: 'option-100'}]);
	view.unmount();
	// A short terminal shows fewer.
	const short = render(<ExtensionDialog pending={pending({type: 'select', title: 'Many', options}, [])} maxVisible={3} onLeave={() => {}} />);
	assert.match(short.lastFrame()!, /option-3\b/);
	assert.doesNotMatch(short.lastFrame()!, /option-4\b/);
	assert.match(short.lastFrame()!, /↓ 97 more/);
	short.unmount();
});

test('a confirm shows its message, answers y and n, takes its default on Enter, and without one Enter answers nothing', async () => {
	const answers: DialogAnswer[] = [];
	const view = await shown({type: 'confirm', title: 'Deploy?', message: 'It goes to production.'}, answers);
	assert.match(view.lastFrame()!, /Deploy\? — asked by extension asker/);
	assert.match(view.lastFrame()!, /It goes to production\./);
	assert.match(view.lastFrame()!, /\[y\] yes \[n\] no · Esc to cancel/);
	view.stdin.write('\r');
	await settle();
	assert.deepEqual(answers, [], 'no default: Enter decides nothing');
	view.stdin.write('y');
	await settle();
	view.stdin.write('n');
	await settle();
	assert.deepEqual(answers, [{confirmed: true}, {confirmed: false}]);
	view.unmount();

	const defaulted: DialogAnswer[] = [];
	const second = await shown({type: 'confirm', title: 'Keep?', default: false}, defaulted);
	assert.match(second.lastFrame()!, /Enter for no/);
	second.stdin.write('\r');
	await settle();
	second.stdin.write(ESC);
	await settle();
	assert.deepEqual(defaulted, [{confirmed: false}, {cancelled: true}]);
	second.unmount();
});

test('an input is typed with ink-text-input, starts from its default, and Esc cancels', async () => {
	await loadTextInput();
	const answers: DialogAnswer[] = [];
	const view = await shown({type: 'input', title: 'Your name', placeholder: 'first and last'}, answers);
	assert.match(view.lastFrame()!, /Your name — asked by extension asker/);
	assert.match(view.lastFrame()!, /first and last/);
	view.stdin.write('Ada L');
	await settle();
	assert.match(view.lastFrame()!, /› Ada L/);
	view.stdin.write('\r');
	await settle();
	assert.deepEqual(answers, [{value: 'Ada L'}]);
	view.unmount();

	const defaulted: DialogAnswer[] = [];
	const second = await shown({type: 'input', title: 'Branch', default: 'main'}, defaulted);
	assert.match(second.lastFrame()!, /› main/);
	second.stdin.write('\r');
	await settle();
	second.stdin.write(ESC);
	await settle();
	assert.deepEqual(defaulted, [{value: 'main'}, {cancelled: true}]);
	second.unmount();
});

test('a secret input masks the typing; an input takes at most MAX_INPUT_CHARS characters', async () => {
	await loadTextInput();
	const answers: DialogAnswer[] = [];
	const view = await shown({type: 'input', title: 'Token', secret: true}, answers);
	view.stdin.write('hunter2');
	await settle();
	assert.doesNotMatch(view.lastFrame()!, /hunter2/);
	assert.match(view.lastFrame()!, /› \*{7}/);
	assert.match(view.lastFrame()!, /the typing is hidden/);
	view.stdin.write('\r');
	await settle();
	assert.deepEqual(answers, [{value: 'hunter2'}]);
	view.unmount();

	const long: DialogAnswer[] = [];
	const bounded = await shown({type: 'input', title: 'Text', default: 'x'.repeat(MAX_INPUT_CHARS - 1)}, long);
	// Pasted: one input event, so the limit cuts inside it.
	bounded.stdin.write('yz');
	await settle();
	assert.match(bounded.lastFrame()!, new RegExp(`at most ${MAX_INPUT_CHARS} characters`));
	bounded.stdin.write('\r');
	await settle();
	assert.equal(long.length, 1);
	const value = (long[0] as {value: string}).value;
	assert.equal(value.length, MAX_INPUT_CHARS, 'at the limit, the next character is not taken');
	assert.ok(value.endsWith('xy'));
	bounded.unmount();
});

test('Ctrl-C closes a dialog as the person leaving and tells the screen', async () => {
	const answers: DialogAnswer[] = [];
	let left = 0;
	const view = await shown({type: 'confirm', title: 'Sure?'}, answers, () => left++);
	view.stdin.write('\u0003');
	await settle();
	assert.deepEqual(answers, [{cancelled: true, reason: 'exit'}]);
	assert.equal(left, 1);
	view.unmount();
});

/** An observer that writes down what UiPromptStart and UiPromptEnd would carry. */
function recorder(): {observer: PromptObserver; seen: Array<[string, UiPrompt, UiPromptAnswer?, UiPromptDetail?]>} {
	const seen: Array<[string, UiPrompt, UiPromptAnswer?, UiPromptDetail?]> = [];
	return {seen, observer: {started: prompt => seen.push(['start', prompt]), ended: (prompt, answer, detail) => seen.push(['end', prompt, answer, detail])}};
}

test('the broker shows a dialog, answers the extension, and tells UiPromptStart before and UiPromptEnd after, never with a secret', async () => {
	const {observer, seen} = recorder();
	const broker = new DialogBroker(observer);
	const chosen = broker.ask('asker', {type: 'select', title: 'Pick\n\u001B]0;x\u0007', options: ['a', 'b']});
	await settle();
	const open = broker.getSnapshot()!;
	assert.equal(open.request.title, 'Pick \uFFFD]0;x\uFFFD', 'one line, no control character reaches the screen');
	assert.deepEqual(seen[0], ['start', {id: 'dialog-1', kind: 'dialog', dialog: 'select', extension: 'asker', title: 'Pick\n\u001B]0;x\u0007'}]);
	open.answer({value: 'not an option'});
	open.answer({value: 'b'});
	assert.deepEqual(await chosen, {value: 'b'});
	assert.equal(broker.getSnapshot(), null);

	const secret = broker.ask('asker', {type: 'input', title: 'Token', secret: true});
	await settle();
	broker.getSnapshot()!.answer({value: 'hunter2'});
	assert.deepEqual(await secret, {value: 'hunter2'});
	const plain = broker.ask('asker', {type: 'input', title: 'Name'});
	await settle();
	broker.getSnapshot()!.answer({value: 'Ada'});
	await plain;
	const confirmed = broker.ask('asker', {type: 'confirm', title: 'Go?'});
	await settle();
	broker.getSnapshot()!.answer({confirmed: true});
	assert.deepEqual(await confirmed, {confirmed: true});
	const escaped = broker.ask('asker', {type: 'confirm', title: 'Go?'});
	await settle();
	broker.getSnapshot()!.answer({cancelled: true});
	assert.deepEqual(await escaped, {cancelled: true});
	assert.deepEqual(
		seen.map(([phase, prompt, answer, detail]) => [phase, prompt.id, answer, detail]),
		[
			['start', 'dialog-1', undefined, undefined],
			['end', 'dialog-1', 'chosen', {value: 'b'}],
			['start', 'dialog-2', undefined, undefined],
			['end', 'dialog-2', 'entered', undefined],
			['start', 'dialog-3', undefined, undefined],
			['end', 'dialog-3', 'entered', {value: 'Ada'}],
			['start', 'dialog-4', undefined, undefined],
			['end', 'dialog-4', 'yes', undefined],
			['start', 'dialog-5', undefined, undefined],
			['end', 'dialog-5', 'cancelled', undefined],
		],
	);
	assert.doesNotMatch(JSON.stringify(seen), /hunter2/);
});

test('a bad request is refused before anything shows', async () => {
	const {observer, seen} = recorder();
	const broker = new DialogBroker(observer);
	await assert.rejects(broker.ask('asker', {type: 'confirm', title: 'x'.repeat(201)}), (error: unknown) => error instanceof RuntimeActionError && error.code === 'invalid_argument');
	assert.equal(broker.getSnapshot(), null);
	assert.deepEqual(seen, []);
});

test('one question at a time: a dialog waits behind an approval, and an approval behind a dialog; an interrupt withdraws a waiting approval', async () => {
	const line = new QuestionLine();
	const {observer, seen} = recorder();
	const approvals = new ApprovalBroker(observer, line);
	const dialogs = new DialogBroker(observer, line);
	const ask = {id: 'call-1', name: 'write', arguments: {}, owner: 'native', external: false, ask: {title: 'write a.txt', detail: ''}};
	const approved = approvals.askPerson(ask);
	await settle();
	const dialog = dialogs.ask('asker', {type: 'confirm', title: 'Go?'});
	await settle();
	assert.ok(approvals.getSnapshot(), 'the approval is up');
	assert.equal(dialogs.getSnapshot(), null, 'the dialog waits');
	approvals.getSnapshot()!.answer({kind: 'once'});
	assert.equal((await approved).decision, 'allow');
	await settle();
	assert.ok(dialogs.getSnapshot(), 'then the dialog shows');
	const second = approvals.askPerson({...ask, id: 'call-2'});
	await settle();
	assert.equal(approvals.getSnapshot(), null, 'the next approval waits behind the dialog');
	approvals.cancel();
	assert.equal((await second).decision, 'deny', 'an interrupt withdraws it');
	dialogs.getSnapshot()!.answer({confirmed: false});
	assert.deepEqual(await dialog, {confirmed: false});
	assert.deepEqual(
		seen.map(([phase, prompt, answer]) => [phase, prompt.kind, answer]),
		[
			['start', 'approval', undefined],
			['end', 'approval', 'once'],
			['start', 'dialog', undefined],
			['end', 'dialog', 'no'],
		],
		'a withdrawn approval was never shown, so it tells nothing',
	);
});

test('timeoutMs closes a shown dialog as a timeout, counted from when it appears', async () => {
	const line = new QuestionLine();
	const {observer, seen} = recorder();
	const dialogs = new DialogBroker(observer, line);
	const first = dialogs.ask('asker', {type: 'confirm', title: 'First'});
	await settle();
	const timed = dialogs.ask('asker', {type: 'input', title: 'Quick', timeoutMs: 100});
	await delay(200);
	assert.equal(dialogs.getSnapshot()!.request.title, 'First', 'waiting in line does not count');
	dialogs.getSnapshot()!.answer({confirmed: true});
	await first;
	await settle();
	assert.equal(dialogs.getSnapshot()!.request.title, 'Quick');
	const late = dialogs.getSnapshot()!;
	assert.deepEqual(await timed, {cancelled: true, reason: 'timeout'});
	late.answer({value: 'too late'});
	assert.equal(dialogs.getSnapshot(), null);
	assert.deepEqual(seen.at(-1)!.slice(2), ['cancelled', {reason: 'timeout'}]);
});

test('the call or signal a dialog is bound to cancels it, shown or waiting; a call that ended is refused as stale', async () => {
	const {observer, seen} = recorder();
	const dialogs = new DialogBroker(observer);
	const call = new AbortController();
	const invocation = {extension: 'asker', toolCallId: 'call-7', signal: call.signal, ended: false};
	const shownOne = dialogs.ask('asker', {type: 'confirm', title: 'Shown'}, {invocation, signal: call.signal});
	const waiting = new AbortController();
	const queued = dialogs.ask('asker', {type: 'confirm', title: 'Waiting'}, {signal: waiting.signal});
	await settle();
	waiting.abort();
	assert.deepEqual(await queued, {cancelled: true, reason: 'aborted'});
	call.abort();
	assert.deepEqual(await shownOne, {cancelled: true, reason: 'aborted'});
	assert.equal(dialogs.getSnapshot(), null);
	assert.deepEqual(
		seen.map(([phase, prompt, answer, detail]) => [phase, 'title' in prompt ? prompt.title : prompt.kind, answer, detail]),
		[
			['start', 'Shown', undefined, undefined],
			['end', 'Shown', 'cancelled', {reason: 'aborted'}],
		],
		'the waiting one never showed',
	);
	assert.deepEqual(await dialogs.ask('asker', {type: 'confirm', title: 'x'}, {signal: call.signal}), {cancelled: true, reason: 'aborted'}, 'an aborted signal: closed at once');
	await assert.rejects(dialogs.ask('asker', {type: 'confirm', title: 'x'}, {invocation: {...invocation, ended: true}}), (error: unknown) => {
		assert.ok(error instanceof RuntimeActionError);
		assert.equal(error.code, 'stale');
		assert.match(error.message, /the tool call call-7 this dialog belongs to has ended/);
		return true;
	});
});

test('leaving closes every open and waiting dialog as an exit, and later ones at once', async () => {
	const dialogs = new DialogBroker();
	const open = dialogs.ask('asker', {type: 'confirm', title: 'Open'});
	const waiting = dialogs.ask('other', {type: 'select', title: 'Waiting', options: ['a']});
	await settle();
	dialogs.leave();
	assert.deepEqual(await open, {cancelled: true, reason: 'exit'});
	assert.deepEqual(await waiting, {cancelled: true, reason: 'exit'});
	assert.deepEqual(await dialogs.ask('asker', {type: 'confirm', title: 'After'}), {cancelled: true, reason: 'exit'});
	assert.equal(dialogs.getSnapshot(), null);
});

test('an extension has at most MAX_PENDING_DIALOGS open or waiting; the next is refused as limit_reached, another extension is not', async () => {
	const dialogs = new DialogBroker();
	const asked = Array.from({length: MAX_PENDING_DIALOGS}, async (_, index) => dialogs.ask('greedy', {type: 'confirm', title: `q${index}`}));
	await settle();
	await assert.rejects(dialogs.ask('greedy', {type: 'confirm', title: 'one more'}), (error: unknown) => {
		assert.ok(error instanceof RuntimeActionError);
		assert.equal(error.code, 'limit_reached');
		assert.match(error.message, new RegExp(`extension greedy: ${MAX_PENDING_DIALOGS} of its dialogs are open or waiting.*MAX_PENDING_DIALOGS ${MAX_PENDING_DIALOGS}`));
		return true;
	});
	const other = dialogs.ask('polite', {type: 'confirm', title: 'mine'});
	dialogs.getSnapshot()!.answer({confirmed: true});
	await asked[0];
	const again = dialogs.ask('greedy', {type: 'confirm', title: 'now there is room'});
	dialogs.leave();
	assert.deepEqual(await again, {cancelled: true, reason: 'exit'});
	await Promise.all([...asked, other]);
});

test('the broker holds the answer to the request and shows the extension strings on one line: an input cut at MAX_INPUT_CHARS, labels and descriptions cleaned, values kept', async () => {
	const broker = new DialogBroker();
	const typed = broker.ask('asker', {type: 'input', title: 'T'});
	await settle();
	broker.getSnapshot()!.answer({value: 'x'.repeat(MAX_INPUT_CHARS + 5)});
	assert.equal(((await typed) as {value: string}).value.length, MAX_INPUT_CHARS);
	const chosen = broker.ask('asker', {type: 'select', title: 'S', options: [{value: 'v\n1', label: 'a\nb', description: 'd\te'}]});
	await settle();
	const {options} = broker.getSnapshot()!.request as Extract<PendingDialog['request'], {type: 'select'}>;
	assert.deepEqual(options, [{value: 'v\n1', label: 'a b', description: 'd e'}]);
	broker.getSnapshot()!.answer({value: 'v\n1'});
	assert.deepEqual(await chosen, {value: 'v\n1'});
});
