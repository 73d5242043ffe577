import {useRef} from 'react';
import type {ChatStore} from '../source/tui/chat-store.js';
import type {ChatState} from '../source/tui/chat-state.js';
import {firstLine, queuedCount, type MessageQueue, type QueuedMessage} from '../source/tui/message-queue.js';
import {slashCompletions} from '../source/tui/slash-commands.js';

/** A second Ctrl-C on an empty, idle prompt within this time leaves. */
export const EXIT_CONFIRM_MS = 2000;
/** A second Esc on an empty, idle prompt within this time opens /rewind. */
export const REWIND_ESC_MS = 1000;

export interface PromptKeyParts {
	store: Pick<ChatStore, 'notice'>;
	state: Pick<ChatState, 'busy' | 'starting' | 'commands'>;
	queue: Pick<MessageQueue, 'pop'> | undefined;
	queued: readonly QueuedMessage[];
	/** The editor's text now. */
	draft: string;
	onSubmit(text: string): boolean | void;
	onInterrupt(): void;
	onExit(): void;
	onRewind: (() => void) | undefined;
}

/** What the chat screen's editor does on Enter, Ctrl-C and Esc, which depends on whether a turn runs and what is queued. */
export function usePromptKeys({store, state, queue, queued, draft, onSubmit, onInterrupt, onExit, onRewind}: PromptKeyParts) {
	const lastCtrlC = useRef(0);
	const lastEsc = useRef(0);

	const submit = (text: string): boolean => {
		// Enter on an empty editor sends the queue kept after an interrupt.
		if (text.trim() === '') {
			if (queued.length > 0) onSubmit('');
			return false;
		}

		// A unique prefix of a command runs that command: "/he" is /help. Refused (a turn is running), the text stays in the editor for when it ends.
		const matches = slashCompletions(text.trim(), state.commands);
		return onSubmit(matches.length === 1 ? matches[0]!.name : text) !== false;
	};

	const ctrlC = (hasText: boolean) => {
		if (state.busy || state.starting) {
			onInterrupt();
			return;
		}

		if (hasText) return;
		const now = Date.now();
		if (now - lastCtrlC.current < EXIT_CONFIRM_MS) {
			onExit();
			return;
		}

		lastCtrlC.current = now;
		store.notice('info', 'press Ctrl-C again to leave');
	};

	const pressEscape = () => {
		// The queue first, so a typed message is never lost to a stop meant for it; with nothing queued, Esc stops the turn as always.
		if (draft === '' && queued.length > 0) {
			const dropped = queue?.pop();
			const left = queued.length - 1;
			const next = left > 0 ? `${queuedCount(left)} left` : state.busy ? 'nothing queued now: Esc stops the turn' : 'nothing queued now';
			if (dropped) store.notice('info', `dropped from the queue: ${firstLine(dropped.typed)} (${next})`);
			return;
		}

		if (state.busy || state.starting) {
			onInterrupt();
			return;
		}

		if (draft !== '' || !onRewind) return;
		const now = Date.now();
		if (now - lastEsc.current < REWIND_ESC_MS) {
			lastEsc.current = 0;
			onRewind();
			return;
		}

		lastEsc.current = now;
	};

	return {submit, ctrlC, pressEscape};
}
