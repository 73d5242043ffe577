import assert from 'node:assert/strict';
import {test} from 'node:test';
import {freezeDeep} from '../../source/core/immutable.js';
import {WireShaper, wireShape} from '../../workers/cache/prediction.js';

const tools = [{type: 'function', function: {name: 'read'}}];

function messages(count: number): Array<{role: string; content: string}> {
	return Array.from({length: count}, (_, index) => ({role: index % 2 === 0 ? 'user' : 'assistant', content: `message ${index}`}));
}

test('the shaper gives the chain a fresh hash of every element gives, request after request', () => {
	const shaper = new WireShaper();
	const frozen = messages(6).map(message => freezeDeep(message));
	for (const body of [
		{tools, messages: frozen.slice(0, 2)},
		{tools, messages: frozen.slice(0, 4)},
		{tools, messages: frozen},
		// Other tools: everything after them hashes anew.
		{tools: [], messages: frozen},
		{tools: [], system: 'be brief', messages: frozen},
		// Compaction: shorter, with a summary.
		{tools: [], system: 'be brief', messages: [frozen[0]!, freezeDeep({role: 'user', content: 'Summary of the earlier conversation: x'}), frozen[5]!]},
		{tools: [], input: frozen.slice(0, 3)},
	]) {
		assert.deepEqual(shaper.shape(body), wireShape(body));
	}
});

test('the shaper trusts only frozen elements: one changed in place is hashed again', () => {
	const shaper = new WireShaper();
	const loose = messages(3);
	const first = shaper.shape({tools, messages: loose});
	loose[1]!.content = 'changed';
	const second = shaper.shape({tools, messages: loose});
	assert.deepEqual(second, wireShape({tools, messages: loose}));
	assert.equal(second.chain[2], first.chain[2], 'the elements before the change keep their digests');
	assert.notEqual(second.chain[3], first.chain[3]);
	assert.notEqual(second.chain[4], first.chain[4]);
});
