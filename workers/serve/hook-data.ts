import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {describeIssues} from '../../source/core/config/describe-issues.js';
import {messageSchema} from '../../source/core/history/message-schema.js';
import type {Message} from '../../source/core/messages.js';

/** A hook's data as `schema` reads it, or an error naming the event and the field: `before_turn data: …`. */
export function parseHookData<T>(event: string, schema: z.ZodMiniType<T>, data: Record<string, unknown>): T {
	const parsed = schema.safeParse(data);
	if (!parsed.success) throw new Error(`${event} data: ${describeIssues(parsed.error.issues, data)}`);
	return parsed.data;
}

/** A tool call's `arguments` as `schema` reads them, or an error naming the tool and the field: `web_fetch arguments: …`. */
export function parseToolArguments<T>(tool: string, schema: z.ZodMiniType<T>, data: Record<string, unknown>): T {
	const parsed = schema.safeParse(data.arguments);
	if (!parsed.success) throw new Error(`${tool} arguments: ${describeIssues(parsed.error.issues, data.arguments)}`);
	return parsed.data;
}

const messagesSchema = z.looseObject({messages: z.array(messageSchema)});

/** Messages already found valid that cannot change since (frozen by prefix reuse): each is checked once per worker. */
const validMessages = new WeakSet<object>();

/**
 * The `messages` of a `before_turn` or `before_compact_commit` hook's data,
 * the very objects given (the schema only checks; nothing is rewritten).
 */
export function messagesOf(event: string, data: Record<string, unknown>): Message[] {
	const {messages} = data;
	if (!Array.isArray(messages)) return parseHookData(event, messagesSchema, data).messages as Message[];
	for (const message of messages) {
		if (typeof message === 'object' && message !== null && validMessages.has(message)) continue;
		// A bad one: the whole parse, for the message naming which and why.
		if (!messageSchema.safeParse(message).success) parseHookData(event, messagesSchema, data);
		if (typeof message === 'object' && message !== null && Object.isFrozen(message)) validMessages.add(message);
	}

	return messages as Message[];
}
