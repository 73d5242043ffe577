// A batch's read-only calls side by side (source/core/agent/tool-batch.ts),
// driven through the agent object: they overlap, at most eight at a time; a
// call that is not read-only is a barrier; hooks and approvals run one at a
// time in call order before a group starts; results reach the model in call
// order; an interrupt cancels the whole group and leaves a well-formed
// history; extension tools that say they only read run side by side, worker
// tools never. Overlap is what the tools observe, never wall time.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {performance} from 'node:perf_hooks';
import {setTimeout as sleep} from 'node:timers/promises';
import {fakeTool, recordingHooks, scriptedAgent} from '../fixtures/scripted-agent.js';
import type {CoreEvent} from '../../source/core/events.js';
import {historyShapeProblem} from '../../source/core/history/history-shape.js';
import {MAX_PARALLEL_TOOL_CALLS} from '../../source/core/agent/tool-batch.js';
import {createExternalTool} from '../../source/core/tools/external-tool.js';
import type {WorkerPool} from '../../source/core/pool/types.js';
import type {ToolResult} from '../../source/core/tools/types.js';

const signal = () => new AbortController().signal;
/** Calls run one at a time would wait on each other for ever in the tests that need them side by side: such a test fails at this bound instead. */
const HANG_MS = 60_000;
const calls = (...list: Array<[id: string, name: string]>) => ({toolCalls: list.map(([id, name]) => ({id, name, arguments: {call: id}}))});
/** The batch's starts and results, in the order the head was told. */
const lifeOf = (events: CoreEvent[]) => events.flatMap(event => (event.type === 'tool_started' ? [`started ${event.id}`] : event.type === 'tool_result' ? [`result ${event.id}`] : []));
const callOf = (args: Record<string, unknown>) => String(args.call);

/** A tool that logs when each call starts and ends, and waits for `wait` in between. */
function loggingTool(name: string, log: string[], options: {readOnly?: boolean; wait?: (call: string) => Promise<unknown>} = {}) {
	return fakeTool(
		name,
		async args => {
			log.push(`start ${callOf(args)}`);
			await (options.wait ?? (async () => sleep(5)))(callOf(args));
			log.push(`end ${callOf(args)}`);
			return {output: `${name} ${callOf(args)}`};
		},
		options.readOnly === true ? {readOnly: true} : {},
	);
}

test('four read-only calls of a tool that takes a second run at once: every call starts before any ends; results reach the model in call order', async () => {
	const intervals = new Map<string, {start: number; end: number}>();
	const look = fakeTool(
		'look',
		async args => {
			const start = performance.now();
			await sleep(1000);
			intervals.set(callOf(args), {start, end: performance.now()});
			return {output: `looked ${callOf(args)}`};
		},
		{readOnly: true},
	);
	const ids = ['c1', 'c2', 'c3', 'c4'];
	const run = await scriptedAgent({replies: [calls(...ids.map(id => [id, 'look'] as [string, string])), {text: 'Seen.'}], tools: [look]});
	try {
		assert.deepEqual(await run.agent.runTurn('look four times', signal()), {reason: 'stop', steps: 2});
		const latestStart = Math.max(...[...intervals.values()].map(interval => interval.start));
		const earliestEnd = Math.min(...[...intervals.values()].map(interval => interval.end));
		assert.equal(intervals.size, 4);
		assert.ok(latestStart < earliestEnd, 'the four running intervals overlap');
		assert.deepEqual(
			run.model.requests[1]!.messages.slice(-4),
			ids.map(id => ({role: 'tool', tool_call_id: id, content: `looked ${id}`})),
		);
	} finally {
		await run.close();
	}
});

test(`at most ${MAX_PARALLEL_TOOL_CALLS} run at once: ${MAX_PARALLEL_TOOL_CALLS} calls all run together; one more starts when one of them ends`, {timeout: HANG_MS}, async () => {
	for (const count of [MAX_PARALLEL_TOOL_CALLS, MAX_PARALLEL_TOOL_CALLS + 1]) {
		let running = 0;
		let most = 0;
		let started = 0;
		let release!: () => void;
		const released = new Promise<void>(resolve => (release = resolve));
		const wait = fakeTool(
			'wait',
			async () => {
				started++;
				most = Math.max(most, ++running);
				await released;
				running--;
				return {output: 'waited'};
			},
			{readOnly: true},
		);
		const ids = Array.from({length: count}, (_, index) => `c${index + 1}`);
		const run = await scriptedAgent({replies: [calls(...ids.map(id => [id, 'wait'] as [string, string])), {text: 'Done.'}], tools: [wait]});
		try {
			const turn = run.agent.runTurn('wait', signal());
			await run.nextEvent(event => event.type === 'tool_started' && event.id === `c${MAX_PARALLEL_TOOL_CALLS}`);
			assert.equal(started, MAX_PARALLEL_TOOL_CALLS, `${count} calls: the first ${MAX_PARALLEL_TOOL_CALLS} started, no more`);
			release();
			assert.deepEqual(await turn, {reason: 'stop', steps: 2});
			assert.equal(started, count);
			assert.equal(most, MAX_PARALLEL_TOOL_CALLS);
		} finally {
			await run.close();
		}
	}
});

test('read, read, write, read, read: the write starts after both reads ended, the reads after it only once it ended; each pair overlaps', async () => {
	const log: string[] = [];
	const look = loggingTool('look', log, {readOnly: true});
	const change = loggingTool('change', log);
	const batch = calls(['c1', 'look'], ['c2', 'look'], ['c3', 'change'], ['c4', 'look'], ['c5', 'look']);
	const run = await scriptedAgent({replies: [batch, {text: 'Done.'}], tools: [look, change], yolo: true});
	try {
		assert.equal((await run.agent.runTurn('look, change, look', signal())).reason, 'stop');
		const at = (entry: string) => log.indexOf(entry);
		assert.ok(at('start c2') < at('end c1'), 'c1 and c2 overlap');
		assert.ok(at('start c3') > Math.max(at('end c1'), at('end c2')), 'the write waits for both reads');
		assert.equal(at('end c3'), at('start c3') + 1, 'nothing else runs while the write does');
		assert.ok(Math.min(at('start c4'), at('start c5')) > at('end c3'), 'the reads after it wait for it');
		assert.ok(at('start c5') < at('end c4'), 'c4 and c5 overlap');
		assert.deepEqual(lifeOf(run.events), ['started c1', 'started c2', 'result c1', 'result c2', 'started c3', 'result c3', 'started c4', 'started c5', 'result c4', 'result c5']);
	} finally {
		await run.close();
	}
});

test('hooks and approvals one at a time in call order before the group starts; results and after_tool in call order though the last call ends first', {timeout: HANG_MS}, async () => {
	const log: string[] = [];
	let lastEnded!: () => void;
	const last = new Promise(resolve => (lastEnded = () => resolve(undefined)));
	// Each call but the last waits until the last one ended: they end in the reverse of call order.
	const look = fakeTool(
		'look',
		async args => {
			const id = callOf(args);
			log.push(`start ${id}`);
			if (id === 'c4') lastEnded();
			else await last;
			log.push(`end ${id}`);
			return {output: `looked ${id}`};
		},
		{readOnly: true, ask: {title: 'Look', detail: 'look at a file'}},
	);
	const hooks = recordingHooks({
		before_tool: data => {
			log.push(`before_tool ${String(data.id)}`);
			return data;
		},
		after_tool: data => {
			log.push(`after_tool ${String(data.id)}`);
			return data;
		},
	});
	const ids = ['c1', 'c2', 'c3', 'c4'];
	const run = await scriptedAgent({
		replies: [calls(...ids.map(id => [id, 'look'] as [string, string])), {text: 'Done.'}],
		tools: [look],
		hooks,
		askPerson: async request => {
			log.push(`ask ${request.id}`);
			return request.id === 'c2' ? {decision: 'deny', by: 'user', reason: 'not that one'} : {decision: 'allow', by: 'user', reason: null};
		},
	});
	try {
		assert.equal((await run.agent.runTurn('look', signal())).reason, 'stop');
		assert.deepEqual(log.slice(0, 8), ['before_tool c1', 'ask c1', 'before_tool c2', 'ask c2', 'before_tool c3', 'ask c3', 'before_tool c4', 'ask c4']);
		assert.deepEqual(log.slice(8, 11).sort(), ['start c1', 'start c3', 'start c4'], 'the allowed calls start together, the denied one never');
		assert.deepEqual(
			log.filter(entry => entry.startsWith('end ')),
			['end c4', 'end c1', 'end c3'],
		);
		assert.deepEqual(
			log.filter(entry => entry.startsWith('after_tool')),
			ids.map(id => `after_tool ${id}`),
		);
		assert.deepEqual(
			run.events.filter(event => event.type === 'tool_result').map(event => (event as {id: string}).id),
			ids,
		);
		assert.deepEqual(
			run.model.requests[1]!.messages.slice(-4).map(message => (message.role === 'tool' ? [message.tool_call_id, message.content] : [])),
			[
				['c1', 'looked c1'],
				['c2', 'The call was not run: approval was denied. Reason: not that one'],
				['c3', 'looked c3'],
				['c4', 'looked c4'],
			],
		);
	} finally {
		await run.close();
	}
});

test('an interrupt in the middle of a group cancels every running call; the history stays well-formed, a result only with every call answered', {timeout: HANG_MS}, async () => {
	const group = [
		['c1', 'look'],
		['c2', 'look'],
		['c3', 'look'],
		['c4', 'look'],
	] as Array<[string, string]>;
	const cases: Array<{name: string; onAbort: (call: string) => 'throw' | ToolResult; barrier: boolean; saved: boolean}> = [
		{name: 'every call throws its cancel', onAbort: () => 'throw', barrier: true, saved: false},
		{name: 'every call answers its cancel', onAbort: call => ({output: `stopped ${call}`, isError: true}), barrier: false, saved: true},
		{name: 'every call of the group answers, the barrier after it never ran', onAbort: call => ({output: `stopped ${call}`, isError: true}), barrier: true, saved: false},
		{name: 'one call answers, the others throw', onAbort: call => (call === 'c1' ? {output: 'stopped c1', isError: true} : 'throw'), barrier: false, saved: false},
	];
	for (const {name, onAbort, barrier, saved} of cases) {
		const cancelled: string[] = [];
		const look = fakeTool(
			'look',
			async (args, context) => {
				await new Promise(resolve => context.signal.addEventListener('abort', resolve, {once: true}));
				cancelled.push(callOf(args));
				const answer = onAbort(callOf(args));
				if (answer === 'throw') throw context.signal.reason;
				return answer;
			},
			{readOnly: true},
		);
		const change = fakeTool('change', () => ({output: 'changed'}));
		const batch = calls(...group, ...(barrier ? [['c5', 'change'] as [string, string]] : []));
		const run = await scriptedAgent({replies: [batch, {text: 'never sent'}], tools: [look, change], yolo: true});
		try {
			const controller = new AbortController();
			const turn = run.agent.runTurn('look', controller.signal);
			await run.nextEvent(event => event.type === 'tool_started' && event.id === 'c4');
			controller.abort(new Error('the person pressed Esc'));
			assert.deepEqual(await turn, {reason: 'interrupted', steps: 1}, name);
			assert.deepEqual(cancelled.sort(), ['c1', 'c2', 'c3', 'c4'], `${name}: every running call heard the cancel`);
			assert.deepEqual(change.ran, [], `${name}: nothing after the group ran`);
			assert.equal(run.model.requests.length, 1);
			const history = await run.saved();
			assert.equal(historyShapeProblem(history), null, name);
			assert.deepEqual(
				history.map(message => (message.role === 'tool' ? message.tool_call_id : message.role)),
				saved ? ['system', 'user', 'assistant', 'c1', 'c2', 'c3', 'c4'] : ['system', 'user'],
				name,
			);
		} finally {
			await run.close();
		}
	}
});

test('an extension tool that declares readOnly runs beside the others of its group; one that does not is a barrier', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'i-read-only-extension-'));
	const file = join(folder, 'peek-and-poke.mjs');
	writeFileSync(
		file,
		`const wait = ms => new Promise(resolve => setTimeout(resolve, ms));
export default api => {
	api.registerTool({name: 'peek', readOnly: true, description: 'Looks.', parameters: {type: 'object', properties: {call: {type: 'string'}}}, execute: async () => { await wait(5); return {output: 'peeked'}; }});
	api.registerTool({name: 'poke', description: 'Changes.', parameters: {type: 'object', properties: {call: {type: 'string'}}}, execute: async () => { await wait(5); return {output: 'poked'}; }});
};
`,
	);
	const batch = calls(['c1', 'peek'], ['c2', 'peek'], ['c3', 'poke'], ['c4', 'poke']);
	const run = await scriptedAgent({replies: [batch, {text: 'Done.'}], extensions: [file], yolo: true});
	try {
		assert.equal((await run.agent.runTurn('peek and poke', signal())).reason, 'stop');
		assert.deepEqual(lifeOf(run.events), ['started c1', 'started c2', 'result c1', 'result c2', 'started c3', 'result c3', 'started c4', 'result c4']);
	} finally {
		await run.close();
		rmSync(folder, {recursive: true, force: true});
	}
});

test("a worker's tools run one at a time: a manifest cannot say a tool only reads", async () => {
	const pool: WorkerPool = {
		async call(_spec, _event, data) {
			await sleep(5);
			return {output: `counted ${String((data.arguments as Record<string, unknown>).call)}`};
		},
		start() {},
		setResources() {},
		async close() {},
	};
	const count = createExternalTool({name: 'count', description: 'Counts.', parameters: {type: 'object'}, worker: {exec: ['/bin/true'], cwd: '/'}, manifest: '/c/tools.json'}, pool);
	const run = await scriptedAgent({replies: [calls(['c1', 'count'], ['c2', 'count']), {text: 'Done.'}], tools: [count], yolo: true});
	try {
		assert.equal((await run.agent.runTurn('count twice', signal())).reason, 'stop');
		assert.deepEqual(lifeOf(run.events), ['started c1', 'result c1', 'started c2', 'result c2']);
	} finally {
		await run.close();
	}
});
