import type {EventBus} from '../extensions/event-bus.js';
import {readCancel} from '../extensions/event-answers.js';
import type {Session} from '../session/session-store.js';
import {applyRewind, type RewindChoice, type RewindOutcome} from './apply-rewind.js';
import type {FileHistory} from './file-history.js';
import type {RewindPlan} from './plan-rewind.js';

/** What a rewind did, or the extension that refused it. */
export type GatedRewind = RewindOutcome | {refused: {by: string; reason: string | null}};

/**
 * A rewind the person chose (/rewind), between the extensions' events: any
 * `SessionBeforeTree` gate may refuse it before anything changes (a throw
 * or a timeout lets it proceed, as for every `SessionBefore*` gate), and
 * `SessionTree` observers hear what was done.
 */
export async function gatedRewind(plan: RewindPlan, choice: RewindChoice, parts: {session: Session; history: FileHistory | null; events: EventBus | null}): Promise<GatedRewind> {
	const {session, events} = parts;
	const target = {targetIndex: plan.point.index};
	if (events?.has('SessionBeforeTree')) {
		const payload = {sessionId: session.id, path: session.path, messageCount: session.messages.length, ...target, prompt: plan.point.text, conversation: choice.conversation, files: choice.files};
		const gate = await events.gate('SessionBeforeTree', payload, readCancel);
		if (gate.decided && !gate.allow) return {refused: {by: gate.by, reason: gate.reason}};
	}

	const outcome = await applyRewind(plan, choice, session, parts.history);
	events?.observe('SessionTree', {sessionId: session.id, path: session.path, messageCount: session.messages.length, ...target, conversation: outcome.conversation, restored: outcome.restored});
	return outcome;
}
