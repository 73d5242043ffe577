// MessageEnd replacements: their bound, and how a head that cannot take text back holds the answer (issue 47, points 6 and 7).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {CoreEvent} from '../../source/core/events.js';
import {MAX_MESSAGE_END_BYTES, readMessageEnd} from '../../source/core/extensions/event-answers.js';
import {finalAnswers} from '../../source/modes/final-answer.js';

const answer = (content: string) => ({message: {role: 'assistant' as const, content}, replacedBy: null});

test('a replacement at the limit is taken, one byte past it refused; a redaction of a longer answer is taken up to that answer', () => {
	assert.equal(readMessageEnd({content: 'x'.repeat(MAX_MESSAGE_END_BYTES)}, answer('short'), 'big')?.replacedBy, 'big');
	assert.throws(() => readMessageEnd({content: 'x'.repeat(MAX_MESSAGE_END_BYTES + 1)}, answer('short'), 'big'), /is 262145 bytes, over the limit of 262144/);
	const long = 'y'.repeat(MAX_MESSAGE_END_BYTES + 10);
	assert.equal(readMessageEnd({content: 'z'.repeat(MAX_MESSAGE_END_BYTES + 10)}, answer(long), 'redactor')?.message.content?.length, MAX_MESSAGE_END_BYTES + 10);
	assert.throws(() => readMessageEnd({content: 'z'.repeat(MAX_MESSAGE_END_BYTES + 11)}, answer(long), 'redactor'), /longer than the answer it replaces/);
	// The same text is no replacement: nobody is named for it.
	assert.equal(readMessageEnd({content: 'short'}, answer('short'), 'echo'), undefined);
});

function head(replaceable: boolean): {emit: (event: CoreEvent) => void; written: CoreEvent[]} {
	const written: CoreEvent[] = [];
	return {
		emit: finalAnswers(
			event => written.push(event),
			() => replaceable,
		),
		written,
	};
}

test('with a MessageEnd handler the answer is written once final; without one every delta passes at once', () => {
	const held = head(true);
	held.emit({type: 'text_delta', text: 'secret-'});
	held.emit({type: 'thinking_delta', text: 'hm'});
	held.emit({type: 'text_delta', text: 'abc'});
	assert.deepEqual(held.written, [{type: 'thinking_delta', text: 'hm'}]);
	held.emit({type: 'message_end', text: '[REDACTED]', replaced_by: 'redactor'});
	assert.deepEqual(held.written.slice(1), [
		{type: 'text_delta', text: '[REDACTED]'},
		{type: 'message_end', text: '[REDACTED]', replaced_by: 'redactor'},
	]);
	const streaming = head(false);
	streaming.emit({type: 'text_delta', text: 'a'});
	streaming.emit({type: 'text_delta', text: 'b'});
	assert.deepEqual(streaming.written, [
		{type: 'text_delta', text: 'a'},
		{type: 'text_delta', text: 'b'},
	]);
});

test('a held answer that never reached its message_end (the request failed) is not written', () => {
	const held = head(true);
	held.emit({type: 'text_delta', text: 'secret-abc'});
	held.emit({type: 'error', message: 'the stream was cut', kind: 'stream'});
	held.emit({type: 'done', reason: 'error', steps: 1});
	assert.deepEqual(
		held.written.map(event => event.type),
		['error', 'done'],
	);
});
