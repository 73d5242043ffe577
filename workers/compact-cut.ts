import {latestRequestIndex} from '../source/core/agent/compaction.js';
import type {Message} from '../source/core/messages.js';

/**
 * The default cut (seed §7): as late as the rules allow, so the most is
 * summarised, yet never past the person's latest request, never leaving
 * fewer than `keepRecent` messages after it, and never between a tool call
 * and its result (or its images). Null when no safe old prefix exists.
 */
export function chooseCut(history: readonly Message[], keepRecent: number): number | null {
	if (history[0]?.role !== 'system') return null;
	const latest = latestRequestIndex(history);
	for (let cut = Math.min(latest, history.length - keepRecent); cut >= 2; cut--) {
		const first = history[cut]!;
		if (first.role === 'tool' || (first.role === 'user' && first._tool_call_id !== undefined)) continue;
		return cut;
	}

	return null;
}
