import {isDeepStrictEqual} from 'node:util';
import type {Message} from '../messages.js';

/**
 * The pure rules of a compaction (spec/platform.md §7): where a cut may fall, what the
 * candidate history is, and when it may replace the original. The I/O shell
 * around them is compact-history.ts.
 */

/** Marks the message that carries a summary, so heads and plugins can tell it from a person's words. */
export const SUMMARY_MARKER = '_compact_summary';

/** Marks a context snapshot (memory, skills): reference data a plugin appended, not the person's words. */
export const CONTEXT_MARKER = '_context';

/**
 * The person's latest request: the last user message that is not a tool's
 * image message, a context snapshot appended after it, or a summary.
 */
export function latestRequestIndex(history: readonly Message[]): number {
	for (let index = history.length - 1; index >= 0; index--) {
		const message = history[index]!;
		const metadata = message as unknown as Record<string, unknown>;
		if (message.role === 'user' && message._tool_call_id === undefined && metadata[CONTEXT_MARKER] === undefined && metadata[SUMMARY_MARKER] === undefined) return index;
	}

	return -1;
}

/**
 * Why `cut` may not split `history` there, or null when it may. Messages
 * [1, cut) are summarised: the system prompt (message 0) and everything from
 * the cut on survive verbatim, the latest request among them, and no tool
 * call is separated from its result (or its images).
 */
export function cutProblem(history: readonly Message[], cut: unknown): string | null {
	if (typeof cut !== 'number' || !Number.isInteger(cut)) return `the cut must be a whole message index (got ${JSON.stringify(cut)})`;
	if (history[0]?.role !== 'system') return 'the history does not start with its system prompt';
	if (cut < 2) return `a cut at ${cut} leaves nothing to summarise after the system prompt`;
	const latest = latestRequestIndex(history);
	if (cut > latest) return `a cut at ${cut} would summarise the latest request (message ${latest}), which must survive verbatim`;
	const first = history[cut]!;
	if (first.role === 'tool' || (first.role === 'user' && first._tool_call_id !== undefined)) {
		return `a cut at ${cut} separates a tool call from its result`;
	}

	return null;
}

/** The summary stands in for messages [1, cut), as a user message marked as a summary. */
export function summaryMessage(summary: string): Message {
	return {role: 'user', content: `Summary of the earlier conversation (it replaces those messages):\n\n${summary}`, [SUMMARY_MARKER]: true} as Message;
}

export function buildCandidate(history: readonly Message[], cut: number, summary: string): Message[] {
	return [history[0]!, summaryMessage(summary), ...history.slice(cut)];
}

/**
 * What `before_compact_commit` hands back must keep the system prompt and
 * the kept tail verbatim; what it may change is the middle (restoring the
 * latest context snapshot after the summary).
 */
export function commitProblem(history: readonly Message[], cut: number, candidate: readonly Message[]): string | null {
	if (!isDeepStrictEqual(candidate[0], history[0])) return 'the system prompt changed';
	const tail = history.slice(cut);
	if (candidate.length < tail.length + 2) return 'the candidate lost the messages it was to keep';
	const candidateTail = candidate.slice(candidate.length - tail.length);
	if (!candidateTail.every((message, index) => isDeepStrictEqual(message, tail[index]))) return 'the kept messages changed';
	return null;
}

/** Local `_` metadata keys that still reach the wire: replayed verbatim by the Anthropic and Responses adapters. */
export const WIRE_METADATA: ReadonlySet<string> = new Set(['_anthropic_content', '_responses_output']);

/**
 * The estimate both histories are compared by: UTF-8 bytes of what goes on
 * the wire, a conservative stand-in for tokens that counts the same way for
 * both sides (never bytes saved passed off as tokens saved on one side only).
 */
export function estimateBytes(messages: readonly Message[]): number {
	return Buffer.byteLength(JSON.stringify(messages, (key, value: unknown) => (key.startsWith('_') && !WIRE_METADATA.has(key) ? undefined : value)));
}
