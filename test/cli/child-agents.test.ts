// Child agents end to end through the built CLI against the mock provider
// (spec/extensions.md §3): delegate_task in `-p --json`, and a real
// extension driving api.runtime.childAgent — start, poll, cancel, dispose,
// ownership, the invocation binding, every limit and one past it, 16 + 1,
// and the cuts at 8192 deltas and at 4 MiB.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {jsonEvents, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** An extension whose `kids` tool runs one scenario of childAgent calls and answers what happened, as JSON. */
const kidsExtension = `
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
let savedCtx;
const codeOf = async work => {
	try {
		await work();
		return 'ok';
	} catch (error) {
		return error.code + ': ' + error.message;
	}
};

export default function register(api) {
	const child = request => api.runtime.childAgent(request);
	const until = async childId => {
		const deltas = [];
		for (;;) {
			const poll = await child({op: 'poll', childId});
			deltas.push(...poll.deltas);
			if (poll.status !== 'running') return {...poll, deltas};
			await sleep(5);
		}
	};
	const startAndWait = async (request, ctx) => {
		const started = await api.runtime.childAgent({op: 'start', ...request}, ctx);
		const ended = await until(started.childId);
		await child({op: 'dispose', childId: started.childId});
		return {started, ended};
	};
	const summary = ended => ({
		status: ended.status,
		truncated: ended.truncated,
		textDeltas: ended.deltas.filter(delta => delta.type === 'text').length,
		deltaBytes: ended.deltas.filter(delta => delta.type === 'text').reduce((sum, delta) => sum + Buffer.byteLength(delta.text), 0),
		markers: ended.deltas.filter(delta => delta.type === 'truncated').map(delta => delta.text),
		reportBytes: Buffer.byteLength(ended.result.text),
		reportTruncated: ended.result.truncated,
	});

	const scenarios = {
		async lifecycle(ctx) {
			savedCtx = ctx;
			const started = await api.runtime.childAgent({op: 'start', task: 'Say hello.', role: 'greeter'}, ctx);
			const ended = await until(started.childId);
			const disposed = await child({op: 'dispose', childId: started.childId});
			const afterDispose = await codeOf(() => child({op: 'poll', childId: started.childId}));
			// One left for the other extension to look for, cancelled before its first request.
			const kept = await api.runtime.childAgent({op: 'start', task: 'Wait.'}, ctx);
			const cancelled = await child({op: 'cancel', childId: kept.childId});
			const again = await child({op: 'cancel', childId: kept.childId});
			globalThis.keptChild = kept.childId;
			return {started, text: ended.deltas.map(delta => delta.text).join(''), status: ended.status, result: ended.result, disposed, afterDispose, cancelled: cancelled.childId === kept.childId, again: again.childId === kept.childId};
		},
		async later(ctx) {
			const kept = globalThis.keptChild;
			const ended = await until(kept);
			return {
				// The first call's ctx: that invocation ended.
				stale: await codeOf(() => api.runtime.childAgent({op: 'start', task: 'Too late.'}, savedCtx)),
				noCtx: await codeOf(() => api.runtime.childAgent({op: 'start', task: 'No ctx.'})),
				forged: await codeOf(() => api.runtime.childAgent({op: 'start', task: 'A copy.'}, {...ctx})),
				// poll, cancel and dispose need no ctx: the kept child of the first call is still there.
				kept: {status: ended.status, error: ended.error},
				dispose: await codeOf(() => child({op: 'dispose', childId: kept})),
				gone: await codeOf(() => child({op: 'poll', childId: kept})),
			};
		},
		async limits(ctx) {
			const atLimits = await startAndWait({task: 'x'.repeat(20000), maxTurns: 32, timeoutSeconds: 1800, tools: ['read']}, ctx);
			const atLower = await startAndWait({task: 'é'.repeat(10000), maxTurns: 1, timeoutSeconds: 10, tools: [], role: 'r'.repeat(64)}, ctx);
			const refusals = {};
			const cases = {
				taskBytes: {task: 'x'.repeat(20001)},
				taskMultiByte: {task: 'é'.repeat(10000) + 'x'},
				taskEmpty: {task: ' '},
				taskMissing: {},
				maxTurnsLow: {task: 't', maxTurns: 0},
				maxTurnsHigh: {task: 't', maxTurns: 33},
				maxTurnsFraction: {task: 't', maxTurns: 1.5},
				timeoutLow: {task: 't', timeoutSeconds: 9},
				timeoutHigh: {task: 't', timeoutSeconds: 1801},
				roleLong: {task: 't', role: 'r'.repeat(65)},
				toolUnknown: {task: 't', tools: ['nope']},
				toolDelegate: {task: 't', tools: ['delegate_task']},
				unknownField: {task: 't', model: 'other'},
			};
			for (const [name, request] of Object.entries(cases)) refusals[name] = await codeOf(() => api.runtime.childAgent({op: 'start', ...request}, ctx));
			refusals.badOp = await codeOf(() => child({op: 'destroy', childId: 'x'}));
			refusals.noOp = await codeOf(() => child({childId: 'x'}));
			refusals.notObject = await codeOf(() => child('start'));
			refusals.pollNoId = await codeOf(() => child({op: 'poll'}));
			refusals.pollUnknown = await codeOf(() => child({op: 'poll', childId: 'child-000000000000'}));
			return {atLimits: atLimits.ended.status, atLimitsText: atLimits.ended.result.text, atLower: atLower.ended.status, atLowerText: atLower.ended.result.text, sessionIds: atLimits.started.sessionId !== atLower.started.sessionId, refusals};
		},
		async crowd(ctx) {
			const ids = [];
			for (let index = 0; index < 16; index++) {
				const started = await api.runtime.childAgent({op: 'start', task: 'Task ' + index}, ctx);
				// Cancelled before its first request: it ends failed and keeps its slot until disposed.
				await child({op: 'cancel', childId: started.childId});
				ids.push(started.childId);
			}

			const ended = [];
			for (const id of ids) ended.push((await until(id)).status);
			const seventeenth = await codeOf(() => api.runtime.childAgent({op: 'start', task: 'One more'}, ctx));
			await child({op: 'dispose', childId: ids[0]});
			const afterOne = await api.runtime.childAgent({op: 'start', task: 'Now it fits'}, ctx);
			await child({op: 'cancel', childId: afterOne.childId});
			await until(afterOne.childId);
			for (const id of [...ids.slice(1), afterOne.childId]) await child({op: 'dispose', childId: id});
			return {ended, seventeenth, afterOne: afterOne.status};
		},
		async grandchild(ctx, params) {
			return {code: await codeOf(() => api.runtime.childAgent({op: 'start', task: 'A grandchild.'}, ctx)), sessionId: params.__i.sessionId};
		},
		async deltas(ctx) {
			return {at: summary((await startAndWait({task: 'at'}, ctx)).ended), past: summary((await startAndWait({task: 'past'}, ctx)).ended)};
		},
	};

	api.registerTool({
		name: 'kids',
		description: 'Runs a child agent scenario.',
		parameters: {type: 'object', properties: {scenario: {type: 'string'}}, required: ['scenario']},
		async execute(params, ctx) {
			return {output: JSON.stringify(await scenarios[params.scenario](ctx, params))};
		},
	});
}
`;

/** A second extension: it may not see the first's children. */
const otherExtension = `
export default function register(api) {
	api.registerTool({
		name: 'peek',
		description: 'Polls a child of another extension.',
		parameters: {type: 'object', properties: {}},
		async execute() {
			try {
				await api.runtime.childAgent({op: 'poll', childId: globalThis.keptChild});
				return {output: 'seen'};
			} catch (error) {
				return {output: error.code};
			}
		},
	});
}
`;

function sandbox(): {sandbox: Sandbox; env: NodeJS.ProcessEnv} {
	const box = makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm', max_retries: 0});
	const dir = join(box.root, 'extensions');
	mkdirSync(dir);
	writeFileSync(join(dir, 'kids.mjs'), kidsExtension);
	writeFileSync(join(dir, 'other.mjs'), otherExtension);
	return {sandbox: box, env: {...box.env, I_EXTENSIONS_DIR: dir}};
}

const call = (id: string, scenario: string) => ({id, name: 'kids', arguments: JSON.stringify({scenario})});

async function runScenario(scenario: string, childReplies: Array<Parameters<MockProvider['enqueue']>[0]>, timeoutMs = 60_000) {
	const {sandbox: box, env} = sandbox();
	mock.enqueue({toolCalls: [call('k1', scenario)]}, ...childReplies, {text: 'Done.'});
	const run = await runCli(['-p', 'go', '--json', '--yolo', '-C', box.workspace], {env, timeoutMs});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const result = events.find(event => event.type === 'tool_result' && event.id === 'k1')!;
	assert.equal(result.is_error, false, result.output);
	return {events, output: JSON.parse(result.output), run};
}

test('delegate_task in -p --json: the child’s report is the tool result, its session sits beside the parent’s, the parent’s transcript has none of it', async () => {
	const {sandbox: box, env} = sandbox();
	const before = mock.requests.length;
	mock.enqueue(
		{toolCalls: [{id: 'd1', name: 'delegate_task', arguments: JSON.stringify({task: 'Count the files here.', role: 'counter', tools: ['glob'], maxTurns: 3})}]},
		{toolCalls: [{id: 'g1', name: 'glob', arguments: JSON.stringify({pattern: '*'})}]},
		{text: 'There are no files.'},
		{text: 'The child found no files.'},
	);
	const run = await runCli(['-p', 'How many files?', '--json', '--yolo', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const result = events.find(event => event.type === 'tool_result' && event.id === 'd1')!;
	assert.deepEqual([result.output, result.is_error], ['There are no files.', false]);
	// The child's own tool call is not among the parent's events.
	assert.ok(!events.some(event => event.type === 'tool_call' && event.id === 'g1'));
	const progress = events.filter(event => event.type === 'child') as Array<Record<string, any>>;
	assert.ok(progress[0]);
	assert.equal(progress[0].role, 'counter');
	assert.equal(progress[0].activity, 'starting');
	assert.ok(
		progress.some(event => event.activity === 'running glob'),
		JSON.stringify(progress),
	);
	assert.deepEqual({...progress.at(-1), session: undefined}, {type: 'child', id: progress[0].id, role: 'counter', status: 'done', turns: 2, activity: 'finished', session: undefined});
	// The parent offered delegate_task; the child got glob alone, and the parent's system prompt first.
	const [parentRequest, childRequest] = [mock.requests[before]!.body, mock.requests[before + 1]!.body];
	assert.ok(parentRequest.tools.some((tool: any) => tool.function.name === 'delegate_task'));
	assert.deepEqual(
		childRequest.tools.map((tool: any) => tool.function.name),
		['glob'],
	);
	assert.ok(childRequest.messages[0].content.startsWith(parentRequest.messages[0].content));
	assert.deepEqual(childRequest.messages[1], {role: 'user', content: 'Count the files here.'});
	// Sessions: the child's beside the parent's; the parent's holds the tool result, never the child's messages.
	const session = events.find(event => event.type === 'session')!;
	const childFile = join(`${session.path.slice(0, -'.json'.length)}.children`, `${progress[0].id}.json`);
	assert.ok(existsSync(childFile), childFile);
	assert.equal(dirname(childFile), `${session.path.slice(0, -5)}.children`);
	const childSaved = readFileSync(childFile, 'utf8');
	assert.match(childSaved, /"call_id":"g1"|"tool_call_id":"g1"/);
	const parentSaved = readFileSync(session.path, 'utf8');
	assert.ok(!parentSaved.includes('"g1"'), 'the child’s tool call is not in the parent’s session');
	assert.ok(!parentSaved.includes('"content":"Count the files here."'), 'the child’s prompt is not a message of the parent’s');
});

test('delegate_task: turn-limited and failed are said plainly; without a terminal the child’s approvals are denied', async () => {
	const {sandbox: box, env} = sandbox();
	mock.enqueue(
		{toolCalls: [{id: 'd2', name: 'delegate_task', arguments: JSON.stringify({task: 'Write a file.', maxTurns: 1})}]},
		{text: 'Writing.', toolCalls: [{id: 'w1', name: 'write', arguments: JSON.stringify({files: [{path: 'a.txt', content: 'x\n'}]})}]},
		{text: 'It stopped.'},
	);
	// No --yolo: -p has no one to ask, so the child's write is denied, never allowed.
	const run = await runCli(['-p', 'Write it', '--json', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const result = jsonEvents(run.stdout).find(event => event.type === 'tool_result' && event.id === 'd2')!;
	assert.equal(result.output, 'The child agent ' + result.output.split(' ')[3] + ' stopped at its limit of 1 model requests (maxTurns) before it finished. Its last report:\nWriting.');
	assert.ok(!existsSync(join(box.workspace, 'a.txt')), 'the denied write wrote nothing');
	const session = jsonEvents(run.stdout).find(event => event.type === 'session')!;
	const childId = jsonEvents(run.stdout).find(event => event.type === 'child')!.id;
	assert.match(readFileSync(join(`${session.path.slice(0, -5)}.children`, `${childId}.json`), 'utf8'), /there is no terminal to ask on/);

	// A bad argument is the model's to fix; a provider failure is the child's failure.
	mock.enqueue(
		{
			toolCalls: [
				{id: 'd3', name: 'delegate_task', arguments: JSON.stringify({task: 'x', maxTurns: 33})},
				{id: 'd4', name: 'delegate_task', arguments: JSON.stringify({task: 'y'})},
			],
		},
		{status: 400, errorMessage: 'no such model'},
		{text: 'Both failed.'},
	);
	const failed = await runCli(['-p', 'Try', '--json', '--yolo', '-C', box.workspace], {env});
	const results = jsonEvents(failed.stdout).filter(event => event.type === 'tool_result') as [Record<string, any>, Record<string, any>];
	assert.equal(results.length, 2, failed.stderr);
	assert.equal(results[0].is_error, true);
	assert.match(results[0].output, /delegate_task: .*maxTurns/);
	assert.equal(results[1].is_error, true);
	assert.match(results[1].output, /^The child agent child-[0-9a-f]{12} failed: .*no such model/);
});

test('childAgent from an extension: start, poll to done, dispose; cancel is idempotent; another extension’s childId is not found; a start after the invocation ended is stale', async () => {
	const {sandbox: box, env} = sandbox();
	mock.enqueue({toolCalls: [call('k1', 'lifecycle')]}, {text: 'Hello from the child.'}, {toolCalls: [call('k2', 'later'), {id: 'p1', name: 'peek', arguments: '{}'}]}, {text: 'Done.'});
	const run = await runCli(['-p', 'go', '--json', '--yolo', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const results = new Map(
		jsonEvents(run.stdout)
			.filter(event => event.type === 'tool_result')
			.map(event => [event.id, event.output]),
	);
	const first = JSON.parse(results.get('k1')!);
	assert.equal(first.started.status, 'running');
	assert.match(first.started.childId, /^child-[0-9a-f]{12}$/);
	assert.match(first.started.sessionId, /^[0-9a-f-]{36}$/);
	assert.equal(first.text, 'Hello from the child.');
	assert.equal(first.status, 'done');
	assert.deepEqual(first.result, {status: 'done', text: 'Hello from the child.', turnLimited: false, truncated: false});
	assert.deepEqual(first.disposed, {childId: first.started.childId, disposed: true});
	assert.match(first.afterDispose, /^not_found: /);
	assert.ok(first.cancelled && first.again);
	const later = JSON.parse(results.get('k2')!);
	assert.match(later.stale, /^stale: childAgent: extension kids: start: the tool call k1 has ended; only poll, cancel and dispose still work/);
	assert.match(later.noCtx, /^invalid_argument: childAgent: extension kids: start needs the ctx of the tool call/);
	assert.match(later.forged, /^invalid_argument: /);
	assert.deepEqual(later.kept, {status: 'failed', error: 'it was cancelled'});
	assert.equal(later.dispose, 'ok');
	assert.match(later.gone, /^not_found: /);
	assert.equal(results.get('p1'), 'not_found');
});

test('a child’s own extension tool calls cannot start children, and see the parent’s session ID as theirs', async () => {
	const {sandbox: box, env} = sandbox();
	const before = mock.requests.length;
	mock.enqueue(
		{toolCalls: [{id: 'd5', name: 'delegate_task', arguments: JSON.stringify({task: 'Use kids.', tools: ['kids']})}]},
		{toolCalls: [call('k9', 'grandchild')]},
		{text: 'No grandchildren.'},
		{text: 'Done.'},
	);
	const run = await runCli(['-p', 'go', '--json', '--yolo', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	const session = jsonEvents(run.stdout).find(event => event.type === 'session')!;
	const tool = mock.requests[before + 2]!.body.messages.find((message: any) => message.role === 'tool' && message.tool_call_id === 'k9');
	const answer = JSON.parse(tool.content);
	assert.match(answer.code, /^invalid_argument: childAgent: extension kids: start: the tool call was made by child agent child-[0-9a-f]{12}; a child's tool calls cannot start children/);
	assert.equal(answer.sessionId, session.id);
});

test('childAgent limits: each at its limit starts, one past it is invalid_argument naming the field and the limit', async () => {
	const {output} = await runScenario('limits', [{text: 'upper'}, {text: 'lower'}]);
	assert.deepEqual([output.atLimits, output.atLimitsText, output.atLower, output.atLowerText, output.sessionIds], ['done', 'upper', 'done', 'lower', true]);
	const {refusals} = output;
	const expect: Record<string, RegExp> = {
		taskBytes: /field "task": at most 20000 bytes/,
		taskMultiByte: /field "task": at most 20000 bytes/,
		taskEmpty: /field "task": the task is empty/,
		taskMissing: /missing field "task"/,
		maxTurnsLow: /field "maxTurns": a whole number from 1 to 32/,
		maxTurnsHigh: /field "maxTurns": a whole number from 1 to 32/,
		maxTurnsFraction: /field "maxTurns": a whole number from 1 to 32/,
		timeoutLow: /field "timeoutSeconds": a whole number from 10 to 1800/,
		timeoutHigh: /field "timeoutSeconds": a whole number from 10 to 1800/,
		roleLong: /field "role": at most 64 characters/,
		toolUnknown: /field "tools": "nope" is not one of the parent's active tools/,
		toolDelegate: /field "tools": delegate_task is never given to a child/,
		unknownField: /unknown field "model"/,
		badOp: /field "op" is "destroy"; it is one of start, poll, cancel, dispose/,
		noOp: /field "op" is missing/,
		notObject: /the request is not an object/,
		pollNoId: /poll: missing field "childId"/,
	};
	for (const [name, pattern] of Object.entries(expect)) {
		assert.match(refusals[name], /^invalid_argument: childAgent: /, name);
		assert.match(refusals[name], pattern, name);
	}

	assert.match(refusals.pollUnknown, /^not_found: /);
});

test('16 + 1: a host keeps 16 child tasks, ended ones until disposed; the 17th start is limit_reached until one is disposed', async () => {
	const {output} = await runScenario('crowd', []);
	assert.deepEqual(
		output.ended,
		Array.from({length: 16}, () => 'failed'),
	);
	assert.match(output.seventeenth, /^limit_reached: childAgent: a host runs at most 16 child tasks at once/);
	assert.equal(output.afterOne, 'running');
});

test('deltas: 8192 pass whole, the 8193rd is cut with a marker; deltas and report share 4 MiB, one byte past cuts the report', {timeout: 120_000}, async () => {
	// The mock streams text in 32-character deltas: 8192 of them are 262144 characters.
	const deltaLimit = 8192 * 32;
	const first = await runScenario('deltas', [{text: 'a'.repeat(deltaLimit)}, {text: 'b'.repeat(deltaLimit + 1)}]);
	assert.deepEqual(first.output.at, {status: 'done', truncated: false, textDeltas: 8192, deltaBytes: deltaLimit, markers: [], reportBytes: deltaLimit, reportTruncated: false});
	assert.deepEqual(first.output.past, {
		status: 'done',
		truncated: true,
		textDeltas: 8192,
		deltaBytes: deltaLimit,
		markers: ['[deltas cut: a child task produces at most 8192 deltas; its report still comes]'],
		reportBytes: deltaLimit + 1,
		reportTruncated: false,
	});

	// The report gets what the deltas left of 4 MiB: exactly that fits, one byte more is cut, with the marker inside the budget.
	const room = 4 * 1024 * 1024 - deltaLimit;
	const second = await runScenario('deltas', [{text: 'c'.repeat(room)}, {text: 'd'.repeat(room + 1)}], 120_000);
	assert.equal(second.output.at.reportBytes, room);
	assert.equal(second.output.at.reportTruncated, false);
	assert.equal(second.output.past.reportBytes, room);
	assert.equal(second.output.past.reportTruncated, true);
	assert.equal(second.output.past.truncated, true);
});

/** An OpenAI stream of `text` in deltas of `deltaBytes`, then one tool call: more bytes a delta than the mock's own replies send. */
function bigDeltaStream(text: string, deltaBytes: number, toolCall: {id: string; name: string; arguments: string}): string {
	const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
		`data: ${JSON.stringify({id: 'big', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{index: 0, delta, finish_reason: finish}]})}\n\n`;
	const events = [chunk({role: 'assistant', content: ''})];
	for (let start = 0; start < text.length; start += deltaBytes) events.push(chunk({content: text.slice(start, start + deltaBytes)}));
	events.push(chunk({tool_calls: [{index: 0, id: toolCall.id, type: 'function', function: {name: toolCall.name, arguments: toolCall.arguments}}]}));
	events.push(chunk({}, 'tool_calls'), 'data: [DONE]\n\n');
	return events.join('');
}

test('delegate_task: a child whose streamed text filled the 4 MiB it shares with its report still hands back its final report', {timeout: 120_000}, async () => {
	const {sandbox: box, env} = sandbox();
	// 4.5 MiB in 64 KiB deltas (72 of them, far from the 8192-delta cap): only the byte budget cuts the stream.
	const streamed = 'x'.repeat(4.5 * 1024 * 1024);
	mock.enqueue(
		{toolCalls: [{id: 'big1', name: 'delegate_task', arguments: JSON.stringify({task: 'Write a lot, then report.', tools: ['glob']})}]},
		{raw: bigDeltaStream(streamed, 64 * 1024, {id: 'g2', name: 'glob', arguments: JSON.stringify({pattern: '*'})})},
		{text: 'The final report: all written.'},
		{text: 'The parent read the report.'},
	);
	const run = await runCli(['-p', 'Delegate it.', '--json', '--yolo', '-C', box.workspace], {env, timeoutMs: 90_000});
	assert.equal(run.code, 0, run.stderr);
	const events = jsonEvents(run.stdout);
	const result = events.find(event => event.type === 'tool_result' && event.id === 'big1')!;
	assert.deepEqual([result.output, result.is_error], ['The final report: all written.', false]);
	assert.equal(events.find(event => event.type === 'result')?.text, 'The parent read the report.');
});

test('-p in text: a line on stderr when a child starts and when it ends; the answer alone on stdout', async () => {
	const {sandbox: box, env} = sandbox();
	mock.enqueue({toolCalls: [{id: 'd6', name: 'delegate_task', arguments: JSON.stringify({task: 'Say yes.', role: 'yes-man'})}]}, {text: 'Yes.'}, {text: 'The child said yes.'});
	const run = await runCli(['-p', 'Ask a child', '--yolo', '-C', box.workspace], {env});
	assert.equal(run.code, 0, run.stderr);
	assert.equal(run.stdout, 'The child said yes.\n');
	assert.match(run.stderr, /^i: tool delegate_task .*\ni: child yes-man \(child-[0-9a-f]{12}\) started\ni: child yes-man \(child-[0-9a-f]{12}\) finished after 1 turn\n$/);
});
