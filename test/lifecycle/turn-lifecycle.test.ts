// The order of each moment of a turn (docs/dev/lifecycle.md): which of the
// extension handlers and the worker hooks runs first, what each is given,
// and what a failure or a veto means. A reordering in turn-lifecycle.ts
// fails here.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {TurnLifecycle, type OutgoingRequest} from '../../source/core/lifecycle/turn-lifecycle.js';
import {observeCoreEvents} from '../../source/core/lifecycle/observe-core-events.js';
import type {Message} from '../../source/core/messages.js';
import type {CoreEvent} from '../../source/core/events.js';
import type {ModelReply} from '../../source/core/providers/types.js';
import {recorder, type Recorder} from './recorder.js';

function lifecycle(record: Recorder, options: {signal?: AbortSignal; systemPrompt?: (prompt: string) => string} = {}): TurnLifecycle {
	const {systemPrompt} = options;
	return new TurnLifecycle({
		hooks: record.hooks,
		events: record.events,
		emit: observeCoreEvents(record.events, record.emit),
		signal: options.signal ?? new AbortController().signal,
		...(systemPrompt
			? {
					beforeAgentStart: async event => {
						record.log.push('registerBeforeAgentStart');
						return systemPrompt(event.systemPrompt);
					},
				}
			: {}),
	});
}

/** A hook or a handler that fails with `message`. */
const fails = (message: string) => (): never => {
	throw new Error(message);
};

const caller = (record: Recorder) => ({
	protocol: 'openai',
	model: 'm',
	prepare(messages: Message[]) {
		record.log.push('prepare');
		return {url: 'https://api.example/v1/chat/completions', body: {messages}};
	},
});

test('input: the Input transforms, then the user_input hooks, which see what the extensions made', async () => {
	const record = recorder({user_input: data => ({content: `${data.content as string} [worker]`})}, [['Input', event => ({text: `${(event as {text: string}).text} [extension]`})]]);
	assert.equal(await lifecycle(record).input('hello'), 'hello [extension] [worker]');
	assert.deepEqual(record.log, ['ext:Input', 'hook:user_input']);
	// With @-mentions attached, Input sees and replaces the typed text only.
	const mentioned = recorder({}, [['Input', () => ({text: 'typed'})]]);
	const parts = await lifecycle(mentioned).input([
		{type: 'text', text: 'look at @a'},
		{type: 'text', text: '<file a>'},
	]);
	assert.deepEqual(parts, [
		{type: 'text', text: 'typed'},
		{type: 'text', text: '<file a>'},
	]);
});

test('the first step: before_turn gets the history and the step, and what it appends is returned', async () => {
	const appended: Message = {role: 'user', content: 'reference'};
	const record = recorder({before_turn: data => ({messages: [...(data.messages as Message[]), appended]})}, []);
	const history: Message[] = [{role: 'system', content: 's'}];
	const step: Message[] = [{role: 'user', content: 'hi'}];
	assert.deepEqual(await lifecycle(record).beforeTurn(history, step), [appended]);
	assert.deepEqual(record.given.get('hook:before_turn'), [{messages: [...history, ...step]}]);
	assert.deepEqual(await lifecycle(recorder({}, [])).beforeTurn(history, step), []);
});

test("the run's system prompt: the registerBeforeAgentStart transforms, then the BeforeAgentStart observers hear what is sent", async () => {
	const record = recorder({}, ['BeforeAgentStart']);
	const session = {id: 's1', messages: [{role: 'system', content: 'saved'}] as Message[]};
	const sent = await lifecycle(record, {systemPrompt: prompt => `${prompt} + run`}).systemPrompt('hi', 'hi', session);
	assert.equal(sent, 'saved + run');
	assert.deepEqual(record.log, ['registerBeforeAgentStart', 'ext:BeforeAgentStart']);
	assert.deepEqual(record.given.get('ext:BeforeAgentStart'), [{prompt: 'hi', imageCount: 0, sessionId: 's1', host: 'i', systemPrompt: 'saved + run'}]);
	// Unchanged, the session's own prompt is sent: undefined.
	assert.equal(await lifecycle(recorder({}, ['BeforeAgentStart'])).systemPrompt('hi', 'hi', session), undefined);
});

test('the agent and each step start: AgentStart; TurnStart, then MessageStart', async () => {
	const record = recorder({}, ['AgentStart', 'TurnStart', 'MessageStart']);
	const turn = lifecycle(record);
	turn.agentStart('hi', 's1');
	turn.stepStart(1, 's1');
	assert.deepEqual(record.log, ['ext:AgentStart', 'ext:TurnStart', 'ext:MessageStart']);
	assert.deepEqual(record.given.get('ext:MessageStart'), [{step: 1, role: 'assistant'}]);
});

test('before the request: Context, the wire request built from what it left, BeforeProviderRequest, then before_request, which sees the extension body', async () => {
	const record = recorder({before_request: data => ({...data, request_meta: {kept: true}})}, [
		['Context', event => ({messages: [...(event as {messages: Message[]}).messages, {role: 'user', content: 'context'}]})],
		['BeforeProviderRequest', event => ({body: {...(event as {body: object}).body, mark: 1}})],
	]);
	const messages: Message[] = [{role: 'user', content: 'hi'}];
	const outgoing = await lifecycle(record).beforeRequest(messages, {caller: caller(record), tools: [], budget: {window: 8}, signal: new AbortController().signal});
	assert.deepEqual(record.log, ['ext:Context', 'prepare', 'ext:BeforeProviderRequest', 'hook:before_request']);
	const [hookData] = record.given.get('hook:before_request') as Array<{body: {mark: number; messages: Message[]}; budget: unknown}>;
	assert.equal(hookData!.body.mark, 1);
	assert.equal(hookData!.body.messages.length, 2);
	assert.deepEqual(hookData!.budget, {window: 8});
	// The reply must follow what the history carried before Context, which changes this request alone.
	assert.equal(outgoing.messages, messages);
	assert.deepEqual(outgoing.requestMeta, {kept: true});
});

test('during the request: BeforeProviderHeaders, before a retry the retry event then request_retry, the deltas a head sees with their MessageUpdate', async () => {
	const record = recorder({request_retry: null}, [['BeforeProviderHeaders', event => ({headers: {...(event as {headers: object}).headers, 'x-extension': '1'}})], 'MessageUpdate']);
	const outgoing: OutgoingRequest = {messages: [], request: {url: 'https://api.example/v1', body: {}}, caller: {protocol: 'openai', model: 'm'}, requestMeta: {kept: true}};
	const io = lifecycle(record).sending(outgoing, event => event.type === 'text_delta');
	assert.deepEqual(await io.transformHeaders!({url: 'https://api.example/v1', headers: {accept: 'x'}}), {accept: 'x', 'x-extension': '1'});
	await io.onRetry({attempt: 1, delayMs: 5, reason: 'overloaded', status: 529});
	io.emit({type: 'text_delta', text: 'a'});
	io.emit({type: 'thinking_delta', text: 'not shown'});
	assert.deepEqual(record.log, ['ext:BeforeProviderHeaders', 'emit:retry', 'hook:request_retry', 'emit:text_delta', 'ext:MessageUpdate']);
	assert.deepEqual(record.given.get('hook:request_retry'), [{request_meta: {kept: true}, attempt: 1, delay_ms: 5, reason: 'overloaded', status: 529}]);
});

test('a failing request_retry hook is a warning: the request goes on', async () => {
	const record = recorder({request_retry: fails('retry hook broke')}, []);
	const outgoing: OutgoingRequest = {messages: [], request: {url: 'https://api.example/v1', body: {}}, caller: {protocol: 'openai', model: 'm'}, requestMeta: null};
	await lifecycle(record)
		.sending(outgoing, () => true)
		.onRetry({attempt: 1, delayMs: 0, reason: 'x'});
	assert.deepEqual(record.log, ['emit:retry', 'hook:request_retry', 'emit:warning']);
});

const reply = (content: string): ModelReply => ({message: {role: 'assistant', content}, finishReason: 'stop', rawFinishReason: 'stop', usage: {input: 3, output: 1, cacheRead: 0, cacheWrite: 0, raw: {}}});
const outgoing = (): OutgoingRequest => ({messages: [{role: 'user', content: 'hi'}], request: {url: 'https://api.example/v1', body: {}}, caller: {protocol: 'openai', model: 'm'}, requestMeta: null});

test('after the response: after_response (nearest the wire), the usage, AfterProviderResponse, then MessageEnd, which sees the worker-side message', async () => {
	const record = recorder({after_response: data => ({...data, response: {...(data.response as object), message: {role: 'assistant', content: 'converted'}}})}, [
		'AfterProviderResponse',
		['MessageEnd', event => ({content: `${(event as {message: {content: string}}).message.content} [extension]`})],
	]);
	const answered = await lifecycle(record).afterResponse(reply('wire'), outgoing(), {spent: () => record.log.push('usage')});
	assert.equal(answered.message.content, 'converted [extension]');
	assert.deepEqual(record.log, ['hook:after_response', 'usage', 'ext:AfterProviderResponse', 'ext:MessageEnd', 'emit:message_end']);
	assert.deepEqual(record.given.get('ext:AfterProviderResponse'), [{model: 'm', finishReason: 'stop', usage: {input: 3, output: 1, cacheRead: 0, cacheWrite: 0, raw: {}}}]);
});

test("after a summary's response only after_response runs: its text is not the answer", async () => {
	const record = recorder({after_response: null}, ['AfterProviderResponse', ['MessageEnd', () => ({content: 'changed'})]]);
	const answered = await lifecycle(record).afterResponse(reply('summary'), outgoing(), null);
	assert.equal(answered.message.content, 'summary');
	assert.deepEqual(record.log, ['hook:after_response']);
});

const call = {id: 'c1', type: 'function' as const, function: {name: 'read', arguments: '{}'}};
const allow = async () => ({decision: 'allow' as const, by: 'auto' as const, reason: null});

test('the tool call: before_tool may replace it; then the ToolCall gates, then approval, told unless nobody was asked', async () => {
	const record = recorder({before_tool: data => ({...data, arguments: '{"x":1}'})}, [['ToolCall', () => ({block: false})]]);
	const turn = lifecycle(record);
	const replaced = await turn.beforeTool(call);
	assert.equal(replaced.function.arguments, '{"x":1}');
	const refused = await turn.gateToolCall({id: 'c1', name: 'read', arguments: {x: 1}, title: 'Read', owner: 'native'}, async () => {
		record.log.push('approval gate');
		return {decision: 'allow', by: 'user', reason: null};
	});
	assert.equal(refused, null);
	assert.deepEqual(record.log, ['hook:before_tool', 'ext:ToolCall', 'approval gate', 'emit:approval']);
	assert.equal(await turn.gateToolCall({id: 'c1', name: 'read', arguments: {}, title: 'Read', owner: 'native'}, allow), null);
	assert.equal(record.log.filter(entry => entry === 'emit:approval').length, 1, 'an automatic allow is not told');
});

test("a ToolCall block ends the call before anyone is asked; a denial says the approval's reason", async () => {
	const record = recorder({}, [['ToolCall', () => ({block: true, reason: 'not here'})]]);
	const refused = await lifecycle(record).gateToolCall({id: 'c1', name: 'read', arguments: {}, title: 'Read', owner: 'native'}, async () => assert.fail('approval is never asked after a block'));
	assert.equal(refused, 'The call was not run: extension x blocked it. Reason: not here');
	const denied = await lifecycle(recorder({}, [])).gateToolCall({id: 'c1', name: 'read', arguments: {}, title: 'Read', owner: 'native'}, async () => ({decision: 'deny', by: 'policy', reason: 'no'}));
	assert.equal(denied, 'The call was not run: approval was denied. Reason: no');
	// A failing ToolCall handler blocks (fail closed).
	const failing = recorder({}, [['ToolCall', fails('broke')]]);
	assert.match((await lifecycle(failing).gateToolCall({id: 'c1', name: 'read', arguments: {}, title: 'Read', owner: 'native'}, allow))!, /blocked it\. Reason: the ToolCall check of extension x failed/);
});

test('the tool runs and ends: tool_started, tool_update and tool_result, each followed by its ToolExecution observer', async () => {
	const record = recorder({}, ['ToolExecutionStart', 'ToolExecutionUpdate', 'ToolExecutionEnd']);
	const turn = lifecycle(record);
	turn.toolStarted('c1', 'read');
	turn.toolUpdate('c1', 'read', 'half');
	turn.toolEnded({id: 'c1', name: 'read', output: 'done', is_error: false, images: 0});
	assert.deepEqual(record.log, ['emit:tool_started', 'ext:ToolExecutionStart', 'emit:tool_update', 'ext:ToolExecutionUpdate', 'emit:tool_result', 'ext:ToolExecutionEnd']);
	assert.deepEqual(record.given.get('ext:ToolExecutionEnd'), [{id: 'c1', name: 'read', output: 'done', isError: false}]);
});

test("the tool's result: the ToolResult transforms, then after_tool, which sees what the extensions made", async () => {
	const record = recorder({after_tool: data => ({...data, output: `${data.output as string} [worker]`})}, [['ToolResult', event => ({output: `${(event as {output: string}).output} [extension]`})]]);
	const result = await lifecycle(record).toolResult({id: 'c1', name: 'read'}, {output: 'text', images: [], isError: false});
	assert.deepEqual(result, {output: 'text [extension] [worker]', images: [], isError: false});
	assert.deepEqual(record.log, ['ext:ToolResult', 'hook:after_tool']);
	assert.deepEqual(record.given.get('hook:after_tool'), [{id: 'c1', name: 'read', output: 'text [extension]', images: [], is_error: false}]);
});

function savingSession(record: Recorder) {
	const messages: Message[] = [{role: 'system', content: 's'}];
	return {
		messages,
		path: '/s.jsonl',
		async appendStep(step: Message[]) {
			record.log.push('checkpoint');
			messages.push(...step);
		},
	};
}

test('save: before_save, the checkpoint, after_save; then TurnEnd', async () => {
	const record = recorder({before_save: null, after_save: null}, ['TurnEnd']);
	const session = savingSession(record);
	const turn = lifecycle(record);
	await turn.save(session, [{role: 'user', content: 'hi'}]);
	turn.stepEnd(1, 0, 's1');
	assert.deepEqual(record.log, ['hook:before_save', 'checkpoint', 'hook:after_save', 'ext:TurnEnd']);
	assert.deepEqual(record.given.get('hook:before_save'), [
		{
			messages: [
				{role: 'system', content: 's'},
				{role: 'user', content: 'hi'},
			],
			step: [{role: 'user', content: 'hi'}],
			path: '/s.jsonl',
		},
	]);
});

test('a failing before_save vetoes the checkpoint; a failing after_save is a warning', async () => {
	const vetoing = recorder({before_save: fails('read-only')}, []);
	await assert.rejects(lifecycle(vetoing).save(savingSession(vetoing), []), /read-only/);
	assert.deepEqual(vetoing.log, ['hook:before_save']);
	const warning = recorder({after_save: fails('late')}, []);
	await lifecycle(warning).save(savingSession(warning), []);
	assert.deepEqual(warning.log, ['checkpoint', 'hook:after_save', 'emit:warning']);
});

test('finish: the error, the finish hooks, done, AgentEnd, AgentSettled; an interrupted turn skips finish', async () => {
	const record = recorder({finish: null}, ['AgentEnd', 'AgentSettled']);
	await lifecycle(record).finish({id: 's1', messages: []}, {reason: 'error', steps: 2, error: {message: 'boom', kind: 'turn'}});
	assert.deepEqual(record.log, ['emit:error', 'hook:finish', 'emit:done', 'ext:AgentEnd', 'ext:AgentSettled']);
	assert.deepEqual(record.given.get('ext:AgentEnd'), [{reason: 'error', steps: 2, sessionId: 's1', error: 'boom'}]);
	const controller = new AbortController();
	controller.abort();
	const interrupted = recorder({finish: null}, ['AgentEnd', 'AgentSettled']);
	await lifecycle(interrupted, {signal: controller.signal}).finish({id: 's1', messages: []}, {reason: 'interrupted', steps: 1});
	assert.deepEqual(interrupted.log, ['emit:done', 'ext:AgentEnd', 'ext:AgentSettled']);
});

test('compaction: compact_plan, SessionBeforeCompact with the budget figures, before_compact, after_compact, before_compact_commit, then the compaction event and SessionCompact', async () => {
	const record = recorder({compact_plan: null, before_compact: null, after_compact: null, before_compact_commit: null}, [['SessionBeforeCompact', () => ({cancel: false})], 'SessionCompact']);
	const turn = lifecycle(record);
	await turn.compactPlan({budget: {}, history: [], model: 'm', protocol: 'openai'});
	const budget = {fits: false, estimate: 9, limit: 8};
	assert.equal(await turn.compactGate({reason: 'budget', sessionId: 's1', cut: 2, messages: [], keptMessages: 3, budget}), null);
	assert.deepEqual(record.given.get('ext:SessionBeforeCompact'), [{reason: 'budget', sessionId: 's1', cut: 2, messages: [], keptMessages: 3, budget: {estimate: 9, limit: 8, window: null}}]);
	await turn.beforeCompact({messages: [], cut: 2, state: null, model: 'm', protocol: 'openai', budget: null});
	await turn.afterCompact({summary: 'x', state: null});
	const checked: string[] = [];
	await turn.beforeCompactCommit({messages: [], cut: 2, state: null}, (_data, hook) => checked.push(hook));
	turn.compacted({reason: 'budget', sessionId: 's1', cut: 2, summary: 'x', beforeBytes: 10, afterBytes: 5, messageCount: 4});
	assert.deepEqual(record.log, ['hook:compact_plan', 'ext:SessionBeforeCompact', 'hook:before_compact', 'hook:after_compact', 'hook:before_compact_commit', 'emit:compaction', 'ext:SessionCompact']);
	assert.deepEqual(checked, ['before_compact_commit hook of the test'], 'each commit answer is checked as it comes');
});

test('a SessionBeforeCompact cancel names the extension; a failing handler lets the compaction proceed', async () => {
	const cancelling = recorder({}, [['SessionBeforeCompact', () => ({cancel: true, reason: 'keep it all'})]]);
	const plan = {reason: 'manual', sessionId: 's1', cut: 2, messages: [], keptMessages: 3, budget: {}};
	assert.deepEqual(await lifecycle(cancelling).compactGate(plan), {extension: 'x', reason: 'keep it all'});
	const failing = recorder({}, [['SessionBeforeCompact', fails('broke')]]);
	assert.equal(await lifecycle(failing).compactGate(plan), null);
});

test('every hook gets the turn signal, so an interrupt stops the one running', async () => {
	const controller = new AbortController();
	const signals: Array<AbortSignal | undefined> = [];
	const turn = new TurnLifecycle({
		hooks: {
			has: () => true,
			async run(_event, data, options) {
				signals.push(options?.signal);
				return data;
			},
			warnings: () => [],
		},
		events: null,
		emit: () => {},
		signal: controller.signal,
	});
	await turn.input('hi');
	await turn.budget({});
	await turn.save(savingSession(recorder({}, [])), []);
	assert.equal(signals.length, 4);
	assert.ok(signals.every(signal => signal === controller.signal));
});

test("a hook's warnings reach the head as warning events, and the turn goes on", async () => {
	const emitted: CoreEvent[] = [];
	const turn = new TurnLifecycle({
		hooks: {
			has: () => true,
			async run(event, data, options) {
				options?.warn?.(`the skills module: a warning from ${event}`);
				return data;
			},
			warnings: () => [],
		},
		events: null,
		emit: event => emitted.push(event),
	});
	assert.deepEqual(await turn.beforeTurn([], [{role: 'user', content: 'hi'}]), []);
	assert.deepEqual(emitted, [{type: 'warning', message: 'the skills module: a warning from before_turn'}]);
});

test('docs/dev/lifecycle.md names every moment of the lifecycle', () => {
	const table = readFileSync(new URL('../../../docs/dev/lifecycle.md', import.meta.url), 'utf8');
	const moments = Object.getOwnPropertyNames(TurnLifecycle.prototype).filter(name => name !== 'constructor');
	assert.ok(moments.length > 20, 'the scan found the moments');
	assert.deepEqual(
		moments.filter(name => !table.includes(`\`${name}()\``) && !table.includes(`\`${name}\``)),
		[],
	);
});
