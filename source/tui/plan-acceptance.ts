import type {PermissionMode} from '../core/agent/permission-mode.js';
import type {ChooserBroker} from './brokers/chooser-broker.js';
import type {ChatStore} from './chat-store.js';

/** The message that starts the work once the person accepts the plan. */
export const GO_AHEAD_MESSAGE = 'Go ahead with the plan.';

export interface PlanAcceptanceParts {
	mode: PermissionMode;
	chooser: Pick<ChooserBroker, 'ask'>;
	store: Pick<ChatStore, 'setStatus'>;
	/** Sends a message as the person's next turn. */
	send(text: string): void;
}

/**
 * When a turn ends with an answer in plan mode, the person accepts the plan
 * (the mode goes back to default, where edits ask again, and the model is
 * told to go ahead) or keeps planning (nothing happens; Esc does the same).
 */
export async function offerPlan(parts: PlanAcceptanceParts): Promise<void> {
	const chosen = await parts.chooser.ask({
		title: 'The plan: accept it and leave plan mode?',
		options: [
			{value: 'accept', label: 'Accept the plan', description: `leave plan mode (edits ask again) and send "${GO_AHEAD_MESSAGE}"`},
			{value: 'keep', label: 'Keep planning', description: 'stay in plan mode and type what to change'},
		],
		escape: 'keep planning',
	});
	// The person may have left plan mode with Shift+Tab meanwhile: accepting still starts the work, in the mode they chose.
	if (chosen !== 'accept') return;
	if (parts.mode.current === 'plan') {
		parts.mode.set('default');
		parts.store.setStatus({mode: 'default'});
	}

	parts.send(GO_AHEAD_MESSAGE);
}
