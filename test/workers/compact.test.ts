import {test} from 'node:test';
import assert from 'node:assert/strict';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {cutProblem, summaryMessage} from '../../source/core/history/compaction.js';
import type {Message} from '../../source/core/messages.js';
import {chooseCut} from '../../workers/compact/compact-cut.js';
import {jsonBytes, prefixImages, summaryText} from '../../workers/compact/compact-text.js';
import {DEFAULT_COMPACT_PROMPT} from '../../workers/compact/compact.js';
import {makeFolders, startOfficialWorker} from './frame-worker.js';

const call = (id: string): Message => ({role: 'assistant', content: null, tool_calls: [{id, type: 'function', function: {name: 'read', arguments: '{}'}}]});
const result = (id: string, text = 'output'): Message => ({role: 'tool', tool_call_id: id, content: text});
const user = (text: string): Message => ({role: 'user', content: text});
const answer = (text: string): Message => ({role: 'assistant', content: text});

/** system, then `turns` turns of user / tool call / result / answer, then a new question. */
function session(turns: number): Message[] {
	const history: Message[] = [{role: 'system', content: 'You are i.'}];
	for (let turn = 1; turn <= turns; turn++) history.push(user(`question ${turn}`), call(`c${turn}`), result(`c${turn}`), answer(`answer ${turn}`));
	history.push(user('the latest question'));
	return history;
}

test('the default cut summarises the most it may: the latest request and the last keep_recent messages stay, no tool call is split', () => {
	const history = session(5); // 22 messages; the latest request is 21
	const cut = chooseCut(history, 4)!;
	assert.equal(cutProblem(history, cut), null);
	assert.ok(history.length - cut >= 4);
	assert.ok(cut <= 21);
	for (let keep = 1; keep <= 20; keep++) {
		const chosen = chooseCut(history, keep);
		if (chosen === null) continue;
		assert.equal(cutProblem(history, chosen), null, `keep_recent ${keep} gave cut ${chosen}`);
		assert.ok(history.length - chosen >= keep);
	}

	// A tail of tool results: the cut moves back past them, never onto one.
	const tail: Message[] = [{role: 'system', content: 's'}, user('q1'), answer('a1'), user('q2'), call('x'), result('x'), result('x2'), answer('a2')];
	assert.equal(chooseCut(tail, 3), 3);
	assert.equal(chooseCut(tail, 1), 3, 'never past the latest request');
});

test('no safe old prefix: no cut', () => {
	assert.equal(chooseCut([{role: 'system', content: 's'}, user('only question')], 4), null);
	assert.equal(chooseCut(session(1), 4), 2, 'six messages, keep 4: only the first question is old enough');
	assert.equal(chooseCut(session(1), 5), null, 'six messages, keep 5: nothing after the system prompt is old enough');
	assert.equal(chooseCut([user('no system prompt'), answer('a'), user('b')], 1), null);
});

test('the text to summarise fits the room: long messages cut to head and tail, then the oldest part dropped, a previous summary kept', () => {
	const prefix: Message[] = [summaryMessage('EARLIER SUMMARY'), user('question'), call('c1'), result('c1', 'z'.repeat(50_000)), answer('done')];
	const roomy = summaryText(prefix, 1_000_000);
	assert.match(roomy, /EARLIER SUMMARY/);
	assert.match(roomy, /characters truncated/, 'a 50k tool result is cut even with room to spare');
	assert.ok(roomy.length < 10_000);
	for (const room of [3000, 1500, 600]) {
		const text = summaryText(prefix, room);
		assert.ok(jsonBytes(text) <= room, `${jsonBytes(text)} bytes in a room of ${room}`);
		assert.match(text, /EARLIER SUMMARY/);
		assert.match(text, /assistant: done$/, 'the newest part stays');
	}

	assert.equal(summaryText(prefix, 10), '', 'nothing useful fits: empty, and the worker says why');
});

test('images of the prefix, newest first, at most a batch', () => {
	const image = (n: number) => ({type: 'image_url' as const, image_url: {url: `data:image/png;base64,${n}`}});
	const prefix: Message[] = Array.from({length: 10}, (_, n) => ({role: 'user', content: [{type: 'text', text: `img ${n}`}, image(n)]}));
	const images = prefixImages(prefix);
	assert.equal(images.length, 8);
	assert.equal(images[0]!.image_url.url, 'data:image/png;base64,9');
});

test('the compact worker: plan, prompt and sized text, trimmed summary; enabled false plans no cut', async t => {
	const folders = await makeFolders(t);
	const worker = startOfficialWorker(t, 'compact', [], {env: folders.env});
	const history = session(5);
	const plan = await worker.request({id: 1, event: 'compact_plan', data: {budget: {fits: false, estimate: 9000, limit: 6400}, history, model: 'm', protocol: 'openai'}});
	assert.equal(plan.data.cut, chooseCut(history, 4));
	assert.deepEqual(plan.data.state, {limit: 6400});

	const prefix = history.slice(1, plan.data.cut);
	const before = await worker.request({id: 2, event: 'before_compact', data: {messages: prefix, cut: plan.data.cut, state: plan.data.state, model: 'm', protocol: 'openai', budget: {window: 8000}}});
	assert.equal(before.data.prompt, DEFAULT_COMPACT_PROMPT);
	assert.match(before.data.text, /^user: question 1/);
	assert.ok(jsonBytes(before.data.text) <= 6400 - jsonBytes(DEFAULT_COMPACT_PROMPT) - 512);

	const after = await worker.request({id: 3, event: 'after_compact', data: {summary: '  the summary \n', state: null}});
	assert.equal(after.data.summary, 'the summary');
	const bad = await worker.request({id: 4, event: 'after_compact', data: {state: null}});
	assert.match(bad.error, /after_compact data: .*summary/);
	assert.equal((await worker.close()).code, 0);

	await writeFile(join(folders.config, 'compact.json'), JSON.stringify({enabled: false}));
	const off = startOfficialWorker(t, 'compact', [], {env: folders.env});
	assert.equal((await off.request({id: 1, event: 'compact_plan', data: {budget: {}, history, model: 'm', protocol: 'openai'}})).data.cut, null);
	await off.close();
});

test('the compact worker: images of the old part go along when kept and planned; a limit nothing fits in is a clear error', async t => {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'compact.json'), JSON.stringify({images: 'keep'}));
	const worker = startOfficialWorker(t, 'compact', [], {env: folders.env});
	const image = {type: 'image_url', image_url: {url: `data:image/png;base64,${'A'.repeat(400)}`}};
	const prefix = [user('look at this'), {role: 'user', content: [{type: 'text', text: 'Images from tool call c1:'}, image]}, answer('a cat')];
	const kept = await worker.request({id: 1, event: 'before_compact', data: {messages: prefix, cut: 4, state: {limit: 6400}, model: 'm', protocol: 'openai', budget: {window: 8000, image_tokens: 100}}});
	assert.deepEqual(kept.data.images, [image]);
	// Planned at more than half the room, the image stays out; the text still goes.
	const left = await worker.request({id: 2, event: 'before_compact', data: {messages: prefix, cut: 4, state: {limit: 6400}, model: 'm', protocol: 'openai', budget: {window: 8000, image_tokens: 5000}}});
	assert.equal(left.data.images, undefined);
	assert.match(left.data.text, /assistant: a cat/);
	const none = await worker.request({id: 3, event: 'before_compact', data: {messages: prefix, cut: 4, state: {limit: 600}, model: 'm', protocol: 'openai', budget: null}});
	assert.match(none.error, /the summary request cannot fit the budget's limit \(600 tokens\) even with the old messages cut short/);
	await worker.close();
});

test('compact.json "images" defaults to keep, as in the example of spec/platform.md §4; "drop" leaves them out', async t => {
	const image = {type: 'image_url', image_url: {url: `data:image/png;base64,${'A'.repeat(400)}`}};
	const prefix = [user('look at this'), {role: 'user', content: [{type: 'text', text: 'Images from tool call c1:'}, image]}, answer('a cat')];
	const request = {id: 1, event: 'before_compact', data: {messages: prefix, cut: 4, state: {limit: 6400}, model: 'm', protocol: 'openai', budget: {window: 8000, image_tokens: 100}}};
	const unconfigured = await makeFolders(t);
	const byDefault = startOfficialWorker(t, 'compact', [], {env: unconfigured.env});
	assert.deepEqual((await byDefault.request(request)).data.images, [image]);
	await byDefault.close();
	const dropping = await makeFolders(t);
	await writeFile(join(dropping.config, 'compact.json'), JSON.stringify({images: 'drop'}));
	const dropped = startOfficialWorker(t, 'compact', [], {env: dropping.env});
	const answered = await dropped.request(request);
	assert.equal(answered.data.images, undefined);
	assert.match(answered.data.text, /assistant: a cat/);
	await dropped.close();
});

test('compact.json: keep_recent, a prompt file relative to it, and errors naming the file and field', async t => {
	const folders = await makeFolders(t);
	await writeFile(join(folders.config, 'summary.md'), 'Summarise {{workspace}} tersely.');
	await writeFile(join(folders.config, 'compact.json'), JSON.stringify({keep_recent: 9, prompt: 'summary.md', images: 'keep'}));
	const worker = startOfficialWorker(t, 'compact', [], {env: folders.env});
	const history = session(5);
	const plan = await worker.request({id: 1, event: 'compact_plan', workspace: folders.workspace, data: {budget: {}, history, model: 'm', protocol: 'openai'}});
	assert.equal(plan.data.cut, chooseCut(history, 9));
	const before = await worker.request({id: 2, event: 'before_compact', workspace: folders.workspace, data: {messages: history.slice(1, 5), cut: 5, state: null, model: 'm', protocol: 'openai', budget: null}});
	assert.equal(before.data.prompt, `Summarise ${folders.workspace} tersely.`);
	await worker.close();

	await writeFile(join(folders.config, 'compact.json'), JSON.stringify({keep_recent: 0, images: 'some'}));
	const broken = startOfficialWorker(t, 'compact', [], {env: folders.env});
	const failed = await broken.request({id: 1, event: 'compact_plan', data: {budget: {}, history, model: 'm', protocol: 'openai'}});
	assert.match(failed.error, /compact\.json/);
	assert.match(failed.error, /keep_recent/);
	await broken.close();
});
