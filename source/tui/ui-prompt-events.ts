import type {EventBus} from '../core/extensions/event-bus.js';

/** One of the chat screen's questions, as UiPromptStart shows it (docs/extensions/authoring.md): i's own, or an extension's dialog. */
export type UiPrompt =
	| {id: string; kind: 'approval'; tool: string; title: string}
	| {id: string; kind: 'trust'; workspace: string; extensions: string[]; mcpServers: string[]; allowRules: string[]; sandboxSettings: string[]; modelEndpoints: string[]}
	| {id: string; kind: 'dialog'; dialog: 'select' | 'confirm' | 'input'; extension: string; title: string};

/**
 * How a question was left: the person's answer (`chosen` an option, `entered`
 * a text), or `cancelled` when it went away unanswered (Esc on a dialog, an
 * interrupt, leaving, a timeout).
 */
export type UiPromptAnswer = 'once' | 'always' | 'remember' | 'deny' | 'yes' | 'no' | 'chosen' | 'entered' | 'cancelled';

/** What UiPromptEnd adds for a dialog: why it was cancelled, or the value chosen or typed (never a secret input's). */
export interface UiPromptDetail {
	reason?: string;
	value?: string;
}

/** Told when a question appears and when it goes. */
export interface PromptObserver {
	started(prompt: UiPrompt): void;
	ended(prompt: UiPrompt, answer: UiPromptAnswer, detail?: UiPromptDetail): void;
}

/**
 * UiPromptStart / UiPromptEnd (observe events, spec/extensions.md §5)
 * around the chat screen's questions. `bus` is read at each question: the
 * extensions' handlers arrive while the screen is already up.
 */
export function uiPromptEvents(bus: () => EventBus | null): PromptObserver {
	return {
		started(prompt) {
			bus()?.observe('UiPromptStart', prompt);
		},
		ended(prompt, answer, detail) {
			bus()?.observe('UiPromptEnd', {id: prompt.id, kind: prompt.kind, answer, ...detail});
		},
	};
}
