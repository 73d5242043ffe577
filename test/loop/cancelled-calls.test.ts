// A cancelled call always ends (issue 47): after an interrupt, a tool that
// throws on its cancel (as MCP tools and delegate_task do), an extension tool
// that honours its signal and one that ignores it each get their
// `tool_result` (an error the heads draw as ✗) and ToolExecutionEnd, and
// the step its TurnEnd, before AgentEnd. Driven through the agent object
// (test/fixtures/scripted-agent.ts) with a real extension observing.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fakeTool, scriptedAgent, untilAborted} from '../fixtures/scripted-agent.js';
import {CANCELLED_OUTPUT} from '../../source/core/lifecycle/call-outputs.js';

const heardKey = Symbol.for('i-loop-test.cancelled-calls');

// Observes the ends, and registers two tools that start and wait: one stops on its signal, one never does.
const extension = `export default function register(api) {
	const heard = globalThis[Symbol.for('i-loop-test.cancelled-calls')];
	for (const tag of ['ToolExecutionStart', 'ToolExecutionEnd', 'TurnEnd', 'AgentEnd']) {
		api.registerEventHandler(tag, event => { heard.push(tag + (event.isError === undefined ? '' : ' ' + event.isError) + (event.step === undefined ? '' : ' ' + event.step + '/' + event.toolCalls)); });
	}
	api.registerTool({name: 'honours', description: 'stops on its signal', parameters: {type: 'object'},
		execute: (params, ctx) => new Promise((resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))))});
	api.registerTool({name: 'ignores', description: 'never stops', parameters: {type: 'object'},
		execute: () => new Promise(() => {})});
}
`;

for (const name of ['throws', 'honours', 'ignores']) {
	test(`an interrupted ${name === 'throws' ? 'core tool that throws on its cancel' : `extension tool that ${name} its signal`} ends with a cancelled result, ToolExecutionEnd and TurnEnd`, async () => {
		const folder = mkdtempSync(join(tmpdir(), 'i-cancelled-'));
		const file = join(folder, 'observer.mjs');
		writeFileSync(file, extension);
		const heard: string[] = [];
		(globalThis as Record<symbol, unknown>)[heardKey] = heard;
		const throws = fakeTool('throws', async (_args, context) => untilAborted(context, 'throw'));
		const run = await scriptedAgent({replies: [{toolCalls: [{id: 'c1', name, arguments: {}}]}, {text: 'never sent'}], tools: [throws], extensions: [file], yolo: true});
		try {
			const controller = new AbortController();
			const turn = run.agent.runTurn('run it', controller.signal);
			await run.nextEvent(event => event.type === 'tool_started');
			controller.abort(new Error('the person pressed Esc'));
			assert.deepEqual(await turn, {reason: 'interrupted', steps: 1});
			await run.agent.extensionEvents!.drained();
			const types = run.events.map(event => event.type);
			assert.deepEqual(types.slice(types.indexOf('tool_started')), ['tool_started', 'tool_result', 'done']);
			assert.deepEqual(
				run.events.find(event => event.type === 'tool_result'),
				{type: 'tool_result', id: 'c1', name, output: CANCELLED_OUTPUT, is_error: true, images: 0},
			);
			assert.deepEqual(heard, ['ToolExecutionStart', 'ToolExecutionEnd true', 'TurnEnd 1/1', 'AgentEnd']);
			// The model never sees the cancelled call: its step is not saved.
			assert.deepEqual(
				(await run.saved()).map(message => message.role),
				['system', 'user'],
			);
		} finally {
			await run.close();
			rmSync(folder, {recursive: true, force: true});
		}
	});
}

test('a turn interrupted while the model answers still ends its step: TurnEnd, then AgentEnd', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'i-cancelled-'));
	const file = join(folder, 'observer.mjs');
	writeFileSync(file, extension);
	const heard: string[] = [];
	(globalThis as Record<symbol, unknown>)[heardKey] = heard;
	const run = await scriptedAgent({replies: [{deltas: ['Hel'], hang: true}], extensions: [file]});
	try {
		const controller = new AbortController();
		const turn = run.agent.runTurn('say hello', controller.signal);
		await run.nextEvent(event => event.type === 'text_delta');
		controller.abort(new Error('the person pressed Esc'));
		assert.equal((await turn).reason, 'interrupted');
		await run.agent.extensionEvents!.drained();
		assert.deepEqual(heard, ['TurnEnd 1/0', 'AgentEnd']);
	} finally {
		await run.close();
		rmSync(folder, {recursive: true, force: true});
	}
});
