import {cutProblem, latestRequestIndex} from '../../source/core/history/compaction.js';
import type {Message} from '../../source/core/messages.js';

/**
 * The default cut (spec/platform.md §7): as late as the rules allow, so the most is
 * summarised, yet never past the person's latest request, never leaving
 * fewer than `keepRecent` messages after it, and never between a tool call
 * and its result (or its images). Null when no safe old prefix exists.
 */
export function chooseCut(history: readonly Message[], keepRecent: number): number | null {
	if (history[0]?.role !== 'system') return null;
	for (let cut = Math.min(latestRequestIndex(history), history.length - keepRecent); cut >= 2; cut--) {
		// The core's own rule for a cut, so the two never disagree.
		if (cutProblem(history, cut) === null) return cut;
	}

	return null;
}
