import type {SessionSummary} from '../../core/session/list-sessions.js';
import type {ChoiceOption, ChoiceRequest} from '../brokers/chooser-broker.js';

/** The first words of a session's first message, as the picker shows them. */
export const PICKER_TITLE_CHARS = 60;

/** `just now`, `5 min ago`, `3 h ago`, `2 days ago`; past a month the date. */
export function relativeTime(then: Date, now: Date): string {
	const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
	if (seconds < 60) return 'just now';
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes} min ago`;
	const hours = Math.floor(minutes / 60);
	if (hours < 24) return `${hours} h ago`;
	const days = Math.floor(hours / 24);
	if (days < 31) return `${days} day${days === 1 ? '' : 's'} ago`;
	return then.toISOString().slice(0, 10);
}

/**
 * The chooser of /resume and --resume: one line per session, newest first,
 * its name, then when it was last saved, its message count and its first
 * words (which the filter also searches). `current` (the session open here)
 * and sessions another i has open are marked and said so.
 */
export function sessionPickerRequest(summaries: readonly SessionSummary[], now: Date, current: string | null): ChoiceRequest {
	const options: ChoiceOption[] = summaries.map(summary => {
		const when = relativeTime(summary.updated, now);
		const words: string[] = [when];
		if (summary.status === 'damaged') {
			words.push(`damaged: ${summary.problem}`);
		} else {
			words.push(summary.messages === null ? 'messages unknown' : `${summary.messages}${summary.stale ? '+' : ''} message${summary.messages === 1 ? '' : 's'}`);
			if (summary.title) words.push(cut(summary.title, PICKER_TITLE_CHARS));
		}
		if (summary.path === current) words.push('(open here)');
		else if (summary.lockedBy) words.push(summary.lockedBy.kind === 'held' ? `(in use by process ${summary.lockedBy.pid})` : '(in use)');
		return {value: summary.name, label: summary.name, description: words.join(' · '), marked: summary.lockedBy !== null || summary.path === current};
	});
	return {title: `Resume a session (${summaries.length})`, options, legend: '● open in an i now'};
}

/** Why a chosen session cannot be opened, or null when it can. */
export function cannotOpen(summary: SessionSummary, current: string | null): string | null {
	if (summary.path === current) return `${summary.name} is the session open here`;
	if (summary.status === 'damaged') return `${summary.name} cannot be opened: ${summary.problem}`;
	if (summary.lockedBy) {
		const who = summary.lockedBy.kind === 'held' ? `process ${summary.lockedBy.pid}` : 'another i';
		return `${summary.name} is open in ${who}; it is not opened twice (leave it there first)`;
	}
	return null;
}

/** `text` in at most `chars` characters, an ellipsis marking a cut. */
export function cut(text: string, chars: number): string {
	const all = [...text];
	return all.length <= chars ? text : `${all.slice(0, chars - 1).join('')}…`;
}
