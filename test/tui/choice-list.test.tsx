// The screen's own picker (components/ChoiceList.tsx) and the first-run
// key field (components/KeyField.tsx) hear keys from their first frame:
// a filter typed the moment the list shows (before ink-text-input loaded,
// and before any effect ran) is not lost, a burst ending in Enter chooses,
// Esc cancels, Ctrl-C leaves; the key field never draws what is typed.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {ChoiceList} from '../../components/ChoiceList.js';
import {loadedTextInput, loadTextInput} from '../../components/use-text-input.js';
import {KeyField, MAX_KEY_FIELD_CHARS} from '../../components/KeyField.js';
import type {PendingChoice} from '../../source/tui/brokers/chooser-broker.js';
import type {PendingKey} from '../../source/tui/brokers/key-broker.js';

const options = [
	{value: 'alpha', label: 'alpha', description: '2 models', marked: true},
	{value: 'beta', label: 'beta', description: '1 model'},
	{value: 'gamma', label: 'gamma'},
];

function choice(answers: Array<string | null>, extra: Partial<PendingChoice['request']> = {}): PendingChoice {
	return {id: 'choice-1', request: {title: 'Provider', options, ...extra}, answer: value => answers.push(value)};
}

/** Until `check` holds of the last frame (Ink draws asynchronously), at most 5 s. */
async function frameWhere(view: ReturnType<typeof render>, check: (frame: string) => boolean): Promise<string> {
	for (let waited = 0; waited < 5000; waited += 10) {
		const frame = view.lastFrame() ?? '';
		if (check(frame)) return frame;
		await delay(10);
	}

	assert.fail(`no frame held; the last:\n${view.lastFrame()}`);
}

test('a filter and Enter typed in the same tick the list is drawn, before the text input is loaded, choose the match', async () => {
	assert.equal(loadedTextInput(), undefined, 'this test runs first in its process: ink-text-input is not loaded yet');
	const answers: Array<string | null> = [];
	const view = render(<ChoiceList pending={choice(answers)} />);
	view.stdin.write('bet');
	const frame = await frameWhere(view, text => text.includes('filter › bet'));
	assert.ok(!frame.includes('alpha'), frame);
	view.stdin.write('\r');
	await frameWhere(view, () => answers.length > 0);
	assert.deepEqual(answers, ['beta']);
	view.unmount();
});

test('with the text input loaded: keys typed at once reach the filter, the text input takes over and keeps the caret at the end; a burst ending in Enter chooses', async () => {
	await loadTextInput();
	const answers: Array<string | null> = [];
	const view = render(<ChoiceList pending={choice(answers)} />);
	view.stdin.write('gam');
	await frameWhere(view, text => text.includes('filter › gam') && !text.includes('beta'));
	// The text input listens now; what follows is appended where the caret is, at the end.
	view.stdin.write('ma\r');
	await frameWhere(view, () => answers.length > 0);
	assert.deepEqual(answers, ['gamma']);
	view.unmount();

	const again: Array<string | null> = [];
	const second = render(<ChoiceList pending={choice(again)} />);
	second.stdin.write('alp\r');
	await frameWhere(second, () => again.length > 0);
	assert.deepEqual(again, ['alpha'], 'a whole burst typed the moment it shows');
	second.unmount();
});

test("arrows move, Esc cancels at once, and Ctrl-C leaves through onLeave (or cancels without it); the Esc word is the asker's", async () => {
	const answers: Array<string | null> = [];
	const view = render(<ChoiceList pending={choice(answers, {escape: 'go back'})} />);
	view.stdin.write('\u001B[B');
	await frameWhere(view, text => /❯ {3}beta/.test(text));
	assert.match(view.lastFrame()!, /Esc to go back/);
	view.stdin.write('\r');
	await frameWhere(view, () => answers.length > 0);
	assert.deepEqual(answers, ['beta']);
	view.unmount();

	const cancelled: Array<string | null> = [];
	const esc = render(<ChoiceList pending={choice(cancelled)} />);
	esc.stdin.write('\u001B');
	await frameWhere(esc, () => cancelled.length > 0);
	assert.deepEqual(cancelled, [null]);
	esc.unmount();

	let left = 0;
	const leaving: Array<string | null> = [];
	const withLeave = render(<ChoiceList pending={choice(leaving)} onLeave={() => left++} />);
	withLeave.stdin.write('\u0003');
	await frameWhere(withLeave, () => left > 0);
	assert.deepEqual(leaving, [], 'leaving answers nothing itself: the leave closes the list');
	withLeave.unmount();

	const plain: Array<string | null> = [];
	const withoutLeave = render(<ChoiceList pending={choice(plain)} />);
	withoutLeave.stdin.write('\u0003');
	await frameWhere(withoutLeave, () => plain.length > 0);
	assert.deepEqual(plain, [null]);
	withoutLeave.unmount();
});

test('the option in use is marked (current) and the list opens on it; Enter alone keeps it; the hint says what Enter does', async () => {
	const answers: Array<string | null> = [];
	const view = render(<ChoiceList pending={choice(answers, {current: 'beta', enter: 'switch this session (then /model --default saves it)'})} />);
	const frame = await frameWhere(view, text => text.includes('(current)'));
	assert.match(frame, /❯ {3}beta \(current\) 1 model/);
	assert.equal(frame.match(/\(current\)/g)?.length, 1, frame);
	assert.ok(!/alpha.*\(current\)/.test(frame), frame);
	assert.match(frame.replaceAll(/\s+/g, ' '), /Enter to switch this session \(then \/model --default saves it\)/);
	view.stdin.write('\r');
	await frameWhere(view, () => answers.length > 0);
	assert.deepEqual(answers, ['beta']);
	view.unmount();

	const none: Array<string | null> = [];
	const plain = render(<ChoiceList pending={choice(none, {current: 'not-listed'})} />);
	const first = await frameWhere(plain, text => text.includes('alpha'));
	assert.match(first, /❯ ● alpha/);
	assert.ok(!first.includes('(current)'), first);
	assert.match(first, /Enter to choose/);
	plain.unmount();
});

function keyField(answers: Array<string | null>): PendingKey {
	return {id: 'key-1', request: {title: 'API key for alpha', hint: 'stored in auth.json'}, answer: value => answers.push(value)};
}

test('the key field never draws what is typed or pasted, not even its length; Backspace and Ctrl-U edit; Enter gives it, Esc goes back, Ctrl-C leaves', async () => {
	const answers: Array<string | null> = [];
	const frames: string[] = [];
	const view = render(<KeyField pending={keyField(answers)} />);
	// Typed the moment it shows, a typo fixed, a paste (bracketed) with its line break.
	view.stdin.write('sk-wrong');
	view.stdin.write('\u0015');
	view.stdin.write('sk-sec');
	view.stdin.write('x\u007F');
	view.stdin.write('\u001B[200~ret-77\n\u001B[201~');
	await delay(50);
	frames.push(...view.frames);
	view.stdin.write('\r');
	await frameWhere(view, () => answers.length > 0);
	assert.deepEqual(answers, ['sk-secret-77']);
	frames.push(...view.frames);
	for (const frame of frames) {
		assert.ok(!/sk-|secret|wrong|\*{3}/.test(frame), `a frame shows the key: ${frame}`);
	}

	assert.match(view.lastFrame()!, /API key for alpha/);
	assert.match(view.lastFrame()!, /typing is not shown/);
	view.unmount();

	const back: Array<string | null> = [];
	const esc = render(<KeyField pending={keyField(back)} />);
	esc.stdin.write('sk-half');
	esc.stdin.write('\u001B');
	await frameWhere(esc, () => back.length > 0);
	assert.deepEqual(back, [null]);
	esc.unmount();

	let left = 0;
	const leaving: Array<string | null> = [];
	const ctrlC = render(<KeyField pending={keyField(leaving)} onLeave={() => left++} />);
	ctrlC.stdin.write('\u0003');
	await frameWhere(ctrlC, () => left > 0);
	assert.deepEqual(leaving, []);
	ctrlC.unmount();
});

test(`the key field holds at most MAX_KEY_FIELD_CHARS (${MAX_KEY_FIELD_CHARS}): a paste of that many is given whole, a longer one is cut to it`, async () => {
	for (const length of [MAX_KEY_FIELD_CHARS, MAX_KEY_FIELD_CHARS + 1]) {
		const answers: Array<string | null> = [];
		const view = render(<KeyField pending={keyField(answers)} />);
		view.stdin.write(`\u001B[200~${'k'.repeat(length)}\u001B[201~`);
		await delay(50);
		view.stdin.write('\r');
		await frameWhere(view, () => answers.length > 0);
		assert.equal(answers[0]?.length, MAX_KEY_FIELD_CHARS, `a paste of ${length}`);
		view.unmount();
	}
});
