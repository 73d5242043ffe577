// A turn's tool phase (issue 49): one reply with ten calls of a tool that
// takes 200 ms, in one agent set up in process around the scripted model.
// The baseline is the same tool not marked read-only: its calls run one
// after another, as every call did before issue 49; marked read-only they
// run side by side, at most MAX_PARALLEL_TOOL_CALLS at a time. The tool
// phase is the head's view: from the first `tool_call` event to the last
// `tool_result`. Medians of rounds measured alternately.
import {performance} from 'node:perf_hooks';
import {setTimeout as sleep} from 'node:timers/promises';
import {fakeTool, scriptedAgent} from '../test/fixtures/scripted-agent.js';
import {MAX_PARALLEL_TOOL_CALLS} from '../source/core/agent/tool-batch.js';
import {median} from './measure.js';

const CALLS = 10;
const TOOL_MS = 200;
const ROUNDS = Math.max(3, Math.round(Number(process.env.BENCH_RUNS ?? 15) / 3));

export async function benchToolBatch(): Promise<void> {
	const look = (readOnly: boolean) =>
		fakeTool(
			readOnly ? 'look' : 'look_in_turn',
			async () => {
				await sleep(TOOL_MS);
				return {output: 'seen'};
			},
			{readOnly},
		);
	const run = await scriptedAgent({tools: [look(true), look(false)]});
	let turns = 0;
	const toolPhase = async (name: string): Promise<number> => {
		const prefix = `t${++turns}-`;
		const ids = Array.from({length: CALLS}, (_, index) => `${prefix}${index + 1}`);
		run.model.enqueue({toolCalls: ids.map(id => ({id, name, arguments: {}}))}, {text: 'Seen.'});
		const outcome = run.agent.runTurn('look ten times', new AbortController().signal);
		const first = run.nextEvent(event => event.type === 'tool_call' && event.id === ids[0]).then(() => performance.now());
		const last = run.nextEvent(event => event.type === 'tool_result' && event.id === ids.at(-1)).then(() => performance.now());
		const {reason} = await outcome;
		if (reason !== 'stop') throw new Error(`the bench turn ended ${reason}`);
		return (await last) - (await first);
	};

	const figures = {sequential: [] as number[], parallel: [] as number[]};
	try {
		// Once each before measuring: the modules, the session file.
		await toolPhase('look_in_turn');
		await toolPhase('look');
		for (let round = 0; round < ROUNDS; round++) {
			figures.sequential.push(await toolPhase('look_in_turn'));
			figures.parallel.push(await toolPhase('look'));
		}
	} finally {
		await run.close();
	}

	const sequential = median(figures.sequential);
	const parallel = median(figures.parallel);
	const floor = Math.ceil(CALLS / MAX_PARALLEL_TOOL_CALLS) * TOOL_MS;
	console.log('');
	console.log(`tool phase (issue 49): ${CALLS} calls of a ${TOOL_MS} ms tool in one reply, in process, medians of ${ROUNDS} alternated rounds`);
	console.log('');
	console.log('| the calls | tool phase ms | × one at a time |');
	console.log('|---|---:|---:|');
	console.log(`| not read-only: one at a time (baseline, as before issue 49) | ${sequential.toFixed(1)} | 1.00× |`);
	console.log(`| read-only: side by side, at most ${MAX_PARALLEL_TOOL_CALLS} at a time | ${parallel.toFixed(1)} | ${(parallel / sequential).toFixed(2)}× |`);
	console.log(`| the floor: ${Math.ceil(CALLS / MAX_PARALLEL_TOOL_CALLS)} rounds of ${TOOL_MS} ms | ${floor.toFixed(1)} | ${(floor / sequential).toFixed(2)}× |`);
}
