import {test} from 'node:test';
import assert from 'node:assert/strict';
import {closeSync, mkdtempSync, openSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {DEFAULT_PAGER, showInPager} from '../../source/tui/pager.js';
import {enableFocusReporting, pauseFocusReporting} from '../../source/tui/notify/focus-reporting.js';
import {FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON} from '../../source/tui/notify/focus-report.js';

/** Not a terminal: the pager's run writes nothing of its own to it. */
const stdout = {isTTY: false} as NodeJS.WriteStream;

function folder(): {dir: string; [Symbol.dispose](): void} {
	const dir = mkdtempSync(join(tmpdir(), 'i-pager-'));
	return {dir, [Symbol.dispose]: () => rmSync(dir, {recursive: true, force: true})};
}

const diff = Array.from({length: 300}, (_, index) => `+line ${index + 1}\twith a tab`).join('\n');

test('$PAGER runs through the shell with the whole text on its stdin', () => {
	using place = folder();
	const got = join(place.dir, 'got.txt');
	assert.equal(showInPager(diff, {...process.env, PAGER: `cat > '${got}'`}, stdout), null);
	assert.equal(readFileSync(got, 'utf8'), diff);
});

test('a pager that stops reading early (a person quitting less on the first page) is no failure', () => {
	using place = folder();
	const got = join(place.dir, 'got.txt');
	const large = diff.repeat(200);
	assert.equal(showInPager(large, {...process.env, PAGER: `head -c 10 > '${got}'`}, stdout), null);
	assert.equal(readFileSync(got, 'utf8'), large.slice(0, 10));
});

test('without $PAGER it is less; a pager that cannot run, or fails, is said with its command', () => {
	using place = folder();
	// An empty PATH: the shell finds no less.
	const missing = showInPager(diff, {PATH: place.dir}, stdout);
	assert.equal(missing, `the pager "${DEFAULT_PAGER}" could not run: the shell found no such program, or could not execute it (exit 127); set PAGER to one, such as less`);
	assert.equal(showInPager(diff, {PATH: place.dir, PAGER: '  '}, stdout), missing, 'a blank PAGER is none');
	assert.equal(showInPager(diff, {...process.env, PAGER: 'cat > /dev/null; exit 3'}, stdout), 'the pager "cat > /dev/null; exit 3" ended with exit 3');
});

test('focus reports are off while another program has the terminal, and on again after; never turned on when they were off', () => {
	using place = folder();
	const terminal = join(place.dir, 'terminal');
	const fd = openSync(terminal, 'w');
	try {
		pauseFocusReporting()();
		const undo = enableFocusReporting(fd);
		const resume = pauseFocusReporting();
		assert.equal(readFileSync(terminal, 'utf8'), FOCUS_REPORTING_ON + FOCUS_REPORTING_OFF);
		resume();
		assert.equal(readFileSync(terminal, 'utf8'), FOCUS_REPORTING_ON + FOCUS_REPORTING_OFF + FOCUS_REPORTING_ON);
		undo();
		pauseFocusReporting()();
		assert.equal(readFileSync(terminal, 'utf8'), FOCUS_REPORTING_ON + FOCUS_REPORTING_OFF + FOCUS_REPORTING_ON + FOCUS_REPORTING_OFF);
	} finally {
		closeSync(fd);
	}
});
