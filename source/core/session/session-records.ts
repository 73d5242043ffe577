import * as z from 'zod/mini';
import '../zod-english.js';
import {messageSchema} from '../history/message-schema.js';
import type {Message, UserMessage} from '../messages.js';
import {firstIssue} from './session-schema.js';
import type {CoreEvent} from '../events.js';

/**
 * The session-file lines of extension deliveries (spec/extensions.md §3):
 * `queued` keeps what an extension's `appendEntry` or `sendMessage` handed
 * over while it waits for its moment (after a tool batch, after the task,
 * the next explicit run), so a kill loses nothing once the action resolved;
 * `entry` is a committed `{customType, data}` entry, which never enters the
 * model's context. A queued message is committed inside a step, carrying
 * its ID in `_extension_message`; an ID committed once is never pending
 * again, whatever the history became since (a compaction included).
 */

/** When a queued message joins the history: after the batch (`steer`, `context`), after the task (`followUp`), before the next explicit input (`nextTurn`). */
export const deliveryModes = ['steer', 'followUp', 'nextTurn', 'context'] as const;
export type DeliveryMode = (typeof deliveryModes)[number];

/** What a delivered message carries beside its role and content; a provider never sees it (the run strips it from each request). */
export interface ExtensionMessageMeta {
	/** The stable entry ID the action returned. */
	id: string;
	extension: string;
	/** Absent for a plain `{text}` or user message. */
	customType?: string;
	/** Whether the chat screen and line mode show it. */
	display: boolean;
	details?: unknown;
}

export type DeliveredMessage = UserMessage & {_extension_message: ExtensionMessageMeta};

export type QueuedItem = {kind: 'entry'; id: string; extension: string; customType: string; data: unknown} | {kind: 'message'; id: string; extension: string; deliver: DeliveryMode; message: DeliveredMessage};

/** A committed `{customType, data}` entry. */
export interface SessionEntry {
	id: string;
	extension: string;
	customType: string;
	data: unknown;
}

const metaSchema = z.looseObject({
	id: z.string().check(z.minLength(1)),
	extension: z.string(),
	customType: z.optional(z.string()),
	display: z.boolean(),
	details: z.optional(z.unknown()),
});

export const queuedLineSchema = z.looseObject({
	type: z.literal('queued'),
	id: z.string().check(z.minLength(1)),
	extension: z.string(),
	item: z.discriminatedUnion('kind', [
		z.looseObject({kind: z.literal('entry'), customType: z.string(), data: z.unknown()}),
		z.looseObject({kind: z.literal('message'), deliver: z.enum(deliveryModes), message: messageSchema}),
	]),
});

export const entryLineSchema = z.looseObject({
	type: z.literal('entry'),
	id: z.string().check(z.minLength(1)),
	extension: z.string(),
	customType: z.string(),
	data: z.unknown(),
});

export type RecordLine = {type: 'queued'; item: QueuedItem} | {type: 'entry'; entry: SessionEntry};

/** Reads a parsed line of type `queued` or `entry`; a problem in words otherwise. */
export function checkRecordLine(value: Record<string, unknown>): {ok: true; line: RecordLine} | {ok: false; problem: string} {
	if (value.type === 'entry') {
		const result = entryLineSchema.safeParse(value);
		if (!result.success) return {ok: false, problem: `not a valid entry (${firstIssue(result.error)})`};
		const {id, extension, customType, data} = result.data;
		return {ok: true, line: {type: 'entry', entry: {id, extension, customType, data: data ?? null}}};
	}

	const result = queuedLineSchema.safeParse(value);
	if (!result.success) return {ok: false, problem: `not a valid queued delivery (${firstIssue(result.error)})`};
	const {id, extension, item} = result.data;
	if (item.kind === 'entry') return {ok: true, line: {type: 'queued', item: {kind: 'entry', id, extension, customType: item.customType, data: item.data ?? null}}};
	const message = item.message as Message;
	const meta = message.role === 'user' ? metaSchema.safeParse((message as unknown as Record<string, unknown>)._extension_message) : undefined;
	if (!meta?.success || meta.data.id !== id) return {ok: false, problem: 'not a valid queued delivery (its message is not a user message carrying the same _extension_message.id)'};
	return {ok: true, line: {type: 'queued', item: {kind: 'message', id, extension, deliver: item.deliver, message: message as DeliveredMessage}}};
}

/** The line that keeps a queued item. */
export function queuedLine(item: QueuedItem): string {
	const {id, extension} = item;
	const body = item.kind === 'entry' ? {kind: 'entry', customType: item.customType, data: item.data} : {kind: 'message', deliver: item.deliver, message: item.message};
	return `${JSON.stringify({type: 'queued', id, extension, created: new Date().toISOString(), item: body})}\n`;
}

/** The line that commits an entry. */
export function entryLine(entry: SessionEntry): string {
	return `${JSON.stringify({type: 'entry', id: entry.id, extension: entry.extension, customType: entry.customType, data: entry.data, created: new Date().toISOString()})}\n`;
}

/** The event that announces a committed extension message: as it is committed (message-delivery.ts) and when a resumed session is shown alike. */
export function customMessageEvent(message: DeliveredMessage): Extract<CoreEvent, {type: 'custom_message'}> {
	const {_extension_message: meta, content} = message;
	return {type: 'custom_message', id: meta.id, extension: meta.extension, customType: meta.customType ?? null, content, display: meta.display, details: meta.details ?? null};
}

/** The delivery ID a history message carries, if it is one. */
export function deliveryIdOf(message: Message): string | undefined {
	if (message.role !== 'user') return undefined;
	const meta = (message as Partial<DeliveredMessage>)._extension_message;
	return meta !== null && typeof meta === 'object' && typeof meta.id === 'string' ? meta.id : undefined;
}
