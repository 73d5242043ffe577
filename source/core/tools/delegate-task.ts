import * as z from 'zod/mini';
import {
	childRole,
	CORE_OWNER,
	DELEGATE_TOOL_NAME,
	type ChildResult,
	type ChildStarter,
	DEFAULT_CHILD_TURNS,
	MAX_CHILD_ROLE_CHARS,
	MAX_CHILD_TASK_BYTES,
	MAX_CHILD_TOOLS,
	MAX_CHILD_TURNS,
	MIN_CHILD_TURNS,
	withDefaults,
} from '../child-request.js';
import {RuntimeActionError} from '../extensions/runtime-link.js';
import {parseArguments} from './arguments.js';
import {toParameters} from './parameters.js';
import {ToolInputError, ToolRunError, type Tool, type ToolResult} from './types.js';

const schema = z.strictObject({
	task: z.string().check(
		z.minLength(1),
		z.refine(value => Buffer.byteLength(value) <= MAX_CHILD_TASK_BYTES, `the task is at most ${MAX_CHILD_TASK_BYTES} bytes (UTF-8)`),
		z.describe(`The whole task and what to report; the child sees only this (at most ${MAX_CHILD_TASK_BYTES} bytes)`),
	),
	// The same rule as an extension's childAgent role: it goes into the approval title the person reads.
	role: z.optional(childRole.check(z.describe(`Short name shown to the person, e.g. "reviewer" (at most ${MAX_CHILD_ROLE_CHARS} characters, one line)`))),
	tools: z.optional(z.array(z.string()).check(z.maxLength(MAX_CHILD_TOOLS), z.describe('Your tools it may use (default: all); e.g. ["read", "search"] for a read-only task'))),
	maxTurns: z.optional(z.int().check(z.gte(MIN_CHILD_TURNS), z.lte(MAX_CHILD_TURNS), z.describe(`Its model requests (default ${DEFAULT_CHILD_TURNS})`))),
});

/**
 * `delegate_task`: the model hands a self-contained task to a child agent
 * (child-agents.ts) and gets the child's final report as the result. The
 * child runs with the parent's model, prompt, hooks and workspace and its
 * own session; its calls ask for approval like the parent's. Cancelled with
 * the turn (Esc). A child never has this tool.
 */
export function createDelegateTaskTool(children: ChildStarter): Tool {
	return {
		name: DELEGATE_TOOL_NAME,
		description: 'Hand a self-contained task (a wide search, a review) to a child agent with a fresh conversation and your tools; its final report is the result.',
		parameters: toParameters(schema),
		async plan(args, context) {
			const input = parseArguments(DELEGATE_TOOL_NAME, schema, args);
			// Starting a child is no action of its own: its tool calls ask for approval one by one.
			return {ask: null, run: async () => delegate(children, input, context.signal)};
		},
	};
}

async function delegate(children: ChildStarter, input: z.output<typeof schema>, signal: AbortSignal): Promise<ToolResult> {
	const start = withDefaults(input);
	let task;
	try {
		task = await children.start(CORE_OWNER, start, {signal});
	} catch (error) {
		if (error instanceof RuntimeActionError)
			throw error.code === 'invalid_argument' ? new ToolInputError(`${DELEGATE_TOOL_NAME}: ${strip(error.message)}`) : new ToolRunError(`${DELEGATE_TOOL_NAME}: ${strip(error.message)}`);
		throw error;
	}

	try {
		const result = await task.settled();
		signal.throwIfAborted();
		return report(result, task.error, start.maxTurns, task.id);
	} finally {
		// The tool's result is the report: the handle goes with it (a child still stopping keeps its slot until it ends).
		children.dispose(CORE_OWNER, task.id);
	}
}

function report(result: ChildResult, error: string | undefined, maxTurns: number, id: string): ToolResult {
	const text = result.text.trim() === '' ? '(the child gave no report)' : result.text;
	if (result.status === 'failed')
		return {output: `The child agent ${id} failed: ${error ?? 'no reason given'}.${result.text.trim() === '' ? '' : `\nWhat it said before it stopped:\n${result.text}`}`, isError: true};
	if (result.turnLimited) return {output: `The child agent ${id} stopped at its limit of ${maxTurns} model requests (maxTurns) before it finished. Its last report:\n${text}`};
	return {output: text};
}

/** The runtime action's prefix (`childAgent: `) means nothing to the model. */
function strip(message: string): string {
	return message.replace(/^childAgent: /, '');
}
