import type {EventBus} from '../core/extensions/event-bus.js';

/** One of `i`'s own questions in the chat screen, as UiPromptStart shows it (README "Extensions"). */
export type UiPrompt = {id: string; kind: 'approval'; tool: string; title: string} | {id: string; kind: 'trust'; workspace: string; extensions: string[]};

/** How a question was left: the person's answer, or `cancelled` when it went away unanswered (an interrupt, leaving). */
export type UiPromptAnswer = 'once' | 'always' | 'deny' | 'yes' | 'no' | 'cancelled';

/** Told when a question appears and when it goes. */
export interface PromptObserver {
	started(prompt: UiPrompt): void;
	ended(prompt: UiPrompt, answer: UiPromptAnswer): void;
}

/**
 * UiPromptStart / UiPromptEnd (observe events, EXTENSIONS.md "Events")
 * around the chat screen's questions. `bus` is read at each question: the
 * extensions' handlers arrive while the screen is already up.
 */
export function uiPromptEvents(bus: () => EventBus | null): PromptObserver {
	return {
		started(prompt) {
			bus()?.observe('UiPromptStart', prompt);
		},
		ended(prompt, answer) {
			bus()?.observe('UiPromptEnd', {id: prompt.id, kind: prompt.kind, answer});
		},
	};
}
