// A child task's output (source/core/agent/child-output.ts): 8192 deltas and
// 4 MiB shared by deltas and report, of which the deltas never take the
// report's reserve, at each limit and one past it.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {CHILD_REPORT_RESERVE_BYTES, ChildOutput, fitBytes, MAX_CHILD_DELTA_BYTES, MAX_CHILD_DELTAS, MAX_CHILD_OUTPUT_BYTES, REPORT_CUT_MARKER} from '../../source/core/agent/child-output.js';

const bytesOf = (deltas: Array<{text: string}>) => deltas.reduce((sum, delta) => sum + Buffer.byteLength(delta.text), 0);

test(`${MAX_CHILD_DELTAS} deltas are kept whole; the next one is cut with a marker and truncated`, () => {
	const at = new ChildOutput();
	for (let index = 0; index < MAX_CHILD_DELTAS; index++) at.push('x');
	const kept = at.take();
	assert.equal(kept.length, MAX_CHILD_DELTAS);
	assert.ok(kept.every(delta => delta.type === 'text'));
	assert.equal(at.truncated, false);

	const past = new ChildOutput();
	for (let index = 0; index <= MAX_CHILD_DELTAS; index++) past.push('x');
	const deltas = past.take();
	assert.equal(deltas.length, MAX_CHILD_DELTAS + 1);
	assert.equal(deltas.filter(delta => delta.type === 'text').length, MAX_CHILD_DELTAS);
	assert.deepEqual(deltas.at(-1), {type: 'truncated', text: `[deltas cut: a child task produces at most ${MAX_CHILD_DELTAS} deltas; its report still comes]`});
	assert.equal(past.truncated, true);
	// Cut once: later deltas are dropped, no second marker; the report still fits.
	past.push('more');
	assert.deepEqual(past.take(), []);
	assert.equal(past.report('the report'), 'the report');
});

test('deltas up to 4 MiB less the report reserve are kept; the byte past it is cut on a whole character, with a marker; the report still fits', () => {
	assert.equal(MAX_CHILD_DELTA_BYTES + CHILD_REPORT_RESERVE_BYTES, MAX_CHILD_OUTPUT_BYTES);
	const at = new ChildOutput();
	at.push('a'.repeat(MAX_CHILD_DELTA_BYTES));
	assert.equal(bytesOf(at.take()), MAX_CHILD_DELTA_BYTES);
	assert.equal(at.truncated, false);
	// The deltas filled their share: what comes next is cut, and the report has its reserve whole.
	at.push('b');
	assert.deepEqual(at.take(), [
		{type: 'truncated', text: `[deltas cut: a child task's deltas take at most ${MAX_CHILD_DELTA_BYTES} of the ${MAX_CHILD_OUTPUT_BYTES} bytes they share with its report; its report still comes]`},
	]);
	const report = 'r'.repeat(CHILD_REPORT_RESERVE_BYTES);
	assert.equal(at.report(report), report);
	assert.equal(at.reportCut, false);
	assert.equal(at.bytes, MAX_CHILD_OUTPUT_BYTES);

	const past = new ChildOutput();
	// 2 bytes of room left, then a 3-byte character that does not fit whole.
	past.push('a'.repeat(MAX_CHILD_DELTA_BYTES - 2));
	past.push('€');
	const deltas = past.take();
	assert.equal(deltas.at(-1)?.type, 'truncated');
	assert.equal(bytesOf(deltas.filter(delta => delta.type === 'text')), MAX_CHILD_DELTA_BYTES - 2, 'the € is not broken');
	assert.equal(past.truncated, true);
	// One byte past the reserve (the 2 bytes the € left count too): the report is cut with its marker, inside the budget.
	const cut = past.report('r'.repeat(CHILD_REPORT_RESERVE_BYTES + 3));
	assert.ok(cut.endsWith(REPORT_CUT_MARKER));
	assert.equal(past.bytes, MAX_CHILD_OUTPUT_BYTES);
});

test('the report shares the budget: whole when it fits what the deltas left, cut with the marker one byte past', () => {
	const deltas = 'd'.repeat(1000);
	const fits = new ChildOutput();
	fits.push(deltas);
	const whole = 'r'.repeat(MAX_CHILD_OUTPUT_BYTES - 1000);
	assert.equal(fits.report(whole), whole);
	assert.equal(fits.truncated, false);
	assert.equal(fits.bytes, MAX_CHILD_OUTPUT_BYTES);

	const past = new ChildOutput();
	past.push(deltas);
	const report = past.report(`${whole}r`);
	assert.equal(past.truncated, true);
	assert.ok(report.endsWith(REPORT_CUT_MARKER));
	assert.equal(Buffer.byteLength(report), MAX_CHILD_OUTPUT_BYTES - 1000, 'deltas and report together are 4 MiB');
	assert.ok(whole.startsWith(report.slice(0, -REPORT_CUT_MARKER.length)));
});

test('fitBytes never breaks a character', () => {
	assert.equal(fitBytes('a€b', 1), 'a');
	assert.equal(fitBytes('a€b', 3), 'a');
	assert.equal(fitBytes('a€b', 4), 'a€');
	assert.equal(fitBytes('a€b', 5), 'a€b');
	assert.equal(fitBytes('😀', 3), '');
	assert.equal(fitBytes('x', 0), '');
});
