// The bell on a finished turn (issue 17 item 6), in a real pseudo-terminal:
// the screen asks for focus reports, a turn that ends while the terminal
// reported focus-out rings the bell (or sends the OSC notification the
// settings choose), one that ends focused does not, I_NO_NOTIFY=1 turns it
// all off, and the reports never reach the editor as text.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {startChat} from './chat.js';
import type {TerminalRun} from '../helpers/pty.js';

const FOCUS_ON = '\u001B[?1004h';
const FOCUS_OFF = '\u001B[?1004l';
const BEL = '\u0007';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/**
 * Sends a message and waits for its answer and then for a key typed after
 * it: the notification is written as the run settles, just after its done
 * event, so once the key shows it would have been written. Returns what the
 * program wrote from the message on.
 */
async function turn(run: TerminalRun, text: string, answer: string): Promise<string> {
	mock.enqueue({text: answer});
	const from = run.output().length;
	run.type(`${text}\r`);
	await run.waitFor(screen => screen.includes(answer) && screen.includes('/help'), `the answer ${answer}`);
	run.type('z');
	await run.waitFor(screen => screen.includes('› z'), 'the key after the turn');
	run.type('\u0015');
	await run.waitFor(screen => !screen.includes('› z'), 'the editor emptied');
	return run.output().slice(from);
}

test('focus-out then a finished turn rings the bell; focused, no bell; the reports are never typed; leaving turns reporting off', async () => {
	const {run} = await startChat(mock);
	try {
		await run.waitForOutput(output => output.includes(FOCUS_ON), 'focus reporting asked for');
		run.type('\u001B[O');
		const away = await turn(run, 'first', 'answer one');
		assert.ok(away.includes(BEL), 'the bell after the turn');
		run.type('\u001B[I');
		const back = await turn(run, 'second', 'answer two');
		assert.ok(!back.includes(BEL), 'no bell while focused');
		// Neither report reached the editor or the transcript as text.
		run.type('\u001B[O\u001B[I');
		run.type('typed');
		await run.waitFor(screen => screen.includes('› typed'), 'the typed text');
		assert.ok(!run.screen().some(row => row.includes('[O') || row.includes('[I')), run.screen().join('\n'));
		run.type('\u0015/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
		assert.ok(run.output().lastIndexOf(FOCUS_OFF) > run.output().lastIndexOf(FOCUS_ON), 'reporting turned off at the end');
	} finally {
		await run.close();
	}
});

test('the settings choose OSC 777; I_NO_NOTIFY=1 sends nothing and asks for no focus reports', async () => {
	const box = makeSandbox();
	writeFileSync(join(box.configDir, 'settings.json'), JSON.stringify({notifications: 'osc777'}));
	const {run} = await startChat(mock, {box});
	try {
		await run.waitForOutput(output => output.includes(FOCUS_ON), 'focus reporting asked for');
		run.type('\u001B[O');
		const away = await turn(run, 'first', 'answer one');
		assert.ok(away.includes('\u001B]777;notify;i;the answer is ready\u0007'), 'the OSC 777 notification');
		assert.ok(!away.includes(BEL + BEL) && !away.replace('\u001B]777;notify;i;the answer is ready\u0007', '').includes(BEL), 'no bell besides');
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
	} finally {
		await run.close();
	}

	const quiet = await startChat(mock, {box, env: {I_NO_NOTIFY: '1'}});
	try {
		quiet.run.type('\u001B[O');
		const written = await turn(quiet.run, 'first', 'answer quiet');
		quiet.run.type('/exit\r');
		assert.equal((await quiet.run.exit()).exitCode, 0);
		assert.ok(!written.includes(BEL) && !written.includes('\u001B]777'), 'nothing sent');
		assert.ok(!quiet.run.output().includes(FOCUS_ON), 'no focus reports asked for');
	} finally {
		await quiet.run.close();
	}
});

test('an approval waiting while focus is out rings the bell; focus reports typed into the reason field are not text', async () => {
	const {run, box} = await startChat(mock);
	try {
		await run.waitForOutput(output => output.includes(FOCUS_ON), 'focus reporting asked for');
		writeFileSync(join(box.workspace, 'notes.txt'), 'hello old world\n');
		mock.enqueue({toolCalls: [{id: 'call_edit', name: 'edit', arguments: JSON.stringify({path: 'notes.txt', old_text: 'old', new_text: 'new'})}]}, {text: 'Leaving it.'});
		run.type('\u001B[O');
		const from = run.output().length;
		run.type('change it\r');
		await run.waitFor(screen => screen.includes('Allow? Edit notes.txt') && screen.includes('[y] allow once'), 'the approval question');
		await run.waitForOutput(output => output.slice(from).includes(BEL), 'the bell for the waiting approval');
		await sleep(TYPEAHEAD_GUARD_MS + 150);
		run.type('\u001B[I');
		run.type('n');
		await run.waitFor(screen => screen.includes('Reason for the model'), 'the reason field');
		run.type('\u001B[O');
		run.type('keep');
		run.type('\u001B[I');
		run.type(' it');
		await run.waitFor(screen => screen.includes('keep it'), 'the typed reason');
		assert.ok(!run.screen().some(row => row.includes('[I') || row.includes('[O')), run.screen().join('\n'));
		run.type('\r');
		await run.waitFor(screen => screen.includes('Leaving it.'), 'the answer after the denial');
		assert.equal(readFileSync(join(box.workspace, 'notes.txt'), 'utf8'), 'hello old world\n');
	} finally {
		await run.close();
	}
});

test('suspended (SIGTSTP), the screen turns focus reporting off and stops; continued (SIGCONT), on again', async () => {
	const {run} = await startChat(mock);
	try {
		await run.waitForOutput(output => output.includes(FOCUS_ON), 'focus reporting asked for');
		const offs = run.output().split(FOCUS_OFF).length;
		process.kill(run.pid, 'SIGTSTP');
		await run.waitForOutput(output => output.split(FOCUS_OFF).length > offs, 'reporting off on suspend');
		const state = () => readFileSync(`/proc/${run.pid}/stat`, 'utf8').slice(readFileSync(`/proc/${run.pid}/stat`, 'utf8').lastIndexOf(')') + 2)[0];
		await run.waitUntil(() => state() === 'T', 'the process stopped');
		const ons = run.output().split(FOCUS_ON).length;
		process.kill(run.pid, 'SIGCONT');
		await run.waitForOutput(output => output.split(FOCUS_ON).length > ons, 'reporting on again');
		run.type('/exit\r');
		assert.equal((await run.exit()).exitCode, 0);
	} finally {
		await run.close();
	}
});
