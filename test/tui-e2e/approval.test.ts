import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {TYPEAHEAD_GUARD_MS} from '../../components/Approval.js';
import {makeSandbox} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {isInverse, startChat, stripEscapes, toolResults} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const edit = (id: string, path: string, oldText: string, newText: string) => ({id, name: 'edit', arguments: JSON.stringify({path, old_text: oldText, new_text: newText})});

/** Waits for the approval widget, then until keys typed now are no longer taken for typeahead. */
async function waitForQuestion(run: TerminalRun, title: string): Promise<void> {
	await run.waitFor(screen => screen.includes(`Allow? ${title}`) && screen.includes('[y] allow once'), `the approval question for ${title}`);
	// The widget ignores y/a/n for a moment after it appears (a person typing ahead meant them for the editor).
	await sleep(TYPEAHEAD_GUARD_MS + 150);
}

test('an edit is approved with y, not by a stray Enter; the file changes and the model gets the result', async () => {
	const {run, box} = await startChat(mock);
	try {
		const file = join(box.workspace, 'notes.txt');
		writeFileSync(file, 'first line\nhello old world\nlast line\n');
		const sent = mock.requests.length;
		mock.enqueue({text: 'I will fix it.', toolCalls: [edit('call_edit', 'notes.txt', 'old', 'new')]}, {text: 'Fixed the greeting.'});
		run.type('fix the greeting\r');
		await run.waitFor(screen => screen.includes('Allow? Edit notes.txt'), 'the approval question');
		const screen = run.screen();
		assert.ok(
			screen.some(row => /^\W*-hello old world\W*$/.test(row)),
			`the diff's removed line:\n${screen.join('\n')}`,
		);
		assert.ok(
			screen.some(row => /^\W*\+hello new world\W*$/.test(row)),
			`the diff's added line:\n${screen.join('\n')}`,
		);

		// Right away, an Enter meant for something else: nothing is chosen, so it does nothing.
		run.type('\r');
		// Keys are read in order: once → has selected the first option, the Enter before it was read (and ignored).
		run.type('\u001B[C');
		await run.waitUntil(() => isInverse(run, '[y] allow once'), 'the first option selected by →');
		assert.ok(
			run.screen().some(row => row.includes('Allow? Edit notes.txt')),
			'still asking',
		);
		assert.equal(readFileSync(file, 'utf8'), 'first line\nhello old world\nlast line\n');
		assert.equal(mock.requests.length, sent + 1, 'no tool result went to the model');

		await waitForQuestion(run, 'Edit notes.txt');
		run.type('y');
		await run.waitFor(screen => screen.includes('Fixed the greeting.'), 'the second answer');
		assert.equal(readFileSync(file, 'utf8'), 'first line\nhello new world\nlast line\n');
		assert.equal(mock.requests.length, sent + 2);
		assert.match(toolResults(mock.requests[sent + 1]!.body).get('call_edit') ?? '', /Edited notes\.txt/);
		assert.ok(!run.screen().some(row => row.includes('Allow?')), 'the question is gone');
	} finally {
		await run.close();
	}
});

test('n with a reason denies the edit; the file stays and the model reads the reason', async () => {
	const {run, box} = await startChat(mock);
	try {
		const file = join(box.workspace, 'notes.txt');
		writeFileSync(file, 'hello old world\n');
		const sent = mock.requests.length;
		mock.enqueue({toolCalls: [edit('call_edit', 'notes.txt', 'old', 'new')]}, {text: 'Understood, leaving it.'});
		run.type('change the greeting\r');
		await waitForQuestion(run, 'Edit notes.txt');
		run.type('n');
		await run.waitFor(screen => screen.includes('Reason for the model'), 'the reason field');
		run.type('keep the old wording');
		await run.waitFor(screen => screen.includes('keep the old wording'), 'the typed reason');
		run.type('\r');
		await run.waitFor(screen => screen.includes('Understood, leaving it.'), 'the answer after the denial');
		assert.equal(readFileSync(file, 'utf8'), 'hello old world\n');
		assert.equal(mock.requests.length, sent + 2);
		assert.match(toolResults(mock.requests[sent + 1]!.body).get('call_edit') ?? '', /keep the old wording/);
	} finally {
		await run.close();
	}
});

test('a allows edit for the session: the next edit runs without a question', async () => {
	const {run, box} = await startChat(mock);
	try {
		writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
		writeFileSync(join(box.workspace, 'b.txt'), 'beta\n');
		const sent = mock.requests.length;
		mock.enqueue({toolCalls: [edit('call_a', 'a.txt', 'alpha', 'ALPHA')]}, {toolCalls: [edit('call_b', 'b.txt', 'beta', 'BETA')]}, {text: 'Both files edited.'});
		run.type('shout both\r');
		await waitForQuestion(run, 'Edit a.txt');
		run.type('a');
		// Nothing more is typed: had the second edit asked, the turn would wait here.
		await run.waitFor(screen => screen.includes('Both files edited.'), 'the answer after both edits');
		assert.equal(readFileSync(join(box.workspace, 'a.txt'), 'utf8'), 'ALPHA\n');
		assert.equal(readFileSync(join(box.workspace, 'b.txt'), 'utf8'), 'BETA\n');
		assert.equal(mock.requests.length, sent + 3);
		assert.match(toolResults(mock.requests[sent + 2]!.body).get('call_b') ?? '', /Edited b\.txt/);
		const drawn = stripEscapes(run.output());
		assert.match(drawn, /Allow\? Edit a\.txt/);
		assert.doesNotMatch(drawn, /Allow\? Edit b\.txt/, 'no frame ever asked about b.txt');
	} finally {
		await run.close();
	}
});

const write = (id: string, path: string, content: string) => ({id, name: 'write', arguments: JSON.stringify({files: [{path, content}]})});
const numbered = (count: number) => Array.from({length: count}, (_, index) => `line ${index + 1}`).join('\n');

test('a 300-line diff is read to its last line before approval, then stays folded in the transcript; /diff 1 shows it whole', async () => {
	const {run, box} = await startChat(mock);
	try {
		writeFileSync(join(box.workspace, 'big.txt'), 'old\n');
		mock.enqueue({toolCalls: [write('call_big', 'big.txt', `${numbered(300)}\n`)]}, {text: 'Wrote the big file.'});
		run.type('write the big file\r');
		await waitForQuestion(run, 'Write 1 file: big.txt');
		// --- +++ @@ -old, then 300 additions; the 30-row terminal leaves 18 rows for them.
		assert.match(run.screen().join('\n'), /lines 1–18 of 304 · ↑↓ PgUp PgDn Home End scroll · p pager/);
		run.type('\u001B[6~');
		await run.waitFor(screen => screen.includes('lines 19–36 of 304'), 'a page down');
		run.type('\u001B[B');
		await run.waitFor(screen => screen.includes('lines 20–37 of 304'), 'a line down');
		run.type('\u001B[F');
		await run.waitFor(screen => /│\s+\+line 300\s+│/.test(screen) && screen.includes('lines 287–304 of 304'), 'the last line');
		assert.ok(!run.screen().some(row => /\+line 282\b/.test(row)), run.screen().join('\n'));
		run.type('y');
		await run.waitFor(screen => screen.includes('Wrote the big file.'), 'the answer after the write');

		// The transcript keeps the decided diff, folded: its first 8 lines and the count of the rest.
		const lines = run.lines();
		const call = lines.findIndex(line => /✓ write/.test(line));
		const folded = lines.findIndex((line, index) => index > call && line.trim() === '--- big.txt');
		assert.ok(call >= 0 && folded > call, lines.join('\n'));
		assert.deepEqual(
			lines.slice(folded, folded + 9).map(line => line.trim()),
			['--- big.txt', '+++ big.txt', '@@ -1,1 +1,300 @@', '-old', '+line 1', '+line 2', '+line 3', '+line 4', '… 296 more lines · /diff 1 shows them all'],
		);
		assert.ok(!lines.some(line => /\+line 300\b/.test(line)), 'no line past the fold (nor a stale frame of the question) is in the scrollback');

		run.type('/diff 1\r');
		await run.waitFor(text => text.includes('◆ approval 1 Write 1 file: big.txt (304 lines)'), '/diff 1', {whole: true});
		await run.waitFor(text => /^\s+\+line 300$/m.test(text), 'the whole diff', {whole: true});
	} finally {
		await run.close();
	}
});

test('p shows the whole diff in $PAGER, then the question is drawn again; a pager that cannot run is said', async () => {
	const box = makeSandbox();
	const got = join(box.root, 'paged.txt');
	const {run} = await startChat(mock, {box, env: {PAGER: `cat > '${got}'`}});
	try {
		writeFileSync(join(box.workspace, 'notes.txt'), 'hello old world\n');
		mock.enqueue({toolCalls: [edit('call_edit', 'notes.txt', 'old', 'new')]}, {text: 'Done.'});
		run.type('fix it\r');
		await waitForQuestion(run, 'Edit notes.txt');
		run.type('p');
		await run.waitUntil(() => existsSync(got) && readFileSync(got, 'utf8').includes('+hello new world'), 'the pager to get the diff');
		assert.equal(readFileSync(got, 'utf8'), '--- notes.txt\n+++ notes.txt\n@@ -1,1 +1,1 @@\n-hello old world\n+hello new world');
		await run.waitFor(screen => screen.includes('Allow? Edit notes.txt') && screen.includes('[y] allow once'), 'the question again');
		run.type('y');
		await run.waitFor(screen => screen.includes('Done.'), 'the answer');
		assert.equal(readFileSync(join(box.workspace, 'notes.txt'), 'utf8'), 'hello new world\n');
	} finally {
		await run.close();
	}

	const missing = await startChat(mock, {env: {PAGER: 'no-such-pager-here'}});
	try {
		writeFileSync(join(missing.box.workspace, 'notes.txt'), 'hello old world\n');
		mock.enqueue({toolCalls: [edit('call_edit', 'notes.txt', 'old', 'new')]}, {text: 'Left it.'});
		missing.run.type('fix it\r');
		await waitForQuestion(missing.run, 'Edit notes.txt');
		missing.run.type('p');
		await missing.run.waitFor(screen => screen.includes('the pager "no-such-pager-here" could not run'), 'the notice');
		missing.run.type('\u001B');
		await missing.run.waitFor(screen => screen.includes('Left it.'), 'the answer after Esc');
	} finally {
		await missing.run.close();
	}
});

test('a command holding a right-to-left override is shown with a visible mark where it runs, never the raw character', async () => {
	const {run} = await startChat(mock);
	try {
		const command = 'echo cleanup-temp-files #\u202E; rm -rf ./build';
		mock.enqueue({toolCalls: [{id: 'call_bidi', name: 'shell', arguments: JSON.stringify({command})}]}, {text: 'Not run, then.'});
		run.type('clean up\r');
		const shownCommand = 'echo cleanup-temp-files #⟨U+202E⟩; rm -rf ./build';
		await waitForQuestion(run, `Run: ${shownCommand}`);
		const screen = run.screen();
		assert.ok(
			screen.some(row => row.includes('tool shell · native')),
			`the owner under the title:\n${screen.join('\n')}`,
		);
		assert.ok(screen.filter(row => row.includes(shownCommand)).length >= 3, `the tool line, the title and the detail each show the mark:\n${screen.join('\n')}`);
		assert.ok(!run.output().includes('\u202E'), 'the override itself never reached the terminal');
		run.type('\u001B');
		await run.waitFor(screen => screen.includes('Not run, then.'), 'the answer after the denial');
	} finally {
		await run.close();
	}
});
