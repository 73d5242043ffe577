import type {ImagePart, ToolCall, ToolMessage} from '../messages.js';
import type {EmitEvent} from '../events.js';
import type {Tool} from '../tools/types.js';
import {ToolInputError, ToolRunError} from '../tools/types.js';
import {checkImageParts} from '../tools/images.js';
import {truncateOutput} from '../tools/truncate.js';
import type {ApprovalGate} from './approval-gate.js';
import {parseArguments} from './validate-batch.js';

export interface ToolCallContext {
	tools: ReadonlyMap<string, Tool>;
	gate: ApprovalGate;
	emit: EmitEvent;
	workspace: string;
	signal: AbortSignal;
	outputLimit: number;
}

export interface ToolCallOutcome {
	message: ToolMessage;
	images: ImagePart[];
}

/**
 * Runs one validated call: arguments, plan, approval, execution, image and
 * size checks. Every failure the model can act on becomes an error result;
 * only cancellation propagates.
 */
export async function runToolCall(call: ToolCall, context: ToolCallContext): Promise<ToolCallOutcome> {
	const {name} = call.function;
	const finish = (output: string, isError: boolean, images: ImagePart[] = []): ToolCallOutcome => {
		const content = truncateOutput(output, context.outputLimit);
		context.emit({type: 'tool_result', id: call.id, name, output: content, is_error: isError, images: images.length});
		return {message: {role: 'tool', tool_call_id: call.id, content, ...(isError ? {_is_error: true} : {})}, images};
	};

	const tool = context.tools.get(name);
	if (!tool) {
		return finish(`Error: there is no tool named ${JSON.stringify(name)}; available tools: ${[...context.tools.keys()].join(', ')}`, true);
	}

	const parsed = parseArguments(call.function.arguments);
	if (!parsed.ok) return finish(`Error: ${name}: ${parsed.message}`, true);

	const toolContext = {workspace: context.workspace, signal: context.signal, outputLimit: context.outputLimit};
	let plan;
	try {
		plan = await tool.plan(parsed.value, toolContext);
	} catch (error) {
		rethrowIfAborted(error, context.signal);
		if (error instanceof ToolInputError || error instanceof ToolRunError) return finish(`Error: ${error.message}`, true);
		return finish(`Error: ${name} failed: ${(error as Error).message}`, true);
	}

	const approval = await context.gate({id: call.id, name, arguments: parsed.value, ask: plan.ask, external: false});
	if (approval.by !== 'auto') {
		context.emit({
			type: 'approval',
			id: call.id,
			name,
			title: plan.ask?.title ?? name,
			decision: approval.decision,
			by: approval.by,
			reason: approval.reason,
		});
	}

	if (approval.decision === 'deny') {
		const reason = approval.reason ? ` Reason: ${approval.reason}` : '';
		return finish(`The call was not run: approval was denied.${reason}`, true);
	}

	context.signal.throwIfAborted();
	let result;
	try {
		result = await plan.run();
	} catch (error) {
		rethrowIfAborted(error, context.signal);
		if (error instanceof ToolInputError || error instanceof ToolRunError) return finish(`Error: ${error.message}`, true);
		return finish(`Error: ${name} failed: ${(error as Error).message}`, true);
	}

	let images: ImagePart[] = [];
	if (result.images && result.images.length > 0) {
		try {
			images = checkImageParts(result.images);
		} catch (error) {
			return finish(`Error: ${name} returned images that were refused: ${(error as Error).message}`, true);
		}
	}

	return finish(result.output, result.isError === true, images);
}

function rethrowIfAborted(error: unknown, signal: AbortSignal): void {
	if (signal.aborted) throw signal.reason ?? error;
}
