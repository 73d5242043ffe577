// The one redaction rule (errors.ts): which header values are secrets, and
// which values are long enough to hide.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {redact, secretsOf, secretValues} from '../../source/core/providers/errors.js';

test('the credential headers always, other headers only when named (in any case), a bearer token both whole and bare', () => {
	const headers = {Authorization: 'Bearer sk-key-12345', 'x-team-token': 'team-value-1', 'anthropic-version': '2023-06-01', accept: 'text/event-stream'};
	assert.deepEqual(secretsOf(headers), ['Bearer sk-key-12345', 'sk-key-12345']);
	assert.deepEqual(secretsOf(headers, ['X-Team-Token']), ['Bearer sk-key-12345', 'sk-key-12345', 'team-value-1']);
	assert.equal(redact('bad sk-key-12345 for team-value-1', secretsOf(headers, ['x-team-token'])), 'bad [redacted] for [redacted]');
});

test('a value of 8 characters is hidden, one of 7 is not (it could match innocent text); each once, longest first', () => {
	assert.deepEqual(secretValues(['12345678', '1234567', null, undefined, '12345678', 'longer-value']), ['longer-value', '12345678']);
});
