import assert from 'node:assert/strict';
import {test} from 'node:test';
import {MAX_ERROR_TEXT_BYTES, readResponse} from '../../source/core/pool/response-frame.js';

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
