import {printable, printableExact} from '../shared/output.js';

/**
 * Text from the model, a tool or a server, made safe for the terminal: Ink
 * strips cursor movement but keeps colours and OSC sequences (a clipboard
 * write, a window title), so every control character is shown as U+FFFD.
 */
export function shown(text: string): string {
	return printable(text.replaceAll('\r\n', '\n'));
}

/** What will run or be written (a tool's name, arguments, title, diff): shown, and its invisible and bidi characters marked (`⟨U+202E⟩`). */
export function shownExact(text: string): string {
	return printableExact(text.replaceAll('\r\n', '\n'));
}

/** A progress text's last non-empty line: the one status line a running tool shows. */
export function lastLine(text: string): string {
	return (
		text
			.split(/\r?\n/)
			.filter(line => line.trim().length > 0)
			.at(-1) ?? ''
	);
}

/** Lines of a running tool's progress shown under it (the shell tool's output tail): the last ones. */
export const PROGRESS_LINES = 5;

/** A progress text's last non-empty lines, at most `PROGRESS_LINES`: what a running tool shows under its call. */
export function lastLines(text: string): string {
	return text
		.split(/\r?\n/)
		.filter(line => line.trim().length > 0)
		.slice(-PROGRESS_LINES)
		.join('\n');
}

/**
 * Characters a finished item keeps of each long text (a tool's result, a
 * thinking text, a diff, a `!` command's output) for the full transcript
 * (Ctrl-O): its start, and a line saying how much was not kept.
 */
export const MAX_KEPT_CHARS = 256 * 1024;

export function kept(text: string): string {
	if (text.length <= MAX_KEPT_CHARS) return text;
	return `${text.slice(0, MAX_KEPT_CHARS)}\n… ${text.length - MAX_KEPT_CHARS} more characters not kept`;
}
