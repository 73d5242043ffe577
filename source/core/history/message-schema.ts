import * as z from 'zod/mini';
import '../zod-english.js';

/**
 * The shape of a history message as the core keeps it, for everything that
 * reads histories from outside: session files, hook answers, the workers.
 * Objects are loose so `_`-prefixed metadata survives; the fields read are
 * checked.
 */

const textPartSchema = z.looseObject({type: z.literal('text'), text: z.string()});
const imagePartSchema = z.looseObject({type: z.literal('image_url'), image_url: z.looseObject({url: z.string()})});

const toolCallSchema = z.looseObject({
	id: z.string(),
	type: z.literal('function'),
	function: z.looseObject({name: z.string(), arguments: z.string()}),
});

export const userContentSchema = z.union([z.string(), z.array(z.discriminatedUnion('type', [textPartSchema, imagePartSchema]))]);

export const messageSchema = z.discriminatedUnion('role', [
	z.looseObject({role: z.literal('system'), content: z.string()}),
	z.looseObject({
		role: z.literal('user'),
		content: userContentSchema,
		_tool_call_id: z.optional(z.string()),
	}),
	z.looseObject({
		role: z.literal('assistant'),
		content: z.nullable(z.string()),
		tool_calls: z.optional(z.array(toolCallSchema)),
		reasoning_content: z.optional(z.string()),
		_anthropic_content: z.optional(z.array(z.unknown())),
		_responses_output: z.optional(z.array(z.unknown())),
	}),
	z.looseObject({role: z.literal('tool'), tool_call_id: z.string(), content: z.string(), _is_error: z.optional(z.boolean())}),
]);
