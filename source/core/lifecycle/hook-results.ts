import {isDeepStrictEqual} from 'node:util';
import * as z from 'zod/mini';
import '../zod-english.js';
import type {AssistantMessage, Message, UserContent} from '../messages.js';
import {describeShapeProblem, historyShapeProblem} from '../history/history-shape.js';
import {firstIssue} from '../session/session-schema.js';
import {messageSchema, userContentSchema} from '../history/message-schema.js';
import {protocols, type Protocol} from '../providers/types.js';
import type {LifecycleEvent} from './event-names.js';
import {HookError} from './hook-chain.js';

/**
 * What the core reads back from the hooks whose answers change a turn. Hooks
 * are trusted code, but a wrong shape is still a clear error naming the event,
 * never a silent default.
 */

/** spec/platform.md §9: a system prompt replacement is 1–32000 characters. */
export const MAX_SYSTEM_PROMPT_CHARS = 32_000;

/** `hook` names whose answer it is: the event alone, or the very hook when the chain checks each answer. */
function read<T>(event: LifecycleEvent, schema: z.ZodMiniType<T>, data: Record<string, unknown>, hook = `${event} hook`): T {
	const parsed = schema.safeParse(data);
	if (!parsed.success) throw new HookError(`${hook} returned data the core cannot use: ${firstIssue(parsed.error)}`, event);
	return parsed.data;
}

/** A history a hook handed back must be one the provider accepts: saved, it would fail every later request. */
function checkShape(event: LifecycleEvent, messages: readonly Message[], hook: string, options: {awaitingResults?: boolean} = {}): void {
	const problem = historyShapeProblem(messages, options);
	if (problem) throw new HookError(`${hook} returned a history the provider would refuse: ${describeShapeProblem(problem)}`, event);
}

const systemPromptSchema = z.looseObject({prompt: z.string().check(z.minLength(1), z.maxLength(MAX_SYSTEM_PROMPT_CHARS))});

export function readSystemPrompt(data: Record<string, unknown>): string {
	return read('system_prompt', systemPromptSchema, data).prompt;
}

const userInputSchema = z.looseObject({content: userContentSchema});

export function readUserInput(data: Record<string, unknown>): UserContent {
	return read('user_input', userInputSchema, data).content as UserContent;
}

const messagesSchema = z.looseObject({messages: z.array(messageSchema)});

/**
 * `before_turn` may append steering or reference messages; the history it
 * was given is a prefix that must come back unchanged (spec/platform.md §7: the system
 * prompt and history prefix are never rewritten), and what it appended must
 * leave a history the provider accepts. Returns what was appended.
 */
export function readBeforeTurn(data: Record<string, unknown>, given: readonly Message[], hook = 'before_turn hook'): Message[] {
	const appended = appendedMessages(data, given, hook);
	checkShape('before_turn', [...given, ...appended], hook);
	return appended;
}

function appendedMessages(data: Record<string, unknown>, given: readonly Message[], hook: string): Message[] {
	// A worker on prefix-reuse frames hands back the very messages it was given: only what it appended needs reading.
	const returned = data.messages;
	if (Array.isArray(returned) && returned.length >= given.length && given.every((message, index) => returned[index] === message)) {
		return read('before_turn', messagesSchema, {messages: returned.slice(given.length)}, hook).messages as Message[];
	}

	const {messages} = read('before_turn', messagesSchema, data, hook);
	// Compared as values: a hook in another language may well write object keys in another order.
	if (messages.length < given.length || given.some((message, index) => !isDeepStrictEqual(message, messages[index]))) {
		throw new HookError(`${hook} changed the history it was given; a hook may only append messages`, 'before_turn');
	}

	return messages.slice(given.length) as Message[];
}

const budgetSchema = z.looseObject({fits: z.optional(z.boolean())});

/** `context_budget` answers `fits`; a budget that says nothing leaves the request alone. */
export function readBudgetFits(data: Record<string, unknown>): boolean {
	return read('context_budget', budgetSchema, data).fits !== false;
}

const figuresSchema = z.looseObject({estimate: z.number().check(z.nonnegative()), limit: z.number().check(z.nonnegative()), window: z.optional(z.number().check(z.positive()))});

/** The budget's figures, when it gives them (tokens): for the status line, `--json` and SessionBeforeCompact. */
export function readBudgetFigures(data: Record<string, unknown>): {estimate: number; limit: number; window: number | null} | null {
	const parsed = figuresSchema.safeParse(data);
	return parsed.success ? {estimate: parsed.data.estimate, limit: parsed.data.limit, window: parsed.data.window ?? null} : null;
}

/** Whether the budget's estimate rests on the provider's count of the last request (the official budget's `method: "usage"`), not on bytes. */
export function readBudgetAnchored(data: Record<string, unknown>): boolean {
	return data.method === 'usage';
}

const toolBudgetSchema = z.looseObject({tool_budget: z.optional(z.looseObject({per_call_chars: z.int().check(z.nonnegative())}))});

/** What one tool result may take by the budget, in characters; null when it says nothing. */
export function readToolBudget(data: Record<string, unknown>): number | null {
	const parsed = toolBudgetSchema.safeParse(data);
	if (!parsed.success) throw new HookError(`context_budget hook returned an unusable tool_budget: ${firstIssue(parsed.error)}`, 'context_budget');
	return parsed.data.tool_budget?.per_call_chars ?? null;
}

const beforeRequestSchema = z.looseObject({
	url: z.string(),
	body: z.record(z.string(), z.unknown()),
	request_meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
	wire: z.optional(z.unknown()),
});

/**
 * `before_request` may change the body, never the origin the request goes to
 * (spec/platform.md §6). A hook that turned the body into another protocol's wire (the
 * responses module) names that built-in protocol in `wire`, whose assembler
 * then reads the reply; `wire` is not sent.
 */
export function readBeforeRequest(data: Record<string, unknown>, originalUrl: string): {url: string; body: Record<string, unknown>; requestMeta: Record<string, unknown> | null; wire?: Protocol} {
	const {url, body, request_meta: requestMeta, wire} = read('before_request', beforeRequestSchema, data);
	if (origin(url) !== origin(originalUrl)) {
		throw new HookError(`before_request hook moved the request from ${origin(originalUrl)} to ${origin(url)}; a hook may change the body, not the origin`, 'before_request');
	}

	if (wire === undefined) return {url, body, requestMeta: requestMeta ?? null};
	if (typeof wire !== 'string' || !(protocols as readonly string[]).includes(wire)) {
		throw new HookError(`before_request hook returned wire ${JSON.stringify(wire)}; wire names a built-in protocol: ${protocols.join(', ')}`, 'before_request');
	}

	return {url, body, requestMeta: requestMeta ?? null, wire: wire as Protocol};
}

function origin(url: string): string {
	try {
		const parsed = new URL(url);
		// Credentials in a URL become an Authorization header: another identity at the same host.
		if (parsed.username !== '' || parsed.password !== '') return `(a URL with credentials: ${parsed.protocol}//…@${parsed.host})`;
		return `${parsed.protocol}//${parsed.host}`;
	} catch {
		return `(not a URL: ${JSON.stringify(url.slice(0, 80))})`;
	}
}

const afterResponseSchema = z.looseObject({
	response: z.looseObject({message: messageSchema}),
});

/**
 * `after_response` sees the response and may hand back another assistant
 * message (a wire adapter's conversion) or fail it (a policy refusing it).
 * The message must follow `history`, the messages the request sent, as a
 * provider accepts it (its tool calls are answered after this).
 */
export function readAfterResponse(data: Record<string, unknown>, history: readonly Message[], hook = 'after_response hook'): AssistantMessage {
	const {message} = read('after_response', afterResponseSchema, data, hook).response;
	if (message.role !== 'assistant') throw new HookError(`${hook} returned a ${message.role} message as the response; it must stay an assistant message`, 'after_response');
	checkShape('after_response', [...history, message as AssistantMessage], hook, {awaitingResults: true});
	return message as AssistantMessage;
}

const beforeToolSchema = z.looseObject({name: z.string().check(z.minLength(1)), arguments: z.string()});

export function readBeforeTool(data: Record<string, unknown>): {name: string; arguments: string} {
	return read('before_tool', beforeToolSchema, data);
}

const afterToolSchema = z.looseObject({
	output: z.string(),
	images: z.optional(z.unknown()),
	is_error: z.optional(z.boolean()),
});

/** `after_tool` may rewrite the output (images are checked after it, by the caller). */
export function readAfterTool(data: Record<string, unknown>, wasError: boolean): {output: string; images: unknown; isError: boolean} {
	const {output, images, is_error: isError} = read('after_tool', afterToolSchema, data);
	return {output, images: images ?? [], isError: isError ?? wasError};
}
