import assert from 'node:assert/strict';
import {test} from 'node:test';
import {readResponse} from '../../source/core/pool/response-frame.js';

test('an answer is data (an object) or an error (a string), with the request\'s ID', () => {
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
