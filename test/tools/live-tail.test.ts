import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {test} from 'node:test';
import {LIVE_TAIL_CHARS, LIVE_TAIL_LINES, LiveTail, tailLines} from '../../source/core/tools/live-tail.js';

test('the tail is the last lines, blank ones skipped, a carriage return starting its line again', () => {
	const text = Array.from({length: 9}, (_, index) => `line ${index + 1}`).join('\n');
	assert.equal(tailLines(`${text}\n\n`), ['line 5', 'line 6', 'line 7', 'line 8', 'line 9'].join('\n'));
	assert.equal(LIVE_TAIL_LINES, 5);
	assert.equal(tailLines('a\r\nb\r\n'), 'a\nb', 'CR LF ends a line');
	assert.equal(tailLines('progress 10%\rprogress 55%\rprogress 90%'), 'progress 90%');
	assert.equal(tailLines(''), '');
});

test('a tail is at most LIVE_TAIL_CHARS characters, its end kept: one line at the bound and one past it', () => {
	const at = 'x'.repeat(LIVE_TAIL_CHARS);
	assert.equal(tailLines(at), at);
	const past = `${'y'.repeat(LIVE_TAIL_CHARS)}z`;
	assert.equal(tailLines(past).length, LIVE_TAIL_CHARS);
	assert.ok(tailLines(past).endsWith('z'));
});

test('updates go out at once, then at most once an interval with the newest tail; none after stop', async () => {
	const sent: Array<{text: string; at: number}> = [];
	const tail = new LiveTail(text => sent.push({text, at: Date.now()}), 60);
	tail.push('one\n');
	assert.deepEqual(
		sent.map(update => update.text),
		['one'],
		'the first output is sent at once',
	);
	tail.push('two\n');
	tail.push('three\n');
	assert.equal(sent.length, 1, 'output within the interval waits');
	// However loaded the machine, the timer fires: wait for it rather than for a fixed time.
	for (let waited = 0; sent.length < 2 && waited < 5000; waited += 10) await delay(10);
	assert.deepEqual(
		sent.map(update => update.text),
		['one', 'one\ntwo\nthree'],
		'then the newest tail goes in one update',
	);
	assert.ok(sent[1]!.at - sent[0]!.at >= 55, `spaced by the interval: ${sent[1]!.at - sent[0]!.at} ms`);
	tail.push('four\n');
	tail.stop();
	tail.push('five\n');
	await delay(120);
	assert.equal(sent.length, 2, 'a pending update is dropped at stop, and later output too');
});

test('a flood of output makes few updates, each bounded', async () => {
	const sent: string[] = [];
	const tail = new LiveTail(text => sent.push(text), 50);
	const started = Date.now();
	while (Date.now() - started < 260) {
		tail.push(`${'w'.repeat(3000)}\n`);
		await delay(1);
	}

	tail.stop();
	// At most one update an interval (and one at once); a loaded machine may fire fewer, never more.
	assert.ok(sent.length >= 1 && sent.length <= Math.ceil((Date.now() - started) / 50) + 1, `${sent.length} updates in ${Date.now() - started} ms at 50 ms`);
	for (const text of sent) assert.ok(text.length <= LIVE_TAIL_CHARS && text.split('\n').length <= LIVE_TAIL_LINES);
});
