import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EarlyMessage} from '../../source/tui/early-message.js';

function notices() {
	const said: string[] = [];
	return {store: {notice: (_level: string, text: string) => said.push(text)}, said};
}

/** What `run` writes to stderr, which is stubbed meanwhile. */
function stderrOf(run: () => void): string {
	const write = process.stderr.write;
	let written = '';
	process.stderr.write = ((chunk: string | Uint8Array) => {
		written += String(chunk);
		return true;
	}) as typeof process.stderr.write;
	try {
		run();
	} finally {
		process.stderr.write = write;
	}

	return written;
}

test('one message waits for the start; a second stays in the editor with a notice', () => {
	const {store, said} = notices();
	const early = new EarlyMessage(store, true);
	assert.equal(early.hold('first'), true);
	assert.match(said[0]!, /sent as soon as i is ready/);
	assert.equal(early.hold('second'), false);
	assert.match(said[1]!, /one message already waits/);
	const sent: string[] = [];
	early.send(text => sent.push(text) > 0);
	assert.deepEqual(sent, ['first']);
	// Sent once: the next start sends nothing, and a message can wait again.
	early.send(text => sent.push(text) > 0);
	assert.deepEqual(sent, ['first']);
	assert.equal(early.hold('third'), true);
});

test('with --resume nothing waits: the picker comes first', () => {
	const {store, said} = notices();
	const early = new EarlyMessage(store, false);
	assert.equal(early.hold('hello'), false);
	assert.match(said[0]!, /send it once the session is chosen/);
	const sent: string[] = [];
	early.send(text => sent.push(text) > 0);
	assert.deepEqual(sent, []);
});

test('a chat ending before it started says on stderr what was not sent, once, with control characters made visible', () => {
	const {store} = notices();
	const early = new EarlyMessage(store, true);
	early.hold('fix the \u001B[31mbug');
	const written = stderrOf(() => early.dropped());
	assert.match(written, /^i: not sent \(the chat ended while it started\): fix the /);
	assert.doesNotMatch(written, /\u001B/);
	assert.equal(
		stderrOf(() => early.dropped()),
		'',
	);
});

test('nothing waiting: dropped writes nothing', () => {
	const {store} = notices();
	assert.equal(
		stderrOf(() => new EarlyMessage(store, true).dropped()),
		'',
	);
});
