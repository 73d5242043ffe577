import {useRef} from 'react';
import type {ChatState} from '../source/tui/chat-state.js';
import type {ChatStore} from '../source/tui/chat-store.js';
import type {EditorDraft} from '../source/tui/editor-draft.js';
import {transcriptText} from '../source/tui/transcript-text.js';

/** A second Ctrl-C on an empty, idle prompt within this time leaves. */
export const EXIT_CONFIRM_MS = 2000;
/** A second Esc on an empty, idle prompt within this time opens /rewind. */
export const REWIND_ESC_MS = 1000;

export interface ChatKeyOptions {
	store: ChatStore;
	state: ChatState;
	/** The editor's text, pastes whole. */
	draft: string;
	drafts?: EditorDraft | undefined;
	openPager(text: string): void;
	onInterrupt(): void;
	onRewind?: (() => void) | undefined;
	onExit(): void;
	onSuspend?: (() => void) | undefined;
}

/** What the chat screen's own keys in the editor do: Ctrl-C, Esc, Ctrl-Z and Ctrl-O. */
export function useChatKeys({store, state, draft, drafts, openPager, onInterrupt, onRewind, onExit, onSuspend}: ChatKeyOptions) {
	const lastCtrlC = useRef(0);
	const lastEsc = useRef(0);
	const working = state.busy || state.starting;

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

	return {ctrlC, pressEscape, suspend, showTranscript};
}
