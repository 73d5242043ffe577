import type {Session} from './session-store.js';
import type {EventBus} from '../extensions/event-bus.js';
import {readCancel} from '../extensions/event-answers.js';
import {forkWorkspaceSession} from './workspace-sessions.js';

export type ForkOutcome = {ok: true; fork: Session} | {ok: false; by: string; reason: string | null};

/**
 * `/fork`: asks the extensions' `SessionBeforeFork` gate (`{sessionId, path,
 * messageCount}`; any `{cancel: true, reason?}` refuses, a throw or a timeout
 * lets it proceed), then copies the history into a new session of `folder`.
 * The original session is left as it was either way.
 */
export async function forkSession(session: Session, folder: string, events: EventBus | null, warn?: (message: string) => void): Promise<ForkOutcome> {
	if (events?.has('SessionBeforeFork')) {
		const gate = await events.gate('SessionBeforeFork', {sessionId: session.id, path: session.path, messageCount: session.messages.length}, readCancel);
		if (gate.decided && !gate.allow) return {ok: false, by: gate.by, reason: gate.reason};
	}
	return {ok: true, fork: await forkWorkspaceSession(session, folder, warn)};
}
