import type {ToolCall} from '../messages.js';
import type {TurnLifecycle} from '../lifecycle/turn-lifecycle.js';
import {MAX_IMAGES_PER_BATCH} from '../tools/images.js';
import type {ToolResult} from '../tools/types.js';
import {finishToolCall, prepareToolCall, type ReadyCall, type ToolCallContext, type ToolCallOutcome} from './run-tool-call.js';

/** Read-only calls of one group that run at once (issue 49's bound); the next starts as one ends. */
export const MAX_PARALLEL_TOOL_CALLS = 8;

/**
 * A batch's calls in groups: consecutive calls of read-only tools
 * (`Tool.readOnly`) form a group that runs side by side, at most
 * `MAX_PARALLEL_TOOL_CALLS` at a time; any other call is a barrier, a
 * group of its own that starts once every call before it ended, so
 * what the person sees of cause and effect holds. Within a group the
 * `before_tool` hooks and approvals run one at a time in call order
 * before any call of it starts; `tool_started` comes in call order, and
 * each result (`ToolResult`, `after_tool`, the image checks,
 * `tool_result`) in call order once its call and every earlier one
 * ended. An interrupt cancels every running call (they share the turn's
 * signal), and the group ends only when all of them have settled.
 */
export async function runToolBatch(calls: readonly ToolCall[], context: ToolCallContext & {lifecycle: TurnLifecycle}): Promise<ToolCallOutcome[]> {
	const {lifecycle} = context;
	const readOnly = (call: ToolCall) => context.tools.get(call.function.name)?.readOnly === true;
	const outcomes: ToolCallOutcome[] = [];
	let imagesLeft = context.imagesLeft ?? MAX_IMAGES_PER_BATCH;
	let group: ReadyCall[] = [];
	const flush = async () => {
		if (group.length === 0) return;
		const ready = group;
		group = [];
		await runGroup(ready, async (call, result) => {
			const outcome = await finishToolCall(call, result, {...context, imagesLeft});
			imagesLeft -= outcome.images.length;
			outcomes.push(outcome);
		});
	};

	for (const original of calls) {
		// A barrier waits for what came before it, its own hooks and approval included.
		if (!readOnly(original)) await flush();
		const call = await lifecycle.beforeTool(original);
		// A before_tool hook may have made the call one of another tool.
		const barrier = !readOnly(call);
		if (barrier) await flush();
		group.push(await prepareToolCall(call, context));
		if (barrier) await flush();
	}

	await flush();
	return outcomes;
}

/**
 * Runs a group's calls, at most `MAX_PARALLEL_TOOL_CALLS` at a time in call
 * order, and hands each result to `finish` in call order. A failure (an
 * interrupt, a failing hook) starts no further call and propagates once
 * every started one has settled.
 */
async function runGroup(ready: readonly ReadyCall[], finish: (call: ToolCall, result: ToolResult) => Promise<void>): Promise<void> {
	let next = 0;
	let stopped = false;
	const results = ready.map(() => settlement<ToolResult>());
	const start = (): void => {
		if (stopped || next >= ready.length) return;
		const index = next++;
		const result = results[index]!;
		ready[index]!.execute().then(result.resolve, result.reject).finally(start);
	};

	for (let slot = 0; slot < Math.min(MAX_PARALLEL_TOOL_CALLS, ready.length); slot++) start();
	try {
		for (const [index, {call}] of ready.entries()) await finish(call, await results[index]!.promise);
	} catch (error) {
		stopped = true;
		// No call is left running behind the turn: the started ones end (an interrupt cancels them) before the failure goes on.
		await Promise.allSettled(results.slice(0, next).map(async result => result.promise));
		throw error;
	}
}

/** A promise with its resolve and reject (`Promise.withResolvers` is newer than Node 20). */
function settlement<T>(): {promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void} {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((yes, no) => {
		resolve = yes;
		reject = no;
	});
	// Read in call order, maybe after a later call failed: never an unhandled rejection meanwhile.
	promise.catch(() => {});
	return {promise, resolve, reject};
}
