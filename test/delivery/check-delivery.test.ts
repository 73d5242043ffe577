// The arguments of appendEntry and sendMessage (source/core/extensions/check-delivery.ts):
// every shape, every bad field named, each limit at the limit and one past.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {checkAppendEntry, checkSendMessage, MAX_CUSTOM_TYPE_LENGTH, MAX_DELIVERY_DATA_BYTES, MAX_DELIVERY_IMAGES, MAX_DELIVERY_TEXT_BYTES} from '../../source/core/extensions/check-delivery.js';
import {MAX_PENDING_DELIVERIES} from '../../source/core/agent/message-delivery.js';
import {RuntimeActionError} from '../../source/core/extensions/runtime-link.js';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');

function refused(run: () => unknown, pattern: RegExp): void {
	assert.throws(run, (error: unknown) => {
		assert.ok(error instanceof RuntimeActionError);
		assert.equal(error.code, 'invalid_argument');
		assert.match(error.message, pattern);
		return true;
	});
}

test('sendMessage takes {text}, {message} (a user or a custom message) and the custom message at the top level; null content is []', () => {
	assert.deepEqual(checkSendMessage('x', {text: 'hi'}), {message: {content: 'hi', display: true}});
	assert.deepEqual(checkSendMessage('x', {message: {role: 'user', content: [{type: 'text', text: 'a'}]}}), {message: {content: [{type: 'text', text: 'a'}], display: true}});
	assert.deepEqual(checkSendMessage('x', {message: {customType: 'goal-state', content: '目标状态已更新', display: true}, options: {triggerTurn: false}}), {
		message: {content: '目标状态已更新', customType: 'goal-state', display: true},
		triggerTurn: false,
	});
	assert.deepEqual(checkSendMessage('x', {role: 'custom', customType: 'a.b:c-d_e', content: null, details: {n: 1}, deliverAs: 'followUp'}), {
		message: {content: [], customType: 'a.b:c-d_e', display: false, details: {n: 1}},
		deliverAs: 'followUp',
	});
	assert.deepEqual(checkSendMessage('x', {customType: 't'}).message.content, []);
	const image = checkSendMessage('x', {
		customType: 't',
		content: [
			{type: 'text', text: 'see'},
			{type: 'image', data: png, mimeType: 'image/png'},
		],
	});
	assert.deepEqual(image.message.content, [
		{type: 'text', text: 'see'},
		{type: 'image_url', image_url: {url: `data:image/png;base64,${png}`}},
	]);
	assert.deepEqual(checkSendMessage('x', {text: 'a', triggerTurn: true, deliverAs: 'nextTurn'}), {message: {content: 'a', display: true}, triggerTurn: true, deliverAs: 'nextTurn'});
});

test('sendMessage refuses mixed options, mixed shapes and every bad field, naming the extension and the field', () => {
	refused(
		() => checkSendMessage('ext', {text: 'a', options: {triggerTurn: true}, deliverAs: 'steer'}),
		/^sendMessage: extension ext: options are given both in options and at the top level \(deliverAs\); use one of the two$/,
	);
	refused(() => checkSendMessage('ext', {text: 'a', options: {}, triggerTurn: false}), /both in options and at the top level \(triggerTurn\)/);
	refused(() => checkSendMessage('ext', {}), /give one of message, text or customType$/);
	refused(() => checkSendMessage('ext', {text: 'a', customType: 'b'}), /give one of message, text or customType, not text and customType/);
	refused(() => checkSendMessage('ext', {text: 'a', display: true}), /display belongs to a custom message/);
	refused(() => checkSendMessage('ext', null), /the request must be an object/);
	refused(() => checkSendMessage('ext', 'hi'), /the request must be an object/);
	refused(() => checkSendMessage('ext', {text: 1}), /^sendMessage: extension ext: text: /);
	refused(() => checkSendMessage('ext', {text: 'a', triggerturn: true}), /unknown field "triggerturn"/);
	refused(() => checkSendMessage('ext', {text: 'a', options: {deliverAs: 'later'}}), /options\.deliverAs: /);
	refused(() => checkSendMessage('ext', {text: 'a', triggerTurn: 'yes'}), /triggerTurn: /);
	refused(() => checkSendMessage('ext', {text: 'a', options: {when: 1}}), /options: unknown field "when"/);
	refused(() => checkSendMessage('ext', {customType: 'bad type'}), /customType: must be 1–64 characters of A-Z a-z 0-9 _ \. : -/);
	refused(() => checkSendMessage('ext', {customType: 't', display: 'yes'}), /display: /);
	refused(() => checkSendMessage('ext', {customType: 't', content: [{type: 'video'}]}), /content\.0/);
	refused(() => checkSendMessage('ext', {customType: 't', content: [{type: 'text'}]}), /content\.0\.text: /);
	refused(() => checkSendMessage('ext', {message: {role: 'assistant', content: 'a'}}), /^sendMessage: extension ext: message.role: .*expected "user"/);
	refused(() => checkSendMessage('ext', {customType: 't', content: [{type: 'image', data: 'bm90IGFuIGltYWdl', mimeType: 'image/png'}]}), /content\[0\]: the data is not a PNG, JPEG, GIF or WebP image/);
	refused(() => checkSendMessage('ext', {customType: 't', content: [{type: 'image_url', image_url: {url: 'https://example.com/a.png'}}]}), /content\[0\]: the url must be a base64 data URL/);
	refused(() => checkSendMessage('ext', {customType: 't', details: {n: 1n}}), /details must be JSON data/);
	refused(() => checkSendMessage('ext', {customType: 't', details: () => 1}), /details must be JSON data \(got function\)/);
});

test('the limits: customType length, data and details bytes, text bytes and images, each at the limit and one past', () => {
	const longest = 'a'.repeat(MAX_CUSTOM_TYPE_LENGTH);
	assert.equal(checkSendMessage('x', {customType: longest}).message.customType, longest);
	refused(() => checkSendMessage('x', {customType: `${longest}a`}), /customType: must be 1–64 characters/);
	refused(() => checkAppendEntry('x', {customType: ''}), /customType: must be 1–64/);

	// JSON of a string is its text plus two quotes.
	const data = 'd'.repeat(MAX_DELIVERY_DATA_BYTES - 2);
	assert.equal(checkAppendEntry('x', {customType: 't', data}).kind, 'entry');
	refused(() => checkAppendEntry('x', {customType: 't', data: `${data}d`}), /^appendEntry: extension x: data is 262145 bytes as JSON, over the limit of 262144 \(256 KiB\)$/);
	assert.ok(checkSendMessage('x', {customType: 't', details: data}).message.details);
	refused(() => checkSendMessage('x', {customType: 't', details: `${data}d`}), /details is 262145 bytes as JSON, over the limit of 262144/);

	const text = 't'.repeat(MAX_DELIVERY_TEXT_BYTES);
	assert.equal(checkSendMessage('x', {text}).message.content, text);
	refused(() => checkSendMessage('x', {text: `${text}t`}), /^sendMessage: extension x: text: the text is 262145 bytes, over the limit of 262144 \(256 KiB\)$/);
	refused(
		() =>
			checkSendMessage('x', {
				customType: 'c',
				content: [
					{type: 'text', text},
					{type: 'text', text: 'é'},
				],
			}),
		/content: the text is 262146 bytes/,
	);

	const image = {type: 'image', data: png, mimeType: 'image/png'};
	assert.equal((checkSendMessage('x', {customType: 'c', content: Array.from({length: MAX_DELIVERY_IMAGES}, () => image)}).message.content as unknown[]).length, MAX_DELIVERY_IMAGES);
	refused(() => checkSendMessage('x', {customType: 'c', content: Array.from({length: MAX_DELIVERY_IMAGES + 1}, () => image)}), /content: 9 images, over the limit of 8/);
});

test('appendEntry takes {customType, data} (data absent is null) or {message}, and nothing else', () => {
	assert.deepEqual(checkAppendEntry('x', {customType: 'state', data: {a: 1}}), {kind: 'entry', customType: 'state', data: {a: 1}});
	assert.deepEqual(checkAppendEntry('x', {customType: 'state'}), {kind: 'entry', customType: 'state', data: null});
	assert.deepEqual(checkAppendEntry('x', {message: {customType: 'c', content: 'hi', display: true}}), {kind: 'message', message: {content: 'hi', customType: 'c', display: true}});
	assert.deepEqual(checkAppendEntry('x', {message: {role: 'user', content: 'hi'}}), {kind: 'message', message: {content: 'hi', display: false}});
	refused(() => checkAppendEntry('ext', {customType: 'state', data: 1, extra: 2}), /^appendEntry: extension ext: unknown field "extra"$/);
	refused(() => checkAppendEntry('ext', {message: {customType: 'c'}, customType: 'state'}), /unknown field "customType"/);
	refused(() => checkAppendEntry('ext', {data: 1}), /customType: /);
	refused(() => checkAppendEntry('ext', []), /the request must be an object/);
});

test('appendEntry and sendMessage refuse data JSON cannot hold as it is (NaN, Infinity, undefined in a list, a function, a Map), naming where', () => {
	refused(() => checkAppendEntry('ext', {customType: 'state', data: {score: Number.NaN}}), /^appendEntry: extension ext: data must be JSON data: data\.score is NaN, which JSON cannot hold/);
	refused(() => checkAppendEntry('ext', {customType: 'state', data: {list: [1, Number.POSITIVE_INFINITY]}}), /data\.list\[1\] is Infinity/);
	refused(() => checkAppendEntry('ext', {customType: 'state', data: [undefined]}), /data\[0\] is undefined/);
	refused(() => checkAppendEntry('ext', {customType: 'state', data: {f: () => 1}}), /data\.f is a function/);
	refused(() => checkAppendEntry('ext', {customType: 'state', data: {m: new Map([[1, 2]])}}), /data\.m is a Map/);
	refused(() => checkSendMessage('ext', {customType: 't', content: 'x', details: {n: -Number.NaN}}), /details\.n is NaN/);
	// What JSON keeps as it is passes, a shared object too.
	const shared = {a: 1};
	assert.deepEqual(checkAppendEntry('x', {customType: 'state', data: {one: shared, two: shared, z: null, s: 'x', b: false, n: -0.5}}).kind, 'entry');
});

test('the authoring guide states these limits', () => {
	const guide = readFileSync(fileURLToPath(new URL('../../../docs/extensions/authoring.md', import.meta.url)), 'utf8').replaceAll(/\s+/g, ' ');
	for (const phrase of [
		`\`customType\` is 1–${MAX_CUSTOM_TYPE_LENGTH} of \`A-Z a-z 0-9 _ . : -\``,
		`\`data\` and \`details\` at most ${MAX_DELIVERY_DATA_BYTES / 1024} KiB as JSON`,
		`a message's text at most ${MAX_DELIVERY_TEXT_BYTES / 1024} KiB`,
		`at most ${MAX_DELIVERY_IMAGES} images`,
		`at most ${MAX_PENDING_DELIVERIES} uncommitted deliveries`,
	])
		assert.ok(guide.includes(phrase), phrase);
});
