import * as z from 'zod/mini';
import '../zod-english.js';
import type {ImagePart, TextPart, UserContent} from '../messages.js';
import {checkImageParts, MAX_IMAGES_PER_BATCH} from '../tools/images.js';
import {RuntimeActionError} from './runtime-link.js';
import {CUSTOM_TYPE_PATTERN, MAX_CUSTOM_TYPE_LENGTH} from './check-command.js';

export {CUSTOM_TYPE_PATTERN, MAX_CUSTOM_TYPE_LENGTH} from './check-command.js';

/**
 * The arguments of `api.runtime.appendEntry` and `.sendMessage`
 * (spec/extensions.md §3, adding context during a run and the delivery
 * options), checked field by field: an extension's arguments come from
 * outside. Every refusal is an `invalid_argument` naming the extension, the
 * field and the limit.
 */

/** A `customType`: 1–64 of `A-Z a-z 0-9 _ . : -` (spec/extensions.md §3; i's own rule, which keeps names printable and greppable). */
/** An entry's `data` and a message's `details`, as JSON: at most 256 KiB (spec/extensions.md §3; i's own bound: a session line should stay small). */
export const MAX_DELIVERY_DATA_BYTES = 256 * 1024;
/** A message's text (all its text blocks, UTF-8): at most 256 KiB. */
export const MAX_DELIVERY_TEXT_BYTES = 256 * 1024;
/** Images a message may carry: as many as a tool batch (8), each a PNG, JPEG, GIF or WebP of at most 8 MiB. */
export const MAX_DELIVERY_IMAGES = MAX_IMAGES_PER_BATCH;

/** A message as the history will keep it, before it has an ID. */
export interface CheckedMessage {
	content: UserContent;
	/** Absent for a plain `{text}` or user message. */
	customType?: string;
	display: boolean;
	details?: unknown;
}

export type AppendEntryRequest = {kind: 'entry'; customType: string; data: unknown} | {kind: 'message'; message: CheckedMessage};

export type DeliverAs = 'steer' | 'followUp' | 'nextTurn';

export interface SendMessageRequest {
	message: CheckedMessage;
	triggerTurn?: boolean;
	deliverAs?: DeliverAs;
}

const customType = z.string().check(z.regex(CUSTOM_TYPE_PATTERN, `must be 1–${MAX_CUSTOM_TYPE_LENGTH} characters of A-Z a-z 0-9 _ . : -`));

const block = z.discriminatedUnion('type', [
	z.strictObject({type: z.literal('text'), text: z.string()}),
	// pi's image block: base64 data and its media type.
	z.strictObject({type: z.literal('image'), data: z.string(), mimeType: z.string()}),
	// i's own (a tool result's): a base64 data URL.
	z.strictObject({type: z.literal('image_url'), image_url: z.strictObject({url: z.string()})}),
]);

const content = z.nullish(z.union([z.string(), z.array(block)]));

/** pi's custom message: `customType`, `content` (string, blocks, or nothing), `display`, `details`. */
const customMessage = z.strictObject({
	role: z.optional(z.literal('custom')),
	customType,
	content,
	display: z.optional(z.boolean()),
	details: z.optional(z.unknown()),
	timestamp: z.optional(z.number()),
});

/** A user message as the history holds one. */
const userMessage = z.strictObject({role: z.literal('user'), content: z.union([z.string(), z.array(block)]), timestamp: z.optional(z.number())});

const message = z.union([userMessage, customMessage]);

const deliverAs = z.enum(['steer', 'followUp', 'nextTurn']);
const options = z.strictObject({triggerTurn: z.optional(z.boolean()), deliverAs: z.optional(deliverAs)});

const entryRequest = z.strictObject({customType, data: z.optional(z.unknown())});
const appendMessageRequest = z.strictObject({message});

const sendRequest = z.strictObject({
	role: z.optional(z.literal('custom')),
	message: z.optional(message),
	text: z.optional(z.string()),
	customType: z.optional(customType),
	content,
	display: z.optional(z.boolean()),
	details: z.optional(z.unknown()),
	options: z.optional(options),
	triggerTurn: z.optional(z.boolean()),
	deliverAs: z.optional(deliverAs),
});

export function checkAppendEntry(extension: string, request: unknown): AppendEntryRequest {
	const fail = refusal('appendEntry', extension);
	const value = plainObject(request, fail, '{customType, data} or {message}');
	if ('message' in value) {
		const parsed = parse(appendMessageRequest, value, fail);
		return {kind: 'message', message: toMessage(parsed.message, fail, 'message.', false)};
	}

	const parsed = parse(entryRequest, value, fail);
	return {kind: 'entry', customType: parsed.customType, data: json(parsed.data, 'data', fail) ?? null};
}

export function checkSendMessage(extension: string, request: unknown): SendMessageRequest {
	const fail = refusal('sendMessage', extension);
	const value = plainObject(request, fail, '{message}, {text} or {customType, content, display?, details?}, with options in `options` or at the top level');
	const parsed = parse(sendRequest, value, fail);
	const shapes = (['message', 'text', 'customType'] as const).filter(key => parsed[key] !== undefined);
	if (shapes.length !== 1) fail(shapes.length === 0 ? 'give one of message, text or customType' : `give one of message, text or customType, not ${shapes.join(' and ')}`);
	const shape = shapes[0]!;
	if (shape !== 'customType') {
		const stray = (['content', 'display', 'details'] as const).filter(key => value[key] !== undefined);
		if (stray.length > 0) fail(`${stray.join(', ')} belong${stray.length === 1 ? 's' : ''} to a custom message ({customType, content, …}); with ${shape} they are not read`);
	}

	const topLevel = (['triggerTurn', 'deliverAs'] as const).filter(key => parsed[key] !== undefined);
	if (parsed.options !== undefined && topLevel.length > 0) fail(`options are given both in options and at the top level (${topLevel.join(', ')}); use one of the two`);
	const chosen = parsed.options ?? {triggerTurn: parsed.triggerTurn, deliverAs: parsed.deliverAs};
	const checked =
		shape === 'text'
			? toMessage({role: 'user', content: parsed.text!}, fail, 'text', true)
			: shape === 'message'
				? toMessage(parsed.message!, fail, 'message.', true)
				: toMessage({customType: parsed.customType!, content: parsed.content, display: parsed.display, details: parsed.details}, fail, '', true);
	return {
		message: checked,
		...(chosen.triggerTurn === undefined ? {} : {triggerTurn: chosen.triggerTurn}),
		...(chosen.deliverAs === undefined ? {} : {deliverAs: chosen.deliverAs}),
	};
}

type Fail = (problem: string) => never;

function refusal(action: string, extension: string): Fail {
	return problem => {
		throw new RuntimeActionError(action, 'invalid_argument', `extension ${extension}: ${problem}`);
	};
}

function plainObject(value: unknown, fail: Fail, shapes: string): Record<string, unknown> {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(`the request must be an object: ${shapes}`);
	return value as Record<string, unknown>;
}

function parse<T>(schema: z.ZodMiniType<T>, value: unknown, fail: Fail): T {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const issue = deepest(result.error.issues[0]);
	const path = issue && issue.path.length > 0 ? issue.path.join('.') : '';
	const keys = issue?.code === 'unrecognized_keys' ? (issue as {keys: string[]}).keys : [];
	if (keys.length > 0) fail(`${path === '' ? '' : `${path}: `}unknown field${keys.length === 1 ? '' : 's'} ${keys.map(key => JSON.stringify(key)).join(', ')}`);
	fail(`${path === '' ? 'the request' : path}: ${issue?.message ?? 'invalid'}`);
}

type Issue = z.core.$ZodIssue;

/**
 * The issue to report: for a value that matched no branch of a union (a
 * string or blocks, a user or a custom message), the branch's issue that
 * got furthest into the value, with the full path, instead of zod's bare
 * "Invalid input".
 */
function deepest(issue: Issue | undefined): Issue | undefined {
	if (issue?.code !== 'invalid_union' || issue.errors.length === 0) return issue;
	let best: Issue | undefined;
	for (const branch of issue.errors) {
		const inner = deepest(branch[0]);
		if (inner && (!best || inner.path.length > best.path.length)) best = inner;
	}

	return best && best.path.length > 0 ? {...best, path: [...issue.path, ...best.path]} : issue;
}

type Block = z.infer<typeof block>;
type ParsedMessage = {role: 'user'; content: string | Block[]} | {customType: string; content?: string | Block[] | null | undefined; display?: boolean | undefined; details?: unknown};

/** The history's form of a message; `display` defaults to shown for a plain message and hidden for a custom one (pi's default). */
function toMessage(parsed: ParsedMessage, fail: Fail, prefix: string, displayDefault: boolean): CheckedMessage {
	const where = (field: string) => (prefix === 'text' ? 'text' : `${prefix}${field}`);
	const blocks = parsed.content ?? [];
	const parts: Array<TextPart | ImagePart> = [];
	let textBytes = 0;
	const images: Array<{index: number; part: ImagePart}> = [];
	if (typeof blocks === 'string') textBytes = Buffer.byteLength(blocks);
	else {
		for (const [index, item] of blocks.entries()) {
			if (item.type === 'text') {
				textBytes += Buffer.byteLength(item.text);
				parts.push({type: 'text', text: item.text});
				continue;
			}

			const url = item.type === 'image' ? `data:${item.mimeType};base64,${item.data}` : item.image_url.url;
			const part: ImagePart = {type: 'image_url', image_url: {url}};
			images.push({index, part});
			parts.push(part);
		}
	}

	if (textBytes > MAX_DELIVERY_TEXT_BYTES) fail(`${where('content')}: the text is ${textBytes} bytes, over the limit of ${MAX_DELIVERY_TEXT_BYTES} (256 KiB)`);
	if (images.length > MAX_DELIVERY_IMAGES) fail(`${where('content')}: ${images.length} images, over the limit of ${MAX_DELIVERY_IMAGES}`);
	for (const {index, part} of images) {
		try {
			checkImageParts([part]);
		} catch (error) {
			fail(`${where('content')}[${index}]: ${(error as Error).message.replace(/^images\[0\]: /, '')}`);
		}
	}

	const isCustom = 'customType' in parsed;
	const checked: CheckedMessage = {content: typeof blocks === 'string' ? blocks : parts, display: (isCustom ? parsed.display : undefined) ?? displayDefault};
	if (isCustom) {
		checked.customType = parsed.customType;
		checked.display = parsed.display ?? false;
		const details = json(parsed.details, where('details'), fail);
		if (details !== undefined) checked.details = details;
	}

	return checked;
}

/** A value as JSON keeps it (what the session file will hold), within the size limit; undefined stays undefined. */
function json(value: unknown, field: string, fail: Fail): unknown {
	if (value === undefined) return undefined;
	let text: string | undefined;
	try {
		text = JSON.stringify(value);
	} catch (error) {
		fail(`${field} must be JSON data (${(error as Error).message})`);
	}

	if (text === undefined) fail(`${field} must be JSON data (got ${typeof value})`);
	const lost = lostInJson(value, field);
	if (lost !== null) fail(`${field} must be JSON data: ${lost}, which JSON cannot hold (it would be stored as something else)`);
	const bytes = Buffer.byteLength(text);
	if (bytes > MAX_DELIVERY_DATA_BYTES) fail(`${field} is ${bytes} bytes as JSON, over the limit of ${MAX_DELIVERY_DATA_BYTES} (256 KiB)`);
	return JSON.parse(text);
}

/** The first value JSON would not keep as it is (NaN, Infinity, undefined in a list, a function, a Map…), with where it is; null when there is none. */
function lostInJson(value: unknown, at: string, seen = new Set<object>()): string | null {
	if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
	if (typeof value === 'number') return Number.isFinite(value) ? null : `${at} is ${value}`;
	if (typeof value !== 'object') return `${at} is ${typeof value === 'function' ? 'a function' : typeof value}`;
	// A cycle was refused by JSON.stringify already; a shared object is looked at once.
	if (seen.has(value)) return null;
	seen.add(value);
	if (Array.isArray(value)) {
		for (const [index, item] of value.entries()) {
			const lost = lostInJson(item, `${at}[${index}]`, seen);
			if (lost !== null) return lost;
		}

		return null;
	}

	const prototype = Object.getPrototypeOf(value);
	if (prototype !== Object.prototype && prototype !== null) return `${at} is a ${(value as object).constructor?.name ?? 'non-plain object'}`;
	for (const [key, item] of Object.entries(value)) {
		// A property set to undefined is an absent one, in JSON as in JavaScript.
		if (item === undefined) continue;
		const lost = lostInJson(item, `${at}.${key}`, seen);
		if (lost !== null) return lost;
	}

	return null;
}
