import assert from 'node:assert/strict';
import {test} from 'node:test';
import {freezeDeep} from '../../source/core/immutable.js';
import {arrayAt, pointerOf, readReuse, restoreArrays, reusableArrays, tokensOf, withArrayAt} from '../../source/core/pool/prefix-reuse.js';
import {ReuseSender} from '../../source/core/pool/reuse-sender.js';
import {ReuseReceiver} from '../../workers/serve/reuse-receiver.js';

test('pointers escape "~" and "/" as RFC 6901 says, and read back; only one or two levels', () => {
	assert.equal(pointerOf(['body', 'messages']), '/body/messages');
	assert.equal(pointerOf(['a/b', 'c~d']), '/a~1b/c~0d');
	assert.deepEqual(tokensOf('/a~1b/c~0d'), ['a/b', 'c~d']);
	// "~01" is "~1" escaped, never "/".
	assert.deepEqual(tokensOf('/~01'), ['~1']);
	assert.throws(() => tokensOf('messages'), {name: 'FrameError', message: /must start with "\/"/});
	assert.throws(() => tokensOf('/a/b/c'), {name: 'FrameError', message: /at most two levels deep/});
});

test('the arrays a frame may shorten sit under data or one object below it, never deeper or inside arrays', () => {
	const data = {messages: [1], body: {messages: [2], tools: [3], deep: {list: [4]}}, text: 'x', nested: [[5]], 'a/b': [6]};
	assert.deepEqual(
		reusableArrays(data).map(([pointer]) => pointer),
		['/messages', '/body/messages', '/body/tools', '/nested', '/a~1b'],
	);
	assert.deepEqual(arrayAt(data, '/body/tools'), [3]);
	assert.equal(arrayAt(data, '/body/deep'), undefined);
	assert.equal(arrayAt(data, '/missing/list'), undefined);
});

test('withArrayAt copies the objects on the way and leaves the given ones alone', () => {
	const data = freezeDeep({body: {messages: [1, 2], model: 'm'}, other: {x: 1}});
	const changed = withArrayAt(data, '/body/messages', [2]);
	assert.deepEqual(changed, {body: {messages: [2], model: 'm'}, other: {x: 1}});
	assert.deepEqual(data.body.messages, [1, 2]);
	assert.equal(changed.other, data.other);
});

test('a reuse field is an object of pointers to unsigned integers; anything else is named', () => {
	assert.deepEqual(readReuse({'/messages': 3, '/body/input': 0}), {'/messages': 3, '/body/input': 0});
	assert.throws(() => readReuse([1]), {message: /"reuse" must be an object of JSON Pointers to counts \(got \[1\]\)/});
	assert.throws(() => readReuse({'/messages': -1}), {message: '"reuse" gives "/messages" the count -1; a count is an unsigned integer'});
	assert.throws(() => readReuse({'/messages': 1.5}), {message: /the count 1\.5/});
	assert.throws(() => readReuse({'/messages': '2'}), {message: /the count "2"/});
	assert.throws(() => readReuse({messages: 2}), {message: /must start with "\/"/});
});

test('restoring takes the base prefix and appends the tail; a count past the base or a pointer to no array fails', () => {
	const data: Record<string, unknown> = {messages: ['c'], body: {input: []}};
	const bases: Record<string, unknown[]> = {'/messages': ['a', 'b', 'x'], '/body/input': ['i']};
	const restored = restoreArrays(data, {'/messages': 2, '/body/input': 1}, pointer => bases[pointer]);
	assert.deepEqual(data, {messages: ['a', 'b', 'c'], body: {input: ['i']}});
	assert.deepEqual(
		restored.map(({pointer, added}) => [pointer, added]),
		[
			['/messages', ['c']],
			['/body/input', []],
		],
	);
	assert.throws(() => restoreArrays({messages: []}, {'/messages': 4}, pointer => bases[pointer]), {
		name: 'FrameError',
		message: '"reuse" takes 4 elements of "/messages" from a base of 3',
	});
	assert.throws(() => restoreArrays({messages: []}, {'/messages': 1}, () => undefined), {message: /from a base of 0/});
	assert.throws(() => restoreArrays({messages: 'no'}, {'/messages': 0}, () => []), {message: '"reuse" names "/messages", but the data has no array there'});
});

test('the sender sends only what differs from its last request at each pointer, and names every array it tracks', () => {
	const sender = new ReuseSender();
	const first = sender.prepare({messages: [{n: 1}, {n: 2}], tools: [], text: 'x'});
	assert.deepEqual(first.reuse, {'/messages': 0, '/tools': 0});
	assert.deepEqual(first.data.messages, [{n: 1}, {n: 2}]);
	first.commit();
	const second = sender.prepare({messages: [{n: 1}, {n: 2}, {n: 3}], tools: []});
	assert.deepEqual(second.reuse, {'/messages': 2, '/tools': 0});
	assert.deepEqual(second.data.messages, [{n: 3}]);
	second.commit();
	// A change inside the prefix is seen by value: from there on, everything is sent.
	const third = sender.prepare({messages: [{n: 1}, {n: 20}, {n: 3}], tools: []});
	assert.deepEqual(third.reuse, {'/messages': 1, '/tools': 0});
	assert.deepEqual(third.data.messages, [{n: 20}, {n: 3}]);
});

test('the sender compares by value: an element changed in place is sent again, a frozen one is written once', () => {
	const sender = new ReuseSender();
	const loose = {role: 'user', content: 'a'};
	const frozen = freezeDeep({role: 'user', content: 'b'});
	sender.prepare({messages: [frozen, loose]}).commit();
	loose.content = 'changed';
	const next = sender.prepare({messages: [frozen, loose]});
	assert.deepEqual(next.reuse, {'/messages': 1});
	assert.deepEqual(next.data.messages, [{role: 'user', content: 'changed'}]);
});

test('without commit (the frame was never written) the bases stay as the worker knows them', () => {
	const sender = new ReuseSender();
	sender.prepare({messages: [1]}).commit();
	sender.prepare({messages: [1, 2, 3]});
	assert.deepEqual(sender.prepare({messages: [1, 4]}).reuse, {'/messages': 1});
});

test('the receiver rebuilds requests from its bases, freezes what it received and shortens answers that give it back', () => {
	const receiver = new ReuseReceiver();
	const first: Record<string, unknown> = {messages: [{n: 1}, {n: 2}]};
	receiver.restore(first, {'/messages': 0});
	const received = first.messages as Array<{n: number}>;
	assert.ok(Object.isFrozen(received[0]));
	assert.throws(() => {
		(received[0] as {n: number}).n = 9;
	}, TypeError);

	const second: Record<string, unknown> = {messages: [{n: 3}], mode: 'x'};
	const restored = receiver.restore(second, {'/messages': 2});
	const full = second.messages as unknown[];
	assert.deepEqual(full, [{n: 1}, {n: 2}, {n: 3}]);
	assert.equal(full[0], received[0]);
	// A handler that appends: only the new element goes back.
	assert.deepEqual(restored.answer({...second, messages: [...full, {n: 4}]}), {data: {messages: [{n: 4}], mode: 'x'}, reuse: {'/messages': 3}});
	// One that rebuilt the elements (equal, not the same): nothing is left out.
	assert.deepEqual(restored.answer({messages: full.map(element => ({...(element as object)}))}), {data: {messages: [{n: 1}, {n: 2}, {n: 3}]}, reuse: {}});
	// One that dropped the array: nothing to shorten.
	assert.deepEqual(restored.answer({done: true}), {data: {done: true}, reuse: {}});
	assert.throws(() => receiver.restore({messages: []}, {'/messages': 4}), {message: /takes 4 elements of "\/messages" from a base of 3/});
});
