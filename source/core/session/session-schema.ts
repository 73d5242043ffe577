import * as z from 'zod/mini';
import '../zod-english.js';
import {messageSchema} from '../history/message-schema.js';

/**
 * Shapes of the lines of a session file (JSON Lines). Objects are loose so
 * `_`-prefixed metadata (and fields a newer `i` adds) survive a round trip;
 * the fields our code reads are still checked.
 */

export const sessionFormatVersion = 1;

export const sessionHeaderSchema = z.looseObject({
	type: z.literal('i-session'),
	version: z.number().check(z.int(), z.positive()),
	id: z.uuid(),
	workspace: z.string().check(z.minLength(1)),
	created: z.iso.datetime(),
});

export type SessionHeader = z.infer<typeof sessionHeaderSchema>;

export const sessionStepSchema = z.looseObject({
	type: z.literal('step'),
	n: z.number().check(z.int(), z.positive()),
	messages: z.array(messageSchema).check(z.minLength(1)),
	/** A compaction checkpoint: these messages are the whole history from here on; the steps before stay as its backup. */
	replaces_history: z.optional(z.literal(true)),
});

/** The first issue of a failed parse, as `path: message`, for one-line errors. */
export function firstIssue(error: z.core.$ZodError): string {
	const issue = error.issues[0];
	if (!issue) return 'invalid';
	return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
