// The chat screen's focus reports (issue 17 item 6) are asked for only once
// the screen can turn them off again: a Ctrl-Z that arrives right after the
// request must find the suspend listener, or node's default stop leaves the
// shell receiving `ESC [ I` as typed text.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {enableFocusReporting} from '../../source/tui/notify/focus-reporting.js';
import {FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON} from '../../source/tui/notify/focus-report.js';

/** What the chat screen listens for while reports are on. */
const EVENTS = ['exit', 'SIGTSTP', 'SIGCONT'];
const listening = () => EVENTS.map(event => process.listenerCount(event));

test('the exit, SIGTSTP and SIGCONT listeners are in place before the terminal is asked; the undo removes them and turns reports off', () => {
	const folder = mkdtempSync(join(tmpdir(), 'i-focus-reporting-'));
	const terminal = join(folder, 'terminal');
	const fd = openSync(terminal, 'w');
	const writtenWhenListening: Record<string, string> = {};
	const spy = (event: string | symbol) => {
		if (typeof event === 'string' && EVENTS.includes(event)) writtenWhenListening[event] = readFileSync(terminal, 'utf8');
	};

	const before = listening();
	process.on('newListener', spy);
	try {
		const undo = enableFocusReporting(fd);
		assert.deepEqual(writtenWhenListening, {exit: '', SIGTSTP: '', SIGCONT: ''});
		assert.equal(readFileSync(terminal, 'utf8'), FOCUS_REPORTING_ON);
		assert.deepEqual(
			listening(),
			before.map(count => count + 1),
		);
		undo();
		assert.equal(readFileSync(terminal, 'utf8'), FOCUS_REPORTING_ON + FOCUS_REPORTING_OFF);
		assert.deepEqual(listening(), before);
	} finally {
		process.off('newListener', spy);
		closeSync(fd);
		rmSync(folder, {recursive: true, force: true});
	}
});
