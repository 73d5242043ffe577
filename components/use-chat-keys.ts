import {useRef} from 'react';
import type {ChatState} from '../source/tui/chat-state.js';
import type {ChatStore} from '../source/tui/chat-store.js';
import type {EditorDraft} from '../source/tui/editor-draft.js';
import {firstLine, queuedCount, type MessageQueue, type QueuedMessage} from '../source/tui/message-queue.js';
import {slashCompletions} from '../source/tui/slash-commands.js';
import {transcriptText} from '../source/tui/transcript-text.js';

/** A second Ctrl-C on an empty, idle prompt within this time leaves. */
export const EXIT_CONFIRM_MS = 2000;
/** A second Esc on an empty, idle prompt within this time opens /rewind. */
export const REWIND_ESC_MS = 1000;

export interface ChatKeyOptions {
	store: Pick<ChatStore, 'notice'>;
	state: Pick<ChatState, 'busy' | 'starting' | 'commands' | 'finished'>;
	queue: Pick<MessageQueue, 'pop'> | undefined;
	queued: readonly QueuedMessage[];
	/** The editor's text now, pastes whole. */
	draft: string;
	drafts?: EditorDraft | undefined;
	openPager(text: string): void;
	onSubmit(text: string): boolean | void;
	onInterrupt(): void;
	onRewind?: (() => void) | undefined;
	onExit(): void;
	onSuspend?: (() => void) | undefined;
}

/** What the chat screen's editor does on Enter, Ctrl-C, Esc, Ctrl-Z and Ctrl-O, which depends on whether a turn runs and what is queued. */
export function useChatKeys({store, state, queue, queued, draft, drafts, openPager, onSubmit, onInterrupt, onRewind, onExit, onSuspend}: ChatKeyOptions) {
	const lastCtrlC = useRef(0);
	const lastEsc = useRef(0);
	const working = state.busy || state.starting;

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
		if (working) {
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

		if (working) {
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

	// The editor goes with the live region while suspended: its text comes back as a draft when it returns.
	const suspend = () => {
		drafts?.set(draft);
		onSuspend?.();
	};

	// The pager blocks the process while it is open: a running turn would stall (and its timers fire late), so it waits for the turn's end.
	const showTranscript = () => {
		if (working) {
			store.notice('info', 'Ctrl-O shows the whole transcript once the model is not working (Esc stops it)');
			return;
		}

		openPager(transcriptText(state.finished));
	};

	return {submit, ctrlC, pressEscape, suspend, showTranscript};
}
