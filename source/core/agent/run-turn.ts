import type {ImagePart, Message, UserContent} from '../messages.js';
import type {EmitEvent, CoreEvent} from '../events.js';
import type {Tool} from '../tools/types.js';
import type {Adapter, ToolSchema} from '../providers/types.js';
import {callModel, type HttpOptions} from '../providers/index.js';
import {ProviderError} from '../providers/errors.js';
import {TurnError, errorMessage} from '../errors.js';
import type {ApprovalGate} from './approval-gate.js';
import type {Session} from './session-store.js';
import {runToolCall} from './run-tool-call.js';
import {validateBatch} from './validate-batch.js';
import {toolOutputLimit} from './tool-output-limit.js';

export interface TurnContext {
	adapter: Adapter;
	apiKey: string;
	model: string;
	tools: Tool[];
	session: Session;
	gate: ApprovalGate;
	emit: EmitEvent;
	workspace: string;
	/** The system prompt a new session starts with. */
	systemPrompt: string;
	/** Model requests one turn may make. */
	maxSteps: number;
	signal: AbortSignal;
	http?: HttpOptions;
}

export type DoneReason = Extract<CoreEvent, {type: 'done'}>['reason'];

export interface TurnOutcome {
	reason: DoneReason;
	steps: number;
	/** The failure, when reason is `error`. */
	error?: Error;
}

/**
 * One user turn: the model is called, its tool calls run, their results go
 * back, until the model stops or the step cap is reached. A checkpoint is
 * saved after each complete step (the user message; an assistant message
 * with all its tool results). Failures end as an `error` event and a `done`
 * event, a session that cannot be written included; this never throws.
 */
export async function runTurn(input: UserContent, context: TurnContext): Promise<TurnOutcome> {
	const {session, emit, signal} = context;
	const toolMap = new Map(context.tools.map(tool => [tool.name, tool]));
	const schemas: ToolSchema[] = context.tools.map(({name, description, parameters}) => ({name, description, parameters}));
	let steps = 0;
	const done = (reason: DoneReason, error?: Error): TurnOutcome => {
		if (error) emit({type: 'error', message: error.message, kind: errorKind(error)});
		emit({type: 'done', reason, steps});
		return error ? {reason, steps, error} : {reason, steps};
	};

	// Interrupted before it began (during setup): nothing to save.
	if (signal.aborted) return done('interrupted');
	try {
		const opening: Message[] = session.messages.length === 0 ? [{role: 'system', content: context.systemPrompt}] : [];
		await session.appendStep([...opening, {role: 'user', content: input}]);
		while (steps < context.maxSteps) {
			signal.throwIfAborted();
			steps++;
			const reply = await callModel({
				adapter: context.adapter,
				apiKey: context.apiKey,
				messages: session.messages,
				tools: schemas,
				signal,
				emit,
				onRetry: retry => emit({type: 'retry', attempt: retry.attempt, delay_ms: retry.delayMs, reason: retry.reason, status: retry.status ?? null}),
				...(context.http ? {httpOptions: context.http} : {}),
			});
			if (reply.usage) emit({type: 'usage', model: context.model, usage: reply.usage});

			const calls = validateBatch(reply);
			if (calls.length === 0) {
				await session.appendStep([reply.message]);
				const reason = reply.finishReason === 'length' || reply.finishReason === 'content_filter' ? reply.finishReason : 'stop';
				return done(reason);
			}

			for (const call of calls) emit({type: 'tool_call', id: call.id, name: call.function.name, arguments: call.function.arguments});
			const step: Message[] = [reply.message];
			const images: Array<{id: string; images: ImagePart[]}> = [];
			const outputLimit = toolOutputLimit(calls.length);
			for (const call of calls) {
				const outcome = await runToolCall(call, {tools: toolMap, gate: context.gate, emit, workspace: context.workspace, signal, outputLimit});
				step.push(outcome.message);
				if (outcome.images.length > 0) images.push({id: call.id, images: outcome.images});
			}

			// Chat APIs want every tool result right after its assistant message,
			// so images follow as user messages tagged with their call's ID.
			for (const {id, images: parts} of images) {
				step.push({role: 'user', content: [{type: 'text', text: `Images from tool call ${id}:`}, ...parts], _tool_call_id: id});
			}

			await session.appendStep(step);
		}

		return done('max_steps', new TurnError(`stopped after ${context.maxSteps} model requests (max_steps); the session is saved, send another message to continue or raise max_steps`));
	} catch (error) {
		if (signal.aborted) return done('interrupted');
		return done('error', error instanceof Error ? error : new TurnError(errorMessage(error)));
	}
}

function errorKind(error: Error): string {
	if (error instanceof ProviderError) return error.kind;
	if (error instanceof TurnError) return 'turn';
	return 'internal';
}
