import type {Message} from '../../source/core/messages.js';
import {SUMMARY_MARKER} from '../../source/core/history/compaction.js';
import {ContextSnapshotError, contextMark, parseContextMessage, renderContextMessage, type ContextMessage} from './context-snapshot-message.js';

/**
 * Context snapshots (spec/platform.md §7, last paragraph), as pure functions for the
 * workers that put a source's entries (memory, skills) into the
 * conversation: a full snapshot first, then append-only upsert/remove
 * deltas, nothing when the content is unchanged; and, when a compaction
 * summarised the full snapshot away, the latest one restored in
 * `before_compact_commit`. The history is never changed, only added to.
 */

export {ContextSnapshotError, MAX_ENTRY_BYTES, MAX_KEY_CHARS, MAX_SNAPSHOT_BYTES, CONTEXT_MARKER, type ContextMessage} from './context-snapshot-message.js';

/** A source's content: key → text. */
export type Entries = Readonly<Record<string, string>>;

/**
 * The entries the model currently sees from `source`: its latest full
 * snapshot with the deltas after it applied in order, or null when the
 * history holds no full snapshot of it (deltas without one mean nothing).
 */
export function stateFromHistory(messages: readonly Message[], source: string): Record<string, string> | null {
	const state = replay(messages, source);
	return state && Object.fromEntries(state);
}

function replay(messages: readonly Message[], source: string): Map<string, string> | null {
	let start = -1;
	for (let index = messages.length - 1; index >= 0; index--) {
		const mark = contextMark(messages[index]!);
		if (mark?.source === source && mark.kind === 'full') {
			start = index;
			break;
		}
	}

	if (start === -1) return null;
	let state = new Map<string, string>();
	for (const message of messages.slice(start)) {
		const mark = contextMark(message);
		if (mark?.source !== source) continue;
		const change = parseContextMessage(message, mark);
		if (change.kind === 'full') {
			state = new Map(change.entries);
			continue;
		}

		for (const [key, text] of change.upsert) state.set(key, text);
		for (const key of change.remove) state.delete(key);
	}

	return state;
}

/**
 * The messages to append so the model sees `entries`: none when it already
 * does (or when there is nothing to show and never was), a full snapshot
 * when the history has none, else one delta with only the added or changed
 * keys (upsert) and the removed ones (remove). Throws a ContextSnapshotError
 * when `entries` break a limit, checked on the full snapshot even when only
 * a delta goes out, since a compaction may have to restore the full one.
 */
export function contextUpdate(messages: readonly Message[], source: string, entries: Entries): ContextMessage[] {
	const wanted = entryMap(entries);
	const full = renderContextMessage(source, {kind: 'full', entries: wanted});
	const seen = replay(messages, source);
	if (seen === null) return wanted.size === 0 ? [] : [full];
	const upsert = new Map([...wanted].filter(([key, text]) => seen.get(key) !== text));
	const remove = [...seen.keys()].filter(key => !wanted.has(key));
	if (upsert.size === 0 && remove.length === 0) return [];
	return [renderContextMessage(source, {kind: 'delta', upsert, remove})];
}

/**
 * For `before_compact_commit`: the candidate ([system, summary, ...kept
 * tail]) with a full snapshot of `entries` inserted right after the summary
 * when the candidate holds no full snapshot of `source` any more, which is
 * what keeps the deltas left in the tail meaningful. A candidate that still
 * has one is returned as it is, and so is one with no trace of the source
 * when there is nothing to show.
 *
 * `entries` are the source's current entries, the worker's own: the hook
 * is given only the candidate, whose summary is free text, so the removed
 * snapshot cannot be rebuilt from it. This is exact in the ordinary case:
 * the snapshot messages are appended by before_turn, so the entries the
 * model last saw are the worker's current ones unless they changed in the
 * middle of a turn; and a delta sets or removes whole keys, so replaying the
 * tail's deltas over the latest state gives that state again. If the
 * entries did change mid-turn, the next before_turn's delta brings the
 * model up to date, as it would have without a compaction.
 */
export function restoreForCommit(candidate: readonly Message[], source: string, entries: Entries): Message[] {
	if (candidate[0]?.role !== 'system') throw new ContextSnapshotError('before_compact_commit: the candidate does not start with the system prompt');
	if ((candidate[1] as unknown as Record<string, unknown> | undefined)?.[SUMMARY_MARKER] !== true) {
		throw new ContextSnapshotError('before_compact_commit: the candidate has no summary message after the system prompt');
	}

	const marks = candidate.map(message => contextMark(message)).filter(mark => mark?.source === source);
	const wanted = entryMap(entries);
	if (marks.some(mark => mark?.kind === 'full')) return [...candidate];
	if (marks.length === 0 && wanted.size === 0) return [...candidate];
	// Index 2: after the summary and before everything that follows it, so the kept tail stays the candidate's verbatim suffix.
	return [...candidate.slice(0, 2), renderContextMessage(source, {kind: 'full', entries: wanted}), ...candidate.slice(2)];
}

function entryMap(entries: Entries): Map<string, string> {
	const map = new Map<string, string>();
	for (const [key, text] of Object.entries(entries)) {
		if (typeof text !== 'string') throw new ContextSnapshotError(`context entry ${JSON.stringify(key.slice(0, 40))} is not text`);
		map.set(key, text);
	}

	return map;
}
