import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli} from '../helpers/cli.js';
import type {TerminalRun} from '../helpers/pty.js';
import {lastUserText, startChat, toolResults} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const shell = (id: string, command: string) => ({id, name: 'shell', arguments: JSON.stringify({command})});

async function turnEnded(run: TerminalRun, answer: string): Promise<void> {
	await run.waitFor(screen => screen.includes(answer) && !screen.includes('working — Esc to stop'), `the answer ${answer} and the turn's end`);
}

test("a slow shell command shows its output's last lines while it runs; the model gets the whole output", async () => {
	const {run} = await startChat(mock, {args: ['--yolo', '--no-sandbox']});
	try {
		const sent = mock.requests.length;
		mock.enqueue({toolCalls: [shell('call_slow', 'for i in 1 2 3 4 5 6; do echo line-$i; sleep 0.3; done')]}, {text: 'Counted to six.'});
		run.type('count slowly\r');
		await run.waitFor(screen => screen.includes('line-3') && screen.includes('◐ shell'), 'line-3 under the running call');
		assert.ok(!run.screen().includes('Counted to six.'), 'shown before the command ended');
		assert.ok(!run.screen().some(row => row.includes('line-6')), 'and before its last line');
		await turnEnded(run, 'Counted to six.');
		assert.equal(toolResults(mock.requests[sent + 1]!.body).get('call_slow'), 'line-1\nline-2\nline-3\nline-4\nline-5\nline-6\nexit code 0');
	} finally {
		await run.close();
	}
});

test('Ctrl-O writes the whole transcript to $PAGER, a folded result whole, and the screen comes back', async () => {
	const box = makeSandbox();
	const paged = join(box.root, 'paged.txt');
	const {run} = await startChat(mock, {box, args: ['--yolo', '--no-sandbox'], env: {PAGER: `cat > '${paged}'`}});
	try {
		mock.enqueue({toolCalls: [shell('call_rows', 'for i in $(seq 1 20); do echo row-$i; done')]}, {text: 'Twenty rows.'});
		run.type('print rows\r');
		await turnEnded(run, 'Twenty rows.');
		assert.ok(
			run.screen().some(row => row.includes('… 15 more lines · Ctrl-O')),
			run.screen().join('\n'),
		);
		assert.ok(!run.screen().some(row => row.includes('row-20')), 'row-20 is folded away');
		const since = run.output().length;
		run.type('\u000F');
		await run.waitUntil(() => existsSync(paged) && readFileSync(paged, 'utf8').includes('Twenty rows.'), 'the pager to get the transcript');
		const text = readFileSync(paged, 'utf8');
		assert.ok(text.includes('› print rows'), text);
		for (let row = 1; row <= 20; row++) assert.match(text, new RegExp(`^  row-${row}$`, 'm'));
		assert.ok(text.indexOf('row-20') < text.indexOf('Twenty rows.'), 'in the order of the transcript');
		await run.waitFor(screen => screen.includes('Twenty rows.') && /^› Ask i anything/m.test(screen), 'the screen drawn again');
		// Only the live area is drawn again: no clearing, the transcript once, one status line.
		assert.ok(!run.output().slice(since).includes('\u001B[3J'), 'the scrollback is kept');
		assert.equal(run.lines().filter(line => line === '› print rows').length, 1);
		assert.equal(run.lines().filter(line => line.includes('mock-model ·')).length, 1, 'one status line');
	} finally {
		await run.close();
	}
});

test('a pager on the alternate screen gives the screen back: the live area is drawn where it was, the transcript untouched', async () => {
	const box = makeSandbox();
	const paged = join(box.root, 'paged.txt');
	// A pager as less is one: it draws on the alternate screen and leaves it when it ends.
	const pager = `printf '\\033[?1049h'; cat > '${paged}'; printf 'the pager\\n'; printf '\\033[?1049l'`;
	const {run} = await startChat(mock, {box, env: {PAGER: pager}});
	try {
		mock.enqueue({text: 'Paged answer.'});
		run.type('say something\r');
		await turnEnded(run, 'Paged answer.');
		run.type('a draft');
		await run.waitFor(screen => screen.includes('› a draft'), 'the draft');
		const before = run.screen();
		run.type('\u000F');
		await run.waitUntil(() => existsSync(paged) && readFileSync(paged, 'utf8').includes('Paged answer.'), 'the pager to get the transcript');
		await run.waitFor(screen => screen.includes('› a draft') && !screen.includes('the pager'), 'the screen given back');
		assert.deepEqual(run.screen(), before, 'the screen as it was before the pager');
		assert.equal(run.lines().filter(line => line === '› say something').length, 1);
	} finally {
		await run.close();
	}
});

test('a 300-line bracketed paste shows as one placeholder and the request holds all 300 lines', async () => {
	const {run} = await startChat(mock);
	try {
		const lines = Array.from({length: 300}, (_, index) => `pasted row ${index + 1}`);
		const sent = mock.requests.length;
		mock.enqueue({text: 'Got the paste.'});
		run.type(`look at this: \u001B[200~${lines.join('\r')}\u001B[201~`);
		await run.waitFor(screen => screen.includes('› look at this: [pasted 300 lines #1]'), 'the placeholder');
		assert.ok(!run.screen().some(row => row.includes('pasted row 1')), 'none of the pasted rows is drawn');
		run.type('\r');
		await turnEnded(run, 'Got the paste.');
		assert.equal(lastUserText(mock.requests[sent]!.body), `look at this: ${lines.join('\n')}`);
	} finally {
		await run.close();
	}
});

test('--json gets the same progress: tool_update events with the last lines, before the tool_result', async () => {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'mock-model', max_retries: 0});
	mock.enqueue({toolCalls: [shell('call_json', 'for i in 1 2 3 4 5 6 7; do echo line-$i; sleep 0.2; done')]}, {text: 'Done.'});
	const run = await runCli(['-p', 'count', '--json', '--yolo', '--no-sandbox', '-C', box.workspace], {env: box.env});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const updates = events.filter(event => event.type === 'tool_update');
	assert.ok(updates.length >= 3, JSON.stringify(updates));
	for (const update of updates) {
		assert.equal(update.id, 'call_json');
		assert.equal(update.name, 'shell');
		assert.ok(update.text.split('\n').length <= 5, update.text);
	}

	const last = updates.at(-1)!.text as string;
	assert.match(last, /^(line-\d\n){4}line-[67]$/, 'a late update holds the last 5 lines only');
	assert.ok(!last.includes('line-1'), last);
	const result = events.findIndex(event => event.type === 'tool_result');
	assert.ok(events.findLastIndex(event => event.type === 'tool_update') < result, 'no update after the result');
});
