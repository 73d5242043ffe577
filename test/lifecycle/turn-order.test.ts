// A whole turn, and a /compact, through the loop (run-turn.ts,
// run-tool-call.ts, compact-history.ts) with every worker hook of a turn and
// every extension tag of a turn listening: the one log of both systems is the
// table of docs/dev/lifecycle.md, moment by moment. A moment moved in the loop
// or in the lifecycle fails here.
import {test, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, realpathSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {compactNow, runTurn, type TurnContext} from '../../source/core/agent/run-turn.js';
import {createApprovalGate} from '../../source/core/agent/approval-gate.js';
import {observeCoreEvents} from '../../source/core/lifecycle/observe-core-events.js';
import {openSession} from '../../source/core/session/session-store.js';
import type {ModelCaller} from '../../source/core/providers/model-caller.js';
import type {Message} from '../../source/core/messages.js';
import type {ModelReply} from '../../source/core/providers/types.js';
import type {Tool} from '../../source/core/tools/types.js';
import {recorder, type Recorder} from './recorder.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-lifecycle-')));
after(() => rmSync(root, {recursive: true, force: true}));

const usage = {input: 5, output: 2, cacheRead: 0, cacheWrite: 0, raw: {}};

/** The model: its first request is retried once; each streams a delta; `replies` answer in turn. */
function model(record: Recorder, replies: Array<ModelReply['message']>): ModelCaller {
	let sent = 0;
	return {
		protocol: 'openai',
		model: 'm',
		prepare(messages) {
			record.log.push('prepare');
			return {url: 'https://api.example/v1/chat/completions', body: {messages}};
		},
		async send(request, io) {
			await io.transformHeaders?.({url: request.url, headers: {accept: 'text/event-stream'}});
			if (sent === 0) await io.onRetry({attempt: 1, delayMs: 0, reason: 'overloaded', status: 529});
			io.emit({type: 'text_delta', text: 'streamed'});
			const message = replies[sent++]!;
			return {message, finishReason: message.tool_calls ? 'tool_calls' : 'stop', rawFinishReason: null, usage};
		},
	};
}

const probe: Tool = {
	name: 'probe',
	description: 'probe',
	parameters: {type: 'object'},
	async plan(_args, context) {
		return {
			ask: {title: 'Probe', detail: 'probe it'},
			async run() {
				context.onUpdate?.('half way');
				return {output: 'probed'};
			},
		};
	},
};

const turnHooks = {
	user_input: null,
	before_turn: null,
	context_budget: (data: Record<string, unknown>) => ({...data, fits: true, estimate: 10, limit: 100}),
	before_request: null,
	request_retry: null,
	after_response: null,
	before_tool: null,
	tool_approval: null,
	after_tool: null,
	before_save: null,
	after_save: null,
	finish: null,
};

const turnHandlers = [
	'Input',
	'BeforeAgentStart',
	'AgentStart',
	'TurnStart',
	'MessageStart',
	'Context',
	'BeforeProviderRequest',
	'BeforeProviderHeaders',
	'MessageUpdate',
	'AfterProviderResponse',
	'MessageEnd',
	'ToolCall',
	'ToolExecutionStart',
	'ToolExecutionUpdate',
	'ToolExecutionEnd',
	'ToolResult',
	'TurnEnd',
	'AgentEnd',
	'AgentSettled',
	'SessionBeforeCompact',
	'SessionCompact',
] as const;

async function context(record: Recorder, replies: Array<ModelReply['message']>, history: Message[] = []): Promise<TurnContext> {
	const session = await openSession({path: join(root, `${Math.random().toString(36).slice(2)}.jsonl`), workspace: root});
	if (history.length > 0) await session.appendStep(history);
	return {
		caller: model(record, replies),
		tools: [probe],
		session,
		gate: createApprovalGate({
			mode: {current: 'default'},
			policy: async (data, signal) => record.hooks.run('tool_approval', data, {signal}),
			askPerson: async () => {
				record.log.push('ask the person');
				return {decision: 'allow', by: 'user', reason: null};
			},
		}),
		hooks: record.hooks,
		emit: observeCoreEvents(record.events, record.emit),
		workspace: root,
		systemPrompt: 'You are i.',
		maxSteps: 4,
		signal: new AbortController().signal,
		extensionEvents: record.events,
		beforeAgentStart: async event => {
			record.log.push('registerBeforeAgentStart');
			return event.systemPrompt;
		},
	};
}

/** One model request of the turn's answer, from its step's start to its end. */
const request = (retried: boolean) => [
	'ext:TurnStart',
	'ext:MessageStart',
	'hook:context_budget',
	'emit:budget',
	'ext:Context',
	'prepare',
	'ext:BeforeProviderRequest',
	'hook:before_request',
	'ext:BeforeProviderHeaders',
	...(retried ? ['emit:retry', 'hook:request_retry'] : []),
	'emit:text_delta',
	'ext:MessageUpdate',
	'hook:after_response',
	'emit:usage',
	'ext:AfterProviderResponse',
	'ext:MessageEnd',
	'emit:message_end',
];

test('a turn with one tool call: every moment in the documented order, extension handlers and worker hooks in one log', async () => {
	const record = recorder(turnHooks, turnHandlers);
	const toolCall = {role: 'assistant' as const, content: null, tool_calls: [{id: 'c1', type: 'function' as const, function: {name: 'probe', arguments: '{}'}}]};
	const turn = await context(record, [toolCall, {role: 'assistant', content: 'probed.'}]);
	const outcome = await runTurn('probe it', turn);
	await turn.session.close();
	assert.deepEqual(outcome, {reason: 'stop', steps: 2});
	assert.deepEqual(record.log, [
		// Input, the first step saved, the run's system prompt, the agent's start.
		'ext:Input',
		'hook:user_input',
		'hook:before_turn',
		'hook:before_save',
		'hook:after_save',
		'registerBeforeAgentStart',
		'ext:BeforeAgentStart',
		'ext:AgentStart',
		...request(true),
		// The batch: its calls told, the tool results' share of the budget, then each call.
		'emit:tool_call',
		'hook:context_budget',
		'hook:before_tool',
		'ext:ToolCall',
		'hook:tool_approval',
		'ask the person',
		'emit:approval',
		'emit:tool_started',
		'ext:ToolExecutionStart',
		'emit:tool_update',
		'ext:ToolExecutionUpdate',
		'ext:ToolResult',
		'hook:after_tool',
		'emit:tool_result',
		'ext:ToolExecutionEnd',
		'hook:before_save',
		'hook:after_save',
		'ext:TurnEnd',
		...request(false),
		'hook:before_save',
		'hook:after_save',
		'ext:TurnEnd',
		// Finish.
		'hook:finish',
		'emit:done',
		'ext:AgentEnd',
		'ext:AgentSettled',
	]);
	await record.events.drained();
	assert.deepEqual(record.reports, []);
});

const long = (label: string) => `${label}: ${'lorem ipsum dolor sit amet '.repeat(40)}`;

test('/compact: the compaction steps in order, its summary request through the same request moments but the answer ones', async () => {
	const record = recorder(
		{
			...turnHooks,
			compact_plan: () => ({cut: 3, state: null}),
			before_compact: () => ({prompt: 'Summarise.'}),
			after_compact: null,
			before_compact_commit: null,
		},
		turnHandlers,
	);
	const history: Message[] = [
		{role: 'system', content: 'You are i.'},
		{role: 'user', content: long('first question')},
		{role: 'assistant', content: long('first answer')},
		{role: 'user', content: 'the latest request'},
	];
	const compaction = await context(record, [{role: 'assistant', content: 'short'}], history);
	assert.equal(await compactNow(compaction), 'compacted');
	await compaction.session.close();
	assert.deepEqual(record.log, [
		'hook:compact_plan',
		'ext:SessionBeforeCompact',
		'hook:before_compact',
		// The summary request must fit, then goes out; its text is not shown, so no MessageUpdate, and it is not the answer.
		'hook:context_budget',
		'ext:Context',
		'prepare',
		'ext:BeforeProviderRequest',
		'hook:before_request',
		'ext:BeforeProviderHeaders',
		'emit:retry',
		'hook:request_retry',
		'hook:after_response',
		'hook:after_compact',
		'hook:before_compact_commit',
		'hook:context_budget',
		'emit:compaction',
		'ext:SessionCompact',
	]);
});
