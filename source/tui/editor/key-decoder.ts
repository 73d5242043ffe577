/*
 * Raw terminal input to editor actions. The input is what Ink's input parser
 * emits: each escape sequence alone, and runs of plain text between them — a
 * run may hold control characters anywhere (an IME commits "你好\r" as one
 * run), so runs are read character by character and printable stretches kept
 * whole. Bracketed paste (`ESC[200~` … `ESC[201~`, possibly over many events)
 * is text: never submitted, never read as keys, its line breaks made `\n`.
 *
 * Enter submits; a new line is Alt+Enter (ESC CR) or Ctrl-J (LF). Shift+Enter
 * sends a plain CR in most terminals, the same as Enter; it makes a new line
 * only where the terminal reports it apart (kitty keyboard protocol
 * `ESC[13;2u`, xterm modifyOtherKeys `ESC[27;2;13~`).
 */

import {withoutFocusReports} from '../notify/focus-report.js';

export type KeyName =
	| 'submit'
	| 'newline'
	| 'backspace'
	| 'delete'
	| 'left'
	| 'right'
	| 'up'
	| 'down'
	| 'home'
	| 'end'
	| 'wordLeft'
	| 'wordRight'
	| 'deleteWordBefore'
	| 'killToLineEnd'
	| 'killToLineStart'
	| 'ctrlC'
	| 'ctrlD'
	| 'suspend'
	| 'escape'
	| 'tab'
	| 'shiftTab'
	| 'reverseSearch'
	| 'transcript'
	| 'cancel';

/** `paste`: the text came in one bracketed paste (the editor may show a long one as a placeholder). */
export type EditorAction = {readonly type: 'insert'; readonly text: string; readonly paste?: true} | {readonly type: KeyName};

export const PASTE_START = '\u001B[200~';
export const PASTE_END = '\u001B[201~';

const controls: Partial<Record<number, KeyName>> = {
	0x01: 'home', // Ctrl-A
	0x02: 'left', // Ctrl-B
	0x03: 'ctrlC',
	0x04: 'ctrlD',
	0x05: 'end', // Ctrl-E
	0x06: 'right', // Ctrl-F
	0x07: 'cancel', // Ctrl-G: leaves the history search, as in readline
	0x08: 'backspace', // Ctrl-H, and Ctrl+Backspace in some terminals
	0x09: 'tab',
	0x0a: 'newline', // Ctrl-J
	0x0b: 'killToLineEnd', // Ctrl-K
	0x0d: 'submit', // Enter
	0x0e: 'down', // Ctrl-N
	0x0f: 'transcript', // Ctrl-O: the whole transcript in the pager
	0x10: 'up', // Ctrl-P
	0x12: 'reverseSearch', // Ctrl-R
	0x15: 'killToLineStart', // Ctrl-U
	0x17: 'deleteWordBefore', // Ctrl-W
	0x1a: 'suspend', // Ctrl-Z
	0x7f: 'backspace',
};

const sequences: Record<string, KeyName> = {
	'\u001B': 'escape',
	'\u001B\u001B': 'escape',
	'\u001B\r': 'newline',
	'\u001B\n': 'newline',
	'\u001B[13;2u': 'newline',
	'\u001B[13;3u': 'newline',
	'\u001B[13;5u': 'newline',
	'\u001B[27;2;13~': 'newline',
	'\u001B[27;5;13~': 'newline',
	'\u001B[1~': 'home',
	'\u001B[7~': 'home',
	'\u001B[4~': 'end',
	'\u001B[8~': 'end',
	'\u001B[3~': 'delete',
	// Shift+Tab (back-tab): the chat screen cycles the permission mode.
	'\u001B[Z': 'shiftTab',
	'\u001Bb': 'wordLeft',
	'\u001Bf': 'wordRight',
	'\u001B\u001B[D': 'wordLeft',
	'\u001B\u001B[C': 'wordRight',
	'\u001B\u007F': 'deleteWordBefore',
	'\u001B\b': 'deleteWordBefore',
};

const cursorKeys: Record<string, KeyName> = {A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end'};
// CSI or SS3 cursor keys, with an optional modifier (ESC[1;5D is Ctrl+Left).
const cursorSequence = /^\u001B(?:\[(?:1;(\d+))?|O)([ABCDHF])$/;

function decodeSequence(sequence: string): KeyName | undefined {
	const named = sequences[sequence];
	if (named) return named;
	const match = cursorSequence.exec(sequence);
	if (!match) return undefined;
	const key = cursorKeys[match[2]!]!;
	// Modifier 1 + bits: 2 Alt, 4 Ctrl. Alt or Ctrl with Left/Right jumps a word.
	const modifier = Number(match[1] ?? 1) - 1;
	return (modifier & 6) !== 0 && (key === 'left' || key === 'right') ? (key === 'left' ? 'wordLeft' : 'wordRight') : key;
}

const isText = (code: number) => code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0);

function decodeText(run: string, actions: EditorAction[]): void {
	let start = 0;
	for (let index = 0; index < run.length; index++) {
		const code = run.charCodeAt(index);
		if (isText(code)) continue;
		if (index > start) actions.push({type: 'insert', text: run.slice(start, index)});
		start = index + 1;
		const key = controls[code];
		if (key) actions.push({type: key});
	}

	if (run.length > start) actions.push({type: 'insert', text: run.slice(start)});
}

export interface KeyDecoder {
	/** The actions one input event makes (none while a paste is still arriving). */
	push(input: string): EditorAction[];
}

export function createKeyDecoder(): KeyDecoder {
	let paste: string[] | null = null;

	const push = (input: string): EditorAction[] => {
		if (paste) {
			const end = input.indexOf(PASTE_END);
			if (end === -1) {
				paste.push(input);
				return [];
			}

			paste.push(input.slice(0, end));
			const text = paste.join('').replace(/\r\n?/g, '\n');
			paste = null;
			const rest = push(input.slice(end + PASTE_END.length));
			return text === '' ? rest : [{type: 'insert', text, paste: true}, ...rest];
		}

		if (input.startsWith(PASTE_START)) {
			paste = [];
			return push(input.slice(PASTE_START.length));
		}

		// Focus reports (focus-report.ts) are the terminal's, never typed text; use-focus-reports.ts takes them first.
		const keys = withoutFocusReports(input);
		if (keys === '') return [];
		if (keys.startsWith('\u001B')) {
			const key = decodeSequence(keys);
			return key ? [{type: key}] : [];
		}

		const actions: EditorAction[] = [];
		decodeText(keys, actions);
		return actions;
	};

	return {push};
}
