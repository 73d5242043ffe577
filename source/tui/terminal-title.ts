import {basename} from 'node:path';

/** Clears the visible screen, cursor home (ED2, CUP); never ED3, so the scrollback from before `i` started stays: /clear. */
export const CLEAR_SCREEN = '\u001B[2J\u001B[H';
/** Saves and restores the terminal's own title on its title stack (XTWINOPS 22/23; terminals without it ignore them). */
const PUSH_TITLE = '\u001B[22;0t';
const POP_TITLE = '\u001B[23;0t';
/** A session name in the title keeps this many characters: a tab shows far fewer. */
export const MAX_TITLE_NAME_CHARS = 64;

/** OSC 0: the window and icon (tab) title, ended by ST rather than BEL, so a title is never taken for the bell the notifications ring. */
export function titleSequence(title: string): string {
	return `\u001B]0;${title}\u001B\\`;
}

/** Text safe inside OSC 0: control, format and line-separator characters removed, so no name can end the sequence or start another. */
export function safeTitleText(text: string): string {
	return text.replaceAll(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '');
}

/** The session's name as its file is named; null for a new session not yet named (its provisional file is hidden). */
export function sessionTitleName(path: string): string | null {
	const name = safeTitleText(basename(path, '.json')).trim();
	return name === '' || name.startsWith('.') ? null : [...name].slice(0, MAX_TITLE_NAME_CHARS).join('');
}

/** `i · fix-login · working` while a turn runs, `i · fix-login` while it waits for the person. */
export function titleOf(name: string | null, working: boolean): string {
	return ['i', name, working ? 'working' : null].filter(part => part !== null).join(' · ');
}

/** What the title follows: the screen's state, the open approval question, the session's file. */
export interface TitleSources {
	store: {subscribe(listener: () => void): () => void; getSnapshot(): {busy: boolean; starting: boolean}};
	approvals: {subscribe(listener: () => void): () => void; getSnapshot(): unknown};
	sessionPath(): string;
}

/**
 * Keeps the terminal's title on the session's name and whether `i` works
 * or waits for the person (an open approval waits), written only when it
 * changes. The function returned stops following and gives the terminal
 * its own title back (or an empty one, where it keeps no title stack).
 */
export function followTitle(sources: TitleSources, write: (bytes: string) => void): () => void {
	let shown: string | null = null;
	const update = () => {
		const state = sources.store.getSnapshot();
		const title = titleOf(sessionTitleName(sources.sessionPath()), state.busy && !state.starting && sources.approvals.getSnapshot() === null);
		if (title === shown) return;
		write(`${shown === null ? PUSH_TITLE : ''}${titleSequence(title)}`);
		shown = title;
	};

	const stops = [sources.store.subscribe(update), sources.approvals.subscribe(update)];
	update();
	return () => {
		for (const stop of stops) stop();
		if (shown !== null) write(`${titleSequence('')}${POP_TITLE}`);
		shown = null;
	};
}
