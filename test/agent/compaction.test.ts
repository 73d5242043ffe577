import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, realpathSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {buildCandidate, commitProblem, cutProblem, estimateBytes, latestRequestIndex} from '../../source/core/history/compaction.js';
import {compactHistory, CompactionCancelledError, CompactionError, type CompactionIo} from '../../source/core/agent/compact-history.js';
import {EventBus, type EventHandler} from '../../source/core/extensions/event-bus.js';
import {openSession, type Session} from '../../source/core/session/session-store.js';
import type {HookChain} from '../../source/core/lifecycle/hook-chain.js';
import type {CoreEvent} from '../../source/core/events.js';
import type {Message} from '../../source/core/messages.js';
import type {ModelReply} from '../../source/core/providers/types.js';

const long = (label: string) => `${label}: ${'lorem ipsum dolor sit amet '.repeat(40)}`;

/** system, then three exchanges: one with a tool call and its result and image, then the latest request. */
function history(): Message[] {
	return [
		{role: 'system', content: 'You are i.'},
		{role: 'user', content: long('first question')},
		{role: 'assistant', content: long('first answer')},
		{role: 'user', content: long('second question')},
		{role: 'assistant', content: null, tool_calls: [{id: 'c1', type: 'function', function: {name: 'read', arguments: '{}'}}]},
		{role: 'tool', tool_call_id: 'c1', content: long('file text')},
		{role: 'user', content: [{type: 'text', text: 'Images from tool call c1:'}], _tool_call_id: 'c1'},
		{role: 'assistant', content: long('second answer')},
		{role: 'user', content: 'the latest request'},
	];
}

test('a cut must leave the system prompt and the latest request and never split a tool call from its result', () => {
	const messages = history();
	assert.equal(latestRequestIndex(messages), 8);
	assert.equal(cutProblem(messages, 3), null);
	assert.equal(cutProblem(messages, 4), null);
	assert.equal(cutProblem(messages, 7), null);
	assert.equal(cutProblem(messages, 8), null);
	assert.match(cutProblem(messages, 1)!, /nothing to summarise/);
	assert.match(cutProblem(messages, 9)!, /latest request/);
	assert.match(cutProblem(messages, 5)!, /separates a tool call from its result/);
	assert.match(cutProblem(messages, 6)!, /separates a tool call from its result/);
	assert.match(cutProblem(messages, 2.5)!, /whole message index/);
	assert.match(cutProblem(messages, '3')!, /whole message index/);
	assert.match(cutProblem(messages.slice(1), 3)!, /system prompt/);
	// A context snapshot or a summary after the person's message is not their request.
	const withContext = [...messages, {role: 'user', content: '<context source="memory">…</context>', _context: {source: 'memory', kind: 'full'}} as Message];
	assert.equal(latestRequestIndex(withContext), 8);
	assert.match(cutProblem(withContext, 9)!, /latest request \(message 8\)/);
	const withSummary = [...messages, {role: 'user', content: 'Summary…', _compact_summary: true} as Message];
	assert.equal(latestRequestIndex(withSummary), 8);
});

test('the committed candidate keeps the system prompt and the tail; the middle may hold a restored snapshot', () => {
	const messages = history();
	const candidate = buildCandidate(messages, 4, 'what happened');
	assert.equal(candidate.length, 2 + messages.length - 4);
	assert.equal(commitProblem(messages, 4, candidate), null);
	const withSnapshot = [candidate[0]!, candidate[1]!, {role: 'user', content: '[memory snapshot]'} as Message, ...candidate.slice(2)];
	assert.equal(commitProblem(messages, 4, withSnapshot), null);
	assert.match(commitProblem(messages, 4, [{role: 'system', content: 'other'}, ...candidate.slice(1)])!, /system prompt changed/);
	assert.match(commitProblem(messages, 4, [...candidate.slice(0, -1), {role: 'user', content: 'rewritten'}])!, /kept messages changed/);
	assert.match(commitProblem(messages, 4, candidate.slice(0, 3))!, /lost the messages/);
});

test('the estimate counts what goes on the wire, replay items included, local metadata not', () => {
	const plain: Message[] = [{role: 'assistant', content: 'x'}];
	const marked = [{role: 'assistant', content: 'x', _local: 'y'.repeat(100)}] as unknown as Message[];
	const replay: Message[] = [{role: 'assistant', content: 'x', _anthropic_content: [{type: 'thinking', thinking: 'z'.repeat(100)}]}];
	assert.equal(estimateBytes(marked), estimateBytes(plain));
	assert.ok(estimateBytes(replay) > estimateBytes(plain) + 100);
});

interface Harness {
	session: Session;
	path: string;
	io: CompactionIo;
	events: CoreEvent[];
	requests: Message[][];
	file(): string;
}

/** A real session holding the history, and hooks answered by plain functions. */
async function harness(
	answers: Partial<Record<string, (data: Record<string, unknown>) => Record<string, unknown>>>,
	options: {fitsAfter?: boolean; summaryFits?: boolean; reply?: () => Promise<ModelReply>} = {},
): Promise<Harness> {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-compact-')));
	const path = join(root, 's.json');
	const session = await openSession({path, workspace: root});
	await session.appendStep(history());
	const hooks: HookChain = {
		has: event => answers[event] !== undefined,
		run: async (event, data) => answers[event]?.(data) ?? data,
		warnings: () => [],
	};
	const events: CoreEvent[] = [];
	const requests: Message[][] = [];
	const io: CompactionIo = {
		session,
		hooks,
		emit: event => events.push(event),
		model: 'm',
		protocol: 'openai',
		budget: {window: 8000},
		tools: [],
		reason: 'budget',
		async fits(messages, tools) {
			const summaryRequest = messages[0]?.content === 'Summarise.' && tools.length === 0;
			return {fits: summaryRequest ? (options.summaryFits ?? true) : (options.fitsAfter ?? true), answer: {}};
		},
		async request(messages) {
			requests.push(messages);
			return options.reply ? options.reply() : {message: {role: 'assistant', content: 'a model summary'}, finishReason: 'stop', rawFinishReason: 'stop', usage: null};
		},
	};
	return {session, path, io, events, requests, file: () => readFileSync(path, 'utf8')};
}

const plan = (cut: unknown) => ({compact_plan: () => ({cut, state: {round: 1}})});

test('a local summary is committed as one step; the file keeps the original steps as its backup', async () => {
	const h = await harness({...plan(4), before_compact: data => ({...data, summary: 'they asked twice'})});
	const original = h.file();
	await compactHistory(h.io, {fits: false});
	assert.equal(h.session.messages.length, 2 + 5);
	assert.match(JSON.stringify(h.session.messages[1]), /they asked twice/);
	assert.deepEqual(h.session.messages.at(-1), {role: 'user', content: 'the latest request'});
	assert.ok(h.file().startsWith(original), 'the original steps are still in the file');
	assert.equal(h.requests.length, 0, 'a local summary needs no model call');
	assert.equal(h.events[0]?.type, 'compaction');
	await h.session.close();
	const reopened = await openSession({path: h.path, workspace: h.session.workspace});
	assert.deepEqual(reopened.messages, h.session.messages);
	await reopened.close();
});

test('without a local summary the model writes it from the prompt and the transcript of the old prefix', async () => {
	const h = await harness({...plan(4), before_compact: data => ({...data, prompt: 'Summarise.'}), after_compact: data => ({...data, summary: `${String(data.summary)} (checked)`})});
	await compactHistory(h.io, {fits: false});
	assert.equal(h.requests.length, 1);
	assert.equal(h.requests[0]![0]!.content, 'Summarise.');
	assert.match(String(h.requests[0]![1]!.content), /user: first question/);
	assert.match(JSON.stringify(h.session.messages[1]), /a model summary \(checked\)/);
});

const failures: Array<[string, Parameters<typeof harness>[0], Parameters<typeof harness>[1], RegExp]> = [
	['the plugin chooses not to compact', {...plan(null)}, {}, /chose not to compact/],
	['an invalid cut', {...plan(5), before_compact: data => ({...data, summary: 's'})}, {}, /invalid cut: .*separates a tool call/],
	['no summary and no prompt', {...plan(4)}, {}, /neither a summary nor a prompt/],
	['an empty summary', {...plan(4), before_compact: data => ({...data, summary: '  '})}, {}, /summary is empty/],
	['a summary that is not smaller', {...plan(2), before_compact: data => ({...data, summary: 'x'.repeat(100_000)})}, {}, /not smaller/],
	['a candidate over the budget', {...plan(4), before_compact: data => ({...data, summary: 's'})}, {fitsAfter: false}, /still does not fit/],
	['a summary request over the budget', {...plan(4), before_compact: data => ({...data, prompt: 'Summarise.'})}, {summaryFits: false}, /summary request itself does not fit/],
	['a failed summary call', {...plan(4), before_compact: data => ({...data, prompt: 'Summarise.'})}, {reply: async () => Promise.reject(new Error('HTTP 500'))}, /summary request failed: HTTP 500/],
	[
		'a commit hook that rewrites the kept tail',
		{...plan(4), before_compact: data => ({...data, summary: 's'}), before_compact_commit: data => ({messages: [...(data.messages as Message[]).slice(0, -1), {role: 'user', content: 'forged'}]})},
		{},
		/kept messages changed/,
	],
	[
		'a commit hook that slips in a tool result for no call',
		{
			...plan(4),
			before_compact: data => ({...data, summary: 's'}),
			before_compact_commit: data => ({messages: [...(data.messages as Message[]).slice(0, 2), {role: 'tool', tool_call_id: 'nope', content: 'x'}, ...(data.messages as Message[]).slice(2)]}),
		},
		{},
		/before_compact_commit hook returned a history the provider would refuse: message 2 \(tool\): the tool result for "nope" answers no tool call/,
	],
	['an after_compact hook without a summary', {...plan(4), before_compact: data => ({...data, summary: 's'}), after_compact: () => ({})}, {}, /after_compact hook returned data/],
];

for (const [name, answers, options, message] of failures) {
	test(`compaction commits nothing on ${name}: the history stays byte-identical`, async () => {
		const h = await harness(answers, options);
		const file = h.file();
		const messages = JSON.stringify(h.session.messages);
		await assert.rejects(compactHistory(h.io, {fits: false}), (error: Error) => error instanceof CompactionError && message.test(error.message));
		assert.equal(h.file(), file);
		assert.equal(JSON.stringify(h.session.messages), messages);
		assert.equal(h.events.length, 0);
		await h.session.close();
	});
}

/** Extension handlers for the compaction's two events, with what they were given and what the bus reported. */
function extensionEvents(gate: EventHandler) {
	const seen: Array<[string, any]> = [];
	const reports: string[] = [];
	const events = new EventBus({
		handlers: [
			{
				extension: 'guard',
				tag: 'SessionBeforeCompact',
				platforms: undefined,
				handler: (event, ctx) => {
					seen.push([ctx.tag, event]);
					return gate(event, ctx);
				},
			},
			{extension: 'guard', tag: 'SessionCompact', platforms: undefined, handler: (event, ctx) => void seen.push([ctx.tag, event])},
		],
		report: message => reports.push(message),
		platform: 'linux',
	});
	return {events, seen, reports};
}

test('a SessionBeforeCompact cancel comes after the cut is chosen and before anything is summarised: nothing is asked, sent or changed', async () => {
	const asked: string[] = [];
	const h = await harness({
		compact_plan: () => {
			asked.push('compact_plan');
			return {cut: 4};
		},
		before_compact: data => {
			asked.push('before_compact');
			return {...data, prompt: 'Summarise.'};
		},
	});
	const {events, seen} = extensionEvents(() => ({cancel: true, reason: 'not during the review'}));
	h.io.events = events;
	const file = h.file();
	await assert.rejects(compactHistory(h.io, {fits: false, estimate: 9000, limit: 6400, window: 8000}), (error: Error) => {
		assert.ok(error instanceof CompactionCancelledError);
		assert.equal(error.message, 'extension guard cancelled the compaction (not during the review)');
		return true;
	});
	assert.deepEqual(asked, ['compact_plan']);
	assert.equal(h.requests.length, 0);
	assert.equal(h.file(), file);
	assert.equal(h.events.length, 0);
	await events.drained();
	assert.deepEqual(
		seen.map(([tag]) => tag),
		['SessionBeforeCompact'],
	);
	const payload = seen[0]![1];
	assert.deepEqual({...payload, messages: payload.messages.length}, {reason: 'budget', sessionId: h.session.id, cut: 4, messages: 3, keptMessages: 5, budget: {estimate: 9000, limit: 6400, window: 8000}});
	assert.deepEqual(payload.messages[0], history()[1]);
	await h.session.close();
});

test('a SessionBeforeCompact gate that throws, or says {cancel: false}, lets the compaction go on; SessionCompact hears the commit', async () => {
	const gates: Array<[EventHandler, string[]]> = [
		[
			() => {
				throw new Error('gate bug');
			},
			['extension guard: SessionBeforeCompact handler failed: gate bug; it proceeds'],
		],
		[() => ({cancel: false}), []],
	];
	for (const [gate, reported] of gates) {
		const h = await harness({...plan(4), before_compact: data => ({...data, summary: 'they asked twice'})});
		const {events, seen, reports} = extensionEvents(gate);
		h.io.events = events;
		h.io.reason = 'manual';
		await compactHistory(h.io, {fits: false, requested: true});
		assert.equal(h.session.messages.length, 7);
		await events.drained();
		assert.deepEqual(
			seen.map(([tag]) => tag),
			['SessionBeforeCompact', 'SessionCompact'],
		);
		const compaction = h.events[0] as Extract<CoreEvent, {type: 'compaction'}>;
		assert.deepEqual(seen[1]![1], {reason: 'manual', sessionId: h.session.id, cut: 4, summary: 'they asked twice', beforeBytes: compaction.before_bytes, afterBytes: compaction.after_bytes, messageCount: 7});
		assert.equal(seen[0]![1].budget, null);
		assert.deepEqual(reports, reported);
		await h.session.close();
	}
});
