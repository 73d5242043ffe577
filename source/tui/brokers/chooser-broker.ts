import {printableLine} from '../../shared/output.js';
import {LineQuestion} from '../line-question.js';

/** One line of a chooser: what it answers, how it shows, and a mark (a provider whose key resolves). */
export interface ChoiceOption {
	value: string;
	label: string;
	description?: string;
	marked?: boolean;
}

export interface ChoiceRequest {
	title: string;
	options: readonly ChoiceOption[];
	/** What the mark means, said under the list: `● key ready`. */
	legend?: string;
	/** The value in use now (the session's model or provider): shown `(current)`, and the list opens on it. */
	current?: string | undefined;
	/** What Enter does, said under the list: `choose` by default (/model: `switch this session`). */
	enter?: string;
	/** What Esc does, said under the list: `cancel` by default (the first-run setup: `go back`, `leave`). */
	escape?: string;
}

export interface PendingChoice {
	id: string;
	request: ChoiceRequest;
	/** The chosen value, or null: cancelled (Esc). */
	answer(value: string | null): void;
}

/**
 * The chat screen's own pickers (/provider, /model, the first-run setup): a
 * list with a filter field, on the screen's one question line (after an
 * approval or a dialog that is up). Resolves with the chosen value, or null
 * when cancelled or when the person leaves.
 */
export class ChooserBroker extends LineQuestion<PendingChoice, string> {
	async ask(request: ChoiceRequest): Promise<string | null> {
		return this.askOnLine((count, settle) => ({
			id: `choice-${count}`,
			// Labels come from catalogues and models.json: shown without control characters, on one line each.
			request: {
				...request,
				options: request.options.map(option => ({...option, label: printableLine(option.label), ...(option.description === undefined ? {} : {description: printableLine(option.description)})})),
			},
			answer(value) {
				settle(value === null || request.options.some(option => option.value === value) ? value : null);
			},
		}));
	}
}
