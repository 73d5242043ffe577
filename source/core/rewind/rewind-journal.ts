import * as z from 'zod/mini';
import '../zod-english.js';

/**
 * The lines of a workspace's rewind journal (`<state>/rewind/journal.jsonl`):
 * one `change` per file an `edit` or `write` replaced (or a rewind put
 * back), naming the session, the before-image it kept (a blob named by its
 * sha256) and the digest of what was written; `void` cancels a change whose
 * write failed; `dropped` says which changes of a session were let go to keep
 * the store within its bound, and which files they touched.
 */

const digest = z.string().check(z.regex(/^[0-9a-f]{64}$/));

const changeSchema = z.object({
	type: z.literal('change'),
	id: z.string().check(z.minLength(1)),
	session: z.string().check(z.minLength(1)),
	path: z.string().check(z.minLength(1)),
	/** The before-image's digest; null: there was no file; `not-kept`: it was too large to keep. */
	before: z.union([digest, z.null(), z.literal('not-kept')]),
	before_bytes: z.int().check(z.nonnegative()),
	/** The digest of what was written; null: the file was removed (a rewind of a file that did not exist before). */
	after: z.nullable(digest),
	/** Milliseconds since the epoch; a prompt's `_sent_at` is compared with it. */
	time: z.number(),
	by: z.enum(['edit', 'write', 'rewind']),
});

const voidSchema = z.object({type: z.literal('void'), id: z.string().check(z.minLength(1))});

const droppedSchema = z.object({
	type: z.literal('dropped'),
	session: z.string().check(z.minLength(1)),
	/** The time of the newest change dropped. */
	through: z.number(),
	count: z.int().check(z.positive()),
	/** The files those changes touched (at most MAX_DROPPED_PATHS; `more` says there were others). */
	paths: z.array(z.string()),
	more: z.boolean(),
});

export type ChangeRecord = z.infer<typeof changeSchema>;
export type DroppedRecord = z.infer<typeof droppedSchema>;
type JournalLine = ChangeRecord | z.infer<typeof voidSchema> | DroppedRecord;

/** A dropped line names at most this many files; past it, a rewind before it names none and says so. */
export const MAX_DROPPED_PATHS = 200;

const lineSchema = z.discriminatedUnion('type', [changeSchema, voidSchema, droppedSchema]);

/** The journal as read: the changes in the order they were made (voided ones left out), what was dropped, and how many lines could not be read. */
export interface Journal {
	changes: ChangeRecord[];
	dropped: DroppedRecord[];
	unreadable: number;
}

export function parseJournal(text: string): Journal {
	const changes: ChangeRecord[] = [];
	const dropped: DroppedRecord[] = [];
	const voided = new Set<string>();
	let unreadable = 0;
	for (const line of text.split('\n')) {
		if (line.trim() === '') continue;
		const parsed = readLine(line);
		if (!parsed) unreadable++;
		else if (parsed.type === 'change') changes.push(parsed);
		else if (parsed.type === 'void') voided.add(parsed.id);
		else dropped.push(parsed);
	}

	return {changes: voided.size === 0 ? changes : changes.filter(change => !voided.has(change.id)), dropped, unreadable};
}

function readLine(line: string): JournalLine | null {
	try {
		const result = lineSchema.safeParse(JSON.parse(line));
		return result.success ? result.data : null;
	} catch {
		return null;
	}
}

export function journalLine(line: JournalLine): string {
	return `${JSON.stringify(line)}\n`;
}

/** The journal written whole again (after the oldest changes were dropped): the dropped lines first, then the changes kept. */
export function journalText(journal: Pick<Journal, 'changes' | 'dropped'>): string {
	return [...journal.dropped, ...journal.changes].map(journalLine).join('');
}
