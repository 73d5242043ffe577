import type {EventBus} from '../extensions/event-bus.js';
import {readCancel} from '../extensions/event-answers.js';
import type {Session} from './session-store.js';

/** Why the running session is left for another: /clear opens a new one, /resume another of the workspace's, /fork a copy. */
export type SwitchReason = 'new' | 'resume' | 'fork';

export type SwitchGate = {ok: true} | {ok: false; by: string; reason: string | null};

/**
 * The extensions' `SessionBeforeSwitch` gate (`{reason, sessionId, path,
 * targetPath}`; `targetPath` null for a fork, whose copy is not made yet):
 * any `{cancel: true, reason?}` keeps the running session; a throw or a
 * timeout lets the switch go on (spec/extensions.md §5).
 */
export async function askBeforeSwitch(events: EventBus | null, session: Session, reason: SwitchReason, targetPath: string | null): Promise<SwitchGate> {
	if (!events?.has('SessionBeforeSwitch')) return {ok: true};
	const gate = await events.gate('SessionBeforeSwitch', {reason, sessionId: session.id, path: session.path, targetPath}, readCancel);
	return gate.decided && !gate.allow ? {ok: false, by: gate.by, reason: gate.reason} : {ok: true};
}

/** `SessionShutdown` for the session left, then (once `next` is in place) `SessionStart` for it, both with the switch's reason. */
export async function bracketSwitch(events: EventBus | null, switched: {from: Session; to: Session; reason: SwitchReason; cwd: string}, swap: () => Promise<void>): Promise<void> {
	const {from, to, reason, cwd} = switched;
	await events?.advisory('SessionShutdown', {reason, sessionId: from.id});
	await swap();
	await events?.advisory('SessionStart', {reason, sessionId: to.id, path: to.path, cwd});
}

/** `SessionInfoChanged` after /rename: the session's new path and name, and the path it had. */
export function sessionRenamed(events: EventBus | null, session: Session, previousPath: string, name: string): void {
	events?.observe('SessionInfoChanged', {sessionId: session.id, path: session.path, previousPath, name});
}
