import assert from 'node:assert/strict';
import {test} from 'node:test';
import {MAX_ANSWER_WARNINGS, MAX_ERROR_TEXT_BYTES, readResponse} from '../../source/core/pool/response-frame.js';

test("an answer is data (an object) or an error (a string), with the request's ID", () => {
	assert.deepEqual(readResponse('{"id":7,"data":{"output":"ok"}}', 7), {data: {output: 'ok'}});
	assert.deepEqual(readResponse('{"id":7,"error":"no such file"}', 7), {error: 'no such file'});
});

test('every broken rule is a FrameError saying what the worker did', () => {
	const cases: [string, number | undefined, RegExp][] = [
		['{"id":1,"data":{}}', undefined, /^wrote output while no call was pending: "\{\\"id\\":1,\\"data\\":\{\}\}"$/],
		['ready', 1, /^wrote a line that is not JSON: "ready"$/],
		['[1]', 1, /^wrote a frame that is not a JSON object: "\[1\]"$/],
		['{"data":{}}', 1, /^answered without an ID \(expected 1\)/],
		['{"id":"1","data":{}}', 1, /^answered with ID "1" instead of 1$/],
		['{"id":2,"data":{}}', 1, /^answered with ID 2 instead of 1$/],
		['{"id":1,"data":{},"error":"x"}', 1, /^answered with both "data" and "error"$/],
		['{"id":1}', 1, /^answered with neither "data" nor "error"$/],
		['{"id":1,"error":{"message":"x"}}', 1, /^answered with an "error" that is not a string: \{"message":"x"\}$/],
		['{"id":1,"data":null}', 1, /^answered with "data" that is not a JSON object: null$/],
		['{"id":1,"data":"text"}', 1, /^answered with "data" that is not a JSON object: "text"$/],
		[`{"id":1,"data":[${'1,'.repeat(100)}1]}`, 1, /^answered with "data" that is not a JSON object: \[(1,){39}1…$/],
		['{"id":1,"data":{},"warnings":"careful"}', 1, /^answered with "warnings" that is not a list of strings: "careful"$/],
		['{"id":1,"data":{},"warnings":["a",2]}', 1, /^answered with "warnings" that is not a list of strings: \["a",2\]$/],
	];
	for (const [text, id, message] of cases) assert.throws(() => readResponse(text, id), {name: 'FrameError', message}, text);
});

test('an error text is kept whole up to 8 KiB and cut past it at a character boundary, saying how much was cut', () => {
	const exact = 'e'.repeat(MAX_ERROR_TEXT_BYTES);
	assert.deepEqual(readResponse(JSON.stringify({id: 1, error: exact}), 1), {error: exact});
	const over = readResponse(JSON.stringify({id: 1, error: `${exact}x`}), 1) as {error: string};
	assert.equal(over.error, `${exact}… [1 more bytes of the error cut]`);
	// 5 MiB of a three-byte character: the cut keeps whole characters only.
	const wide = '中'.repeat((5 * 1024 * 1024) / 3);
	const cut = (readResponse(JSON.stringify({id: 1, error: wide}), 1) as {error: string}).error;
	const kept = cut.slice(0, cut.indexOf('…'));
	assert.ok(Buffer.byteLength(kept) <= MAX_ERROR_TEXT_BYTES);
	assert.match(kept, /^中+$/);
	assert.match(cut, new RegExp(`… \\[${Buffer.byteLength(wide) - Buffer.byteLength(kept)} more bytes of the error cut\\]$`));
});

test(`an answer's warnings: a list of at most ${MAX_ANSWER_WARNINGS} strings, each cut at 8 KiB; one more is a FrameError`, () => {
	const warnings = Array.from({length: MAX_ANSWER_WARNINGS}, (_, n) => `w${n}`);
	assert.deepEqual(readResponse(JSON.stringify({id: 1, data: {}, warnings}), 1), {data: {}, warnings});
	assert.deepEqual(readResponse(JSON.stringify({id: 1, data: {}, warnings: []}), 1), {data: {}, warnings: []});
	assert.throws(() => readResponse(JSON.stringify({id: 1, data: {}, warnings: [...warnings, 'one more']}), 1), {
		name: 'FrameError',
		message: `answered with ${MAX_ANSWER_WARNINGS + 1} warnings; an answer may carry at most ${MAX_ANSWER_WARNINGS}`,
	});
	const long = 'w'.repeat(MAX_ERROR_TEXT_BYTES + 3);
	assert.deepEqual(readResponse(JSON.stringify({id: 1, data: {}, warnings: [long]}), 1), {data: {}, warnings: [`${'w'.repeat(MAX_ERROR_TEXT_BYTES)}… [3 more bytes of the warning cut]`]});
	// An error frame carries no warnings: the call failed.
	assert.deepEqual(readResponse(JSON.stringify({id: 1, error: 'x', warnings: ['w']}), 1), {error: 'x'});
});
