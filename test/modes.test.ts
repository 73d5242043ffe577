import {test} from 'node:test';
import assert from 'node:assert/strict';
import {PassThrough} from 'node:stream';
import {InputIdleError, LineTooLongError, MAX_LINE_BYTES, readLines} from '../source/modes/line-reader.js';
import {MAX_PIPED_INPUT_BYTES, MAX_PROMPT_BYTES, readPipedInput, readPromptFromStdin} from '../source/modes/read-prompt.js';
import {withPipedInput} from '../source/shared/piped-input.js';

async function collect(chunks: Array<Buffer | string>): Promise<string[]> {
	const lines: string[] = [];
	for await (const line of readLines(
		(async function* () {
			yield* chunks;
		})(),
	))
		lines.push(line);
	return lines;
}

test('lines split on \\n only, CRLF is trimmed, UTF-8 survives chunk borders, the last line needs no newline', async () => {
	const bytes = Buffer.from('a\u2028b\r\n你好\nlast');
	const chunks = [...bytes].map(byte => Buffer.from([byte]));
	assert.deepEqual(await collect(chunks), ['a\u2028b', '你好', 'last']);
});

test('a line of exactly the limit is read; one byte more is refused', async () => {
	const atLimit = await collect([Buffer.alloc(MAX_LINE_BYTES, 'a'), '\n']);
	assert.equal(atLimit[0]!.length, MAX_LINE_BYTES);
	await assert.rejects(collect([Buffer.alloc(MAX_LINE_BYTES + 1, 'a'), '\n']), LineTooLongError);
});

function stdin(): PassThrough & {isTTY?: boolean} {
	return new PassThrough();
}

test('a piped prompt is read whole', async () => {
	const input = stdin();
	input.end('explain\nthis\n');
	assert.equal(await readPromptFromStdin(input as never), 'explain\nthis\n');
});

test('a prompt of exactly the limit is read; one byte more is refused', async () => {
	const exact = stdin();
	exact.end(Buffer.alloc(MAX_PROMPT_BYTES, 'p'));
	assert.equal((await readPromptFromStdin(exact as never)).length, MAX_PROMPT_BYTES);
	const over = stdin();
	over.end(Buffer.alloc(MAX_PROMPT_BYTES + 1, 'p'));
	await assert.rejects(readPromptFromStdin(over as never), /larger than 8388608 bytes/);
});

test('stdin that never sends, or stops sending without EOF, gives up with a clear error', async () => {
	await assert.rejects(readPromptFromStdin(stdin() as never, {firstByteMs: 50, idleMs: 50}), /no prompt arrived on standard input within 0.05 s/);
	const stalled = stdin();
	stalled.write('half a prompt');
	await assert.rejects(readPromptFromStdin(stalled as never, {firstByteMs: 50, idleMs: 50}), /stayed open without more data/);
});

test('an empty or terminal stdin is a usage error, not a wait', async () => {
	const empty = stdin();
	empty.end('  \n');
	await assert.rejects(readPromptFromStdin(empty as never), /prompt on stdin is empty/);
	const tty = Object.assign(stdin(), {isTTY: true});
	await assert.rejects(readPromptFromStdin(tty as never), /-p needs the prompt/);
});

test('line reading bounds the wait for input, but not the time a consumer spends on a line', async () => {
	const silent = new PassThrough();
	const lines = readLines(silent, {firstByteMs: 50, idleMs: 80});
	await assert.rejects(lines.next(), (error: InputIdleError) => error instanceof InputIdleError && error.kind === 'first');
	assert.equal(silent.destroyed, true);

	const slow = new PassThrough();
	slow.write('one\ntwo\n');
	const reader = readLines(slow, {firstByteMs: 50, idleMs: 80});
	assert.equal((await reader.next()).value, 'one');
	await new Promise(resolve => setTimeout(resolve, 200));
	assert.equal((await reader.next()).value, 'two');
	await assert.rejects(reader.next(), (error: InputIdleError) => error instanceof InputIdleError && error.kind === 'idle');
});

test('piped input beside a prompt: read whole, null when empty or silent (with a warning), refused past its limit or when binary', async () => {
	const piped = stdin();
	piped.end('one\ntwo');
	assert.equal(await readPipedInput(piped as never), 'one\ntwo');
	assert.equal(withPipedInput('Review', 'one\ntwo'), 'Review\n\n<piped-input>\none\ntwo\n</piped-input>');
	assert.equal(withPipedInput('Review', null), 'Review');
	const empty = stdin();
	empty.end('');
	assert.equal(await readPipedInput(empty as never), null);
	const warnings: string[] = [];
	assert.equal(await readPipedInput(stdin() as never, message => warnings.push(message), {firstByteMs: 50, idleMs: 50}), null);
	assert.match(warnings.join(''), /nothing arrived on standard input within 0.05 s/);
	const tty = Object.assign(stdin(), {isTTY: true});
	assert.equal(await readPipedInput(tty as never), null);
	const exact = stdin();
	exact.end(Buffer.alloc(MAX_PIPED_INPUT_BYTES, 'x'));
	assert.equal((await readPipedInput(exact as never))!.length, MAX_PIPED_INPUT_BYTES);
	const over = stdin();
	over.end(Buffer.alloc(MAX_PIPED_INPUT_BYTES + 1, 'x'));
	await assert.rejects(readPipedInput(over as never), /larger than 1048576 bytes/);
	const invalid = stdin();
	invalid.end(Buffer.from([0x61, 0xff, 0x62]));
	await assert.rejects(readPipedInput(invalid as never), /not UTF-8 text/);
});
