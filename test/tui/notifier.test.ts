// When the chat screen notifies (issue 17 item 6), and how: the focus the
// terminal reported, the 10 s rule when it reports none, the style from
// I_NO_NOTIFY, the settings and the terminal, and the bytes of each style.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {LONG_TURN_MS, Notifier} from '../../source/tui/notify/notifier.js';
import {notificationBytes, notifyStyle} from '../../source/tui/notify/notify-style.js';
import {createKeyDecoder} from '../../source/tui/editor/key-decoder.js';

function notifier(style: 'bell' | 'osc9' | 'osc777' | 'off' = 'bell') {
	const written: string[] = [];
	let now = 1_000_000;
	const instance = new Notifier(
		bytes => written.push(bytes),
		() => now,
	);
	instance.setStyle(style);
	return {instance, written, advance: (ms: number) => (now += ms)};
}

test('focus out: a finished turn and a waiting approval notify; focus in: nothing; a stopped turn never', () => {
	const {instance, written} = notifier();
	instance.focusChanged(false);
	instance.turnStarted();
	instance.approvalWaiting('Edit notes.txt');
	instance.turnEnded('stop');
	assert.deepEqual(written, ['\u0007', '\u0007']);
	instance.turnStarted();
	instance.turnEnded('interrupted');
	instance.focusChanged(true);
	instance.turnStarted();
	instance.turnEnded('stop');
	assert.equal(written.length, 2);
});

test('focus unknown: only a turn longer than 10 s notifies, at its end or at an approval', () => {
	const {instance, written, advance} = notifier('osc9');
	instance.turnStarted();
	advance(LONG_TURN_MS);
	instance.turnEnded('stop');
	assert.deepEqual(written, [], 'exactly 10 s is not longer');
	instance.turnStarted();
	advance(LONG_TURN_MS + 1);
	instance.approvalWaiting('Run npm test');
	instance.turnEnded('error');
	assert.deepEqual(written, ['\u001B]9;i: approval needed: Run npm test\u0007', '\u001B]9;i: the turn failed\u0007']);
});

test('off sends nothing; the style: I_NO_NOTIFY, then the settings, then the terminal', () => {
	const {instance, written} = notifier('off');
	instance.focusChanged(false);
	instance.turnStarted();
	instance.turnEnded('stop');
	assert.deepEqual(written, []);
	assert.equal(notifyStyle({I_NO_NOTIFY: '1', TERM_PROGRAM: 'iTerm.app'}, 'osc9'), 'off');
	assert.equal(notifyStyle({I_NO_NOTIFY: '0', TERM_PROGRAM: 'iTerm.app'}, undefined), 'osc9');
	assert.equal(notifyStyle({TERM_PROGRAM: 'iTerm.app'}, 'bell'), 'bell');
	assert.equal(notifyStyle({TERM_PROGRAM: 'WezTerm'}, undefined), 'osc9');
	assert.equal(notifyStyle({TERM_PROGRAM: 'ghostty', TMUX: '/tmp/tmux-0/default,1,0'}, undefined), 'bell');
	assert.equal(notifyStyle({TERM: 'foot'}, undefined), 'osc777');
	assert.equal(notifyStyle({TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal'}, undefined), 'bell');
});

test('the bytes of each style; control characters and the title separator cannot break out of the sequence', () => {
	assert.equal(notificationBytes('bell', 'i', 'x'), '\u0007');
	assert.equal(notificationBytes('osc9', 'i', 'done\u0007\u001B]0;pwned'), '\u001B]9;i: done  ]0;pwned\u0007');
	assert.equal(notificationBytes('osc777', 'a;b', 'c;d'), '\u001B]777;notify;a,b;c;d\u0007');
	assert.equal(notificationBytes('off', 'i', 'x'), '');
});

test('focus reports never become typed text in the editor', () => {
	const decoder = createKeyDecoder();
	assert.deepEqual(decoder.push('\u001B[I'), []);
	assert.deepEqual(decoder.push('\u001B[O'), []);
	assert.deepEqual(decoder.push('a\u001B[Ib\u001B[O'), [{type: 'insert', text: 'ab'}]);
	// Inside a paste the text is the person's, whatever it holds.
	assert.deepEqual(decoder.push('\u001B[200~x\u001B[Iy\u001B[201~'), [{type: 'insert', text: 'x\u001B[Iy', paste: true}]);
});
