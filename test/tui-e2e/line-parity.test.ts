import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {closeSync, openSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider, type MockReply} from '../fixtures/mock-provider.js';
import {binPath, makeSandbox, type Sandbox} from '../helpers/cli.js';
import {MODEL, startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

const questions = ['what do the notes say?', '谢谢，再总结一下'];
const readNotes = {id: 'call_read', name: 'read', arguments: JSON.stringify({files: [{path: 'notes.txt'}]})};
const script: MockReply[] = [
	{text: 'Let me read the notes first.', toolCalls: [readNotes]},
	{text: 'The notes list three things:\n- buy milk\n- fix the 登录 bug\n- call Ada\nThat is all.'},
	{text: '总结：牛奶、登录错误、给 Ada 打电话。\nDone.'},
];

function prepare(box: Sandbox): void {
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: MODEL, max_retries: 0});
	writeFileSync(join(box.workspace, 'notes.txt'), 'buy milk\nfix the 登录 bug\ncall Ada\n');
}

/** Line mode with stdout and stderr into one file, as a person reading a log would see them, in order. */
async function lineMode(): Promise<string> {
	const box = makeSandbox();
	prepare(box);
	const logPath = join(box.root, 'out.log');
	const log = openSync(logPath, 'w');
	try {
		const child = spawn(process.execPath, [binPath, '-C', box.workspace], {env: box.env, stdio: ['pipe', log, log]});
		child.stdin!.end(questions.map(question => `${question}\n`).join(''));
		const code = await new Promise<number | null>(resolve => child.on('close', resolve));
		assert.equal(code, 0, readFileSync(logPath, 'utf8'));
	} finally {
		closeSync(log);
	}

	return readFileSync(logPath, 'utf8');
}

/** The chat screen's transcript: typed in a terminal, one question after the other's answer. */
async function chatScreen(): Promise<string[]> {
	const box = makeSandbox();
	prepare(box);
	// The answers as the model wrote them (I_MARKDOWN=0), as line mode shows them: markdown.test.ts has the screen's Markdown.
	const {run} = await startChat(mock, {box, args: ['--no-logo'], cols: 120, env: {I_MARKDOWN: '0'}});
	try {
		run.type(`${questions[0]}\r`);
		await run.waitFor(screen => screen.includes('That is all.'), 'the first answer');
		await run.waitFor(screen => screen.split('\n').some(row => row.endsWith('/help')), 'the idle status line');
		run.type(`${questions[1]}\r`);
		await run.waitFor(screen => screen.includes('Done.'), 'the second answer');
		await run.waitFor(screen => screen.split('\n').some(row => row.endsWith('/help')), 'the idle status line');
		// The live area (blank line, editor, status line) is not part of the transcript.
		const lines = run.lines();
		const editor = lines.findLastIndex(line => line.startsWith('› Ask i anything'));
		return lines.slice(0, editor);
	} finally {
		await run.close();
	}
}

test('the same conversation reads the same in line mode and on the chat screen', async () => {
	mock.enqueue(...script);
	const plain = await lineMode();
	mock.enqueue(...script);
	const screen = await chatScreen();

	// Line mode: plain lines only, no escape sequence of any kind, no carriage return.
	assert.ok(!plain.includes('\u001B') && !plain.includes('\r'), JSON.stringify(plain));

	// Line mode's lines: the answers, and "i: tool NAME ARGS" for each call; the session line is the status line's business.
	const fromLines = plain
		.split('\n')
		.filter(line => line !== '' && !line.startsWith('i: session '))
		.map(line => line.replace(/^i: tool /, 'tool '));
	// The chat screen's: the person's lines left out (line mode does not echo its input), a tool's mark turned
	// into the same word, and the result shown under a call (indented) left out: line mode does not show it.
	const fromScreen = screen.filter(line => line.trim() !== '' && !line.startsWith('› ') && !line.startsWith('  ')).map(line => line.replace(/^[✓✗◐○?⊘] /, 'tool '));

	assert.deepEqual(fromLines, [
		'Let me read the notes first.',
		'tool read files: path: notes.txt',
		'The notes list three things:',
		'- buy milk',
		'- fix the 登录 bug',
		'- call Ada',
		'That is all.',
		'总结：牛奶、登录错误、给 Ada 打电话。',
		'Done.',
	]);
	assert.deepEqual(fromScreen, fromLines);
	// The person's turns, in order, on the chat screen.
	assert.deepEqual(
		screen.filter(line => line.startsWith('› ')),
		questions.map(question => `› ${question}`),
	);
});
