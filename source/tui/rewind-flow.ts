import type {Agent} from '../core/session/agent.js';
import type {RewindChoice, RewindOutcome} from '../core/rewind/apply-rewind.js';
import type {RewindPlan} from '../core/rewind/plan-rewind.js';
import type {RewindPoint} from '../core/rewind/rewind-points.js';
import type {ChoiceOption, ChooserBroker} from './brokers/chooser-broker.js';
import type {ChatStore} from './chat-store.js';
import type {EditorDraft} from './editor-draft.js';
import {cut, relativeTime} from './commands/session-picker.js';

/** A prompt's first words, as the rewind list shows them. */
const PROMPT_CHARS = 70;
/** Files named in one line of the list; the rest are counted. */
const NAMED_FILES = 4;

export interface RewindParts {
	agent: Pick<Agent, 'rewindPoints' | 'planRewind' | 'rewind'>;
	chooser: Pick<ChooserBroker, 'ask'>;
	store: Pick<ChatStore, 'notice' | 'setBusy'>;
	draft: Pick<EditorDraft, 'set'>;
}

/**
 * /rewind and Esc twice: the person picks one of the session's prompts
 * (newest first), then whether the conversation, the files `edit` and
 * `write` changed since, or both go back to how they were just before it.
 * A file changed since by anything else is named and overwritten only when
 * the person says so. The rewound prompt goes back into the editor.
 */
export async function rewindFlow(parts: RewindParts, now = new Date()): Promise<void> {
	const {agent, chooser, store} = parts;
	const points = agent.rewindPoints();
	if (points.length === 0) {
		store.notice('info', 'nothing to rewind: this session has no prompt yet');
		return;
	}

	const options: ChoiceOption[] = points.map((point, index) => ({
		value: String(index),
		label: `${index + 1}. ${cut(oneLine(point.text), PROMPT_CHARS)}${point.images > 0 ? ` [${point.images} image${point.images === 1 ? '' : 's'}]` : ''}`,
		...(point.sentAt === null ? {} : {description: relativeTime(new Date(point.sentAt), now)}),
	}));
	const chosen = await chooser.ask({title: 'Rewind to just before which prompt?', options: options.reverse()});
	const point = chosen === null ? undefined : points[Number(chosen)];
	if (!point) return;
	const plan = await agent.planRewind(point);
	for (const note of plan.notes) store.notice('warning', note);
	const choice = await chooseWhat(parts, plan);
	if (choice === null) return;
	store.setBusy(true);
	try {
		const outcome = await agent.rewind(plan, choice);
		if ('refused' in outcome) {
			const {by, reason} = outcome.refused;
			store.notice('warning', `extension ${by} refused the rewind (SessionBeforeTree)${reason === null ? '' : `: ${reason}`}; nothing changed`);
			return;
		}

		report(parts, outcome, point);
	} finally {
		store.setBusy(false);
	}
}

/** What to rewind, and whether files changed outside may be overwritten; null: cancelled. */
async function chooseWhat(parts: RewindParts, plan: RewindPlan): Promise<RewindChoice | null> {
	const restorable = plan.files.filter(file => file.lost === null);
	const title = `Rewind to just before "${cut(oneLine(plan.point.text), 40)}"`;
	const kept = 'the conversation goes back to just before this prompt';
	if (restorable.length === 0) {
		const only = await parts.chooser.ask({title, options: [{value: 'conversation', label: 'Rewind the conversation', description: `${kept}; no file to restore`}]});
		return only === null ? null : {conversation: true, files: false, overwrite: false};
	}

	const files = named(restorable.map(file => (file.action === 'remove' ? `${file.display} (remove)` : file.display)));
	const what = await parts.chooser.ask({
		title,
		options: [
			{value: 'both', label: 'Rewind the conversation and the files', description: `${kept}; restore ${files}`},
			{value: 'conversation', label: 'Rewind the conversation only', description: `${kept}; the files stay as they are`},
			{value: 'files', label: 'Restore the files only', description: `restore ${files}; the conversation stays`},
		],
	});
	if (what === null) return null;
	const choice = {conversation: what !== 'files', files: what !== 'conversation', overwrite: false};
	const outside = restorable.filter(file => file.changedOutside);
	if (!choice.files || outside.length === 0) return choice;
	const answer = await parts.chooser.ask({
		title: `${named(outside.map(file => file.display))} changed since, not by this session: overwrite ${outside.length === 1 ? 'it' : 'them'}?`,
		options: [
			{value: 'keep', label: `Leave ${outside.length === 1 ? 'it' : 'them'} as ${outside.length === 1 ? 'it is' : 'they are'}`, description: 'restore the other files only'},
			{value: 'overwrite', label: 'Overwrite with the version from before the prompt', description: 'what is there now is kept in file history'},
		],
	});
	return answer === null ? null : {...choice, overwrite: answer === 'overwrite'};
}

function report(parts: RewindParts, outcome: RewindOutcome, point: RewindPoint): void {
	const {store} = parts;
	if (outcome.restored.length > 0) store.notice('info', `restored ${named(outcome.restored)}`);
	for (const skipped of outcome.skipped) store.notice('warning', `left ${skipped.display} as it is: ${skipped.why}`);
	if (!outcome.conversation) return;
	store.notice(
		'info',
		`rewound the conversation to just before "${cut(oneLine(point.text), 40)}": the transcript above from that prompt on is no longer in it; ${point.images > 0 ? 'its words are' : 'the prompt is'} back in the editor`,
	);
	parts.draft.set(point.text);
}

function named(names: readonly string[]): string {
	const shown = names.slice(0, NAMED_FILES).join(', ');
	return names.length > NAMED_FILES ? `${shown} and ${names.length - NAMED_FILES} more` : shown;
}

function oneLine(text: string): string {
	return text.replaceAll(/\s+/g, ' ').trim();
}
