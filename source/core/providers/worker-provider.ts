import * as z from 'zod/mini';
import '../zod-english.js';
import type {AssistantMessage} from '../messages.js';
import type {WorkerPool, WorkerSpec} from '../pool/types.js';
import {providerEvent} from '../lifecycle/event-names.js';
import type {ModelCaller} from './model-caller.js';
import type {FinishReason, ModelReply} from './types.js';
import {neutralBody} from './neutral-body.js';
import {ProviderError} from './errors.js';

/**
 * spec/platform.md §2 gives hooks and tools 15 s a call; a model answer routinely takes
 * longer, so the provider call gets the time a model request gets.
 */
export const PROVIDER_CALL_TIMEOUT_MS = 600_000;

/** The pseudo-URL of requests a provider worker serves: `before_request` may not change its origin either. */
export const PROVIDER_WORKER_URL = 'worker://provider';

const toolCallSchema = z.object({
	id: z.string(),
	type: z.literal('function'),
	function: z.object({name: z.string(), arguments: z.string()}),
});

const replySchema = z.object({
	message: z.object({
		content: z.nullable(z.string()),
		tool_calls: z.optional(z.array(toolCallSchema)),
		reasoning_content: z.optional(z.string()),
	}),
	finish_reason: z.optional(z.string()),
	usage: z.optional(
		z.object({
			input: z.int().check(z.nonnegative()),
			output: z.int().check(z.nonnegative()),
			cache_read: z.optional(z.int().check(z.nonnegative())),
			cache_write: z.optional(z.int().check(z.nonnegative())),
		}),
	),
});

const finishReasons: readonly FinishReason[] = ['stop', 'tool_calls', 'length', 'content_filter'];

/**
 * A model reached through a provider worker (spec/platform.md §1 `provider`): the core
 * sends `{"event":"provider","data":{"protocol","url","body"}}` where body is
 * the provider-neutral request `{model, messages, tools, max_tokens?, ...extra_body}`,
 * and the worker answers `{"message":{"content","tool_calls"?,"reasoning_content"?},
 * "finish_reason"?, "usage"?: {"input","output","cache_read"?,"cache_write"?}}`.
 * The worker finds its own credentials: none are passed to it.
 */
export function createWorkerProviderCaller(options: {pool: WorkerPool; worker: WorkerSpec; protocol: string; model: string; maxTokens?: number; extraBody: Record<string, unknown>}): ModelCaller {
	const label = `provider worker ${JSON.stringify(options.worker.exec)}`;
	return {
		protocol: options.protocol,
		model: options.model,
		prepare: (messages, tools) => ({url: PROVIDER_WORKER_URL, body: neutralBody(options, messages, tools)}),
		async send(request, io) {
			io.signal.throwIfAborted();
			if (io.wire !== undefined) {
				throw new ProviderError(
					`${label}: a before_request hook asked for the "${io.wire}" wire, but a provider worker answers in frames, not an HTTP stream to assemble; drop the wire-converting module (such as responses) from the plugins of this config`,
					{kind: 'stream'},
				);
			}

			let data: Record<string, unknown>;
			try {
				data = await options.pool.call(options.worker, providerEvent, {protocol: options.protocol, url: request.url, body: request.body}, {timeoutMs: PROVIDER_CALL_TIMEOUT_MS, signal: io.signal});
			} catch (error) {
				if (io.signal.aborted) throw new ProviderError(`${label}: request cancelled`, {kind: 'aborted'});
				throw new ProviderError(`${label}: ${(error as Error).message}`, {kind: 'network'});
			}

			const parsed = replySchema.safeParse(data);
			if (!parsed.success) {
				const issue = parsed.error.issues[0];
				throw new ProviderError(`${label}: the reply is not a model reply (${issue?.path.join('.') || 'data'}: ${issue?.message ?? 'invalid'})`, {kind: 'stream'});
			}

			const reply = parsed.data;
			if (reply.message.reasoning_content) io.emit({type: 'thinking_delta', text: reply.message.reasoning_content});
			if (reply.message.content) io.emit({type: 'text_delta', text: reply.message.content});
			const message: AssistantMessage = {role: 'assistant', content: reply.message.content};
			if (reply.message.tool_calls && reply.message.tool_calls.length > 0) message.tool_calls = reply.message.tool_calls;
			if (reply.message.reasoning_content !== undefined) message.reasoning_content = reply.message.reasoning_content;
			const raw = reply.finish_reason ?? null;
			const finishReason: FinishReason = raw === null ? (message.tool_calls ? 'tool_calls' : 'stop') : finishReasons.includes(raw as FinishReason) ? (raw as FinishReason) : 'other';
			const usage = reply.usage
				? {
						input: reply.usage.input,
						output: reply.usage.output,
						cacheRead: reply.usage.cache_read ?? 0,
						cacheWrite: reply.usage.cache_write ?? 0,
						raw: reply.usage as Record<string, unknown>,
					}
				: null;
			const result: ModelReply = {message, finishReason, rawFinishReason: raw, usage};
			return result;
		},
	};
}
